package canvas

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"watchlens/parser"
	"watchlens/timeline"
)

// walkedFrame builds v's frame with every lane on screen walked whole on
// the RV axis, as laneMarksRVWalk does, and says how many lanes the
// frame built with the index (into indexed) had searched.
func walkedFrame(t *testing.T, tl *timeline.Timeline, v *View, indexed *Frame) (walked Frame, searched int) {
	t.Helper()
	c := NewCache(tl)
	c.Build(v, indexed)
	for _, le := range c.lanes {
		if le.rvIdx != nil && le.rvIdx.ok {
			searched++
		}
		le.rvIdx = &rvIndex{}
	}
	c.Build(v, &walked)
	return walked, searched
}

// sameFrame fails unless a and b draw alike: the same operations, texts
// and coordinates.
func sameFrame(t *testing.T, what string, a, b *Frame) {
	t.Helper()
	if !reflect.DeepEqual(a.Ops, b.Ops) || !reflect.DeepEqual(a.Texts, b.Texts) {
		t.Fatalf("%s: the searched frame has %d ops and %d texts, the walked one %d and %d", what, len(a.Ops), len(a.Texts), len(b.Ops), len(b.Texts))
	}
	if len(a.floats) != len(b.floats) {
		t.Fatalf("%s: %d floats searched, %d walked", what, len(a.floats), len(b.floats))
	}
	for i := range a.floats {
		if a.floats[i] != b.floats[i] {
			t.Fatalf("%s: float %d is %g searched, %g walked", what, i, a.floats[i], b.floats[i])
		}
	}
}

// rvZooms are views of the RV axis at several zooms over [lo, hi): the
// whole, a tenth, a hundredth and a thousandth at a third of the way, with
// the event filter set to hide MODIFIED in the last.
func rvZooms(v *View, lo, hi int64) []View {
	var out []View
	for _, div := range []int64{1, 10, 100, 1000} {
		z := *v
		span := max((hi-lo)/div, 2)
		z.From = lo + (hi-lo)/3 - span/3
		if div == 1 {
			z.From = lo
		}
		z.To = z.From + span
		out = append(out, z)
	}
	hidden := out[1]
	hidden.Filter.Types = ^uint32(0) &^ (1 << parser.Modified)
	return append(out, hidden)
}

// TestLaneMarksRVSearchedAsWalked: on the RV axis, the frame whose lanes
// are searched by type draws what walking every event draws, on generated
// lanes at several zooms and scrolls; and on real captures, whose lanes
// are short enough for frames to walk, each lane searched marks what it
// walked.
func TestLaneMarksRVSearchedAsWalked(t *testing.T) {
	for _, name := range []string{"w1-broad-configmaps-bookmarks.ts.http", "w2-broad-pods-bookmarks.http.gz", "kubectl-pods-watch.jsonl", "w6-sendinitialevents-rig-a.http"} {
		t.Run(name, func(t *testing.T) {
			tl, an := sampleTimeline(t, name)
			c := NewCache(tl)
			v := wholeView(tl, an, c, 1280)
			v.AxisRV = true
			lo, hi := c.Extent(true)
			searched := 0
			for l := range tl.Lanes.Len() {
				le := c.lane(l)
				ix := le.rvIndexOf()
				if !ix.ok {
					continue
				}
				searched++
				for k, z := range rvZooms(v, lo, hi) {
					s := Scale{From: z.From, To: z.To, X0: gutterW, Width: 1000}
					var got, want [len(markStyles)][]float32
					c.scratch = [len(markStyles)][]float32{}
					c.laneMarksRVIndexed(&z, le, ix, s, 8, markSize*0.6)
					got, c.scratch = c.scratch, [len(markStyles)][]float32{}
					c.laneMarksRVWalk(&z, le, s, 8, markSize*0.6)
					want = c.scratch
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("lane %d, zoom %d: searched %v, walked %v", l, k, got, want)
					}
				}
			}
			if searched == 0 {
				t.Error("no lane's RVs rise: nothing was searched")
			}
		})
	}
	t.Run("generated", func(t *testing.T) {
		tl, an := mixedTimeline(200_000)
		c := NewCache(tl)
		v := wholeView(tl, an, c, 1280)
		v.AxisRV = true
		lo, hi := c.Extent(true)
		searched := 0
		for _, scroll := range []float64{0, float64(len(v.Rows)/2) * RowHeight} {
			v.ScrollY = scroll
			for k, z := range rvZooms(v, lo, hi) {
				var indexed Frame
				walked, n := walkedFrame(t, tl, &z, &indexed)
				sameFrame(t, "zoom "+strconv.Itoa(k)+" scroll "+strconv.FormatFloat(scroll, 'g', -1, 64), &indexed, &walked)
				searched += n
			}
		}
		if searched == 0 {
			t.Error("no lane was searched: the test compares the walk with itself")
		}
	})
}

// mixedTimeline is n events over an hour in 40 lanes of every type a lane
// holds, some without an RV, some RVs repeated, and a few lanes whose RVs
// fall back (a relist), which the walk draws.
func mixedTimeline(n int) (*timeline.Timeline, *timeline.Analysis) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	rng := rand.New(rand.NewPCG(27, 2))
	types := []parser.EventType{parser.Added, parser.Modified, parser.Modified, parser.Modified, parser.Observed}
	b := timeline.NewBuilder()
	f := b.AddFile("mixed")
	step := int64(time.Hour) / int64(n)
	rv := uint64(1000)
	for i := range n {
		lane := rng.IntN(40)
		name := "obj-" + strconv.Itoa(lane)
		rv += uint64(rng.IntN(3)) // 0: an RV repeated
		e := parser.Event{Seq: i, Type: types[rng.IntN(len(types))], Kind: "ConfigMap", Namespace: "ns", Name: name, UID: name,
			RVNum: rv, RVValid: rng.IntN(50) != 0, Arrival: t0 + int64(i)*step}
		if lane%13 == 0 && rng.IntN(100) == 0 {
			e.RVNum = rv - uint64(rng.IntN(500)) - 1 // a relist's older RV
		}
		f.Add(e)
	}
	f.Finish([]parser.Session{{HTTPStatus: 200, StartArrival: t0, EndArrival: t0 + int64(time.Hour),
		Request: &parser.Request{Watch: true, ResourceVersion: "1000"}}}, nil)
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
}
