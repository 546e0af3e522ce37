package canvas

import (
	"strconv"
	"testing"
	"time"

	"watchlens/parser"
	"watchlens/timeline"
)

// TestMarksOnePerEventWhenZoomedIn: zoomed in enough, every event of a lane
// on screen has its own mark, in its type's shape. The lane is the one with
// the most events whose events, zoomed to the lane's span, all lie further
// apart than marks of a type merge.
func TestMarksOnePerEventWhenZoomedIn(t *testing.T) {
	tl, an := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	plotW := NewLayout(1280, 2, false, HasHad(an)).PlotW
	row := -1
	for r, rw := range v.Rows {
		if rw.Lane < 0 {
			continue
		}
		evs := tl.LaneEvents(rw.Lane)
		if len(evs) < 2 || row >= 0 && len(evs) <= len(tl.LaneEvents(v.Rows[row].Lane)) {
			continue
		}
		span := float64(tl.Event(int(evs[len(evs)-1])).T - tl.Event(int(evs[0])).T + 2)
		apart := true
		for k := 1; k < len(evs); k++ {
			if float64(tl.Event(int(evs[k])).T-tl.Event(int(evs[k-1])).T)*plotW/span < markSize {
				apart = false
			}
		}
		if apart {
			row = r
		}
	}
	if row < 0 {
		t.Fatal("no lane with two or more events a mark apart: the test tests nothing")
	}
	rw := v.Rows[row]
	v.Rows = []Row{{Group: rw.Group, Lane: -1}, rw} // its header, and it
	evs := tl.LaneEvents(rw.Lane)
	t.Logf("lane %s: %d events", tl.Lanes.At(rw.Lane).Name, len(evs))
	v.From, v.To = tl.Event(int(evs[0])).T-1, tl.Event(int(evs[len(evs)-1])).T+1
	var fr Frame
	c.Build(v, &fr)
	want := map[string]int{}
	for _, i := range evs {
		want[markStyles[tl.Event(int(i)).Type].shape]++
	}
	got := map[string]int{}
	for _, op := range opsOf(&fr, "mark", "") {
		if op.Shape != "tridown" && op.Shape != "ring" {
			got[op.Shape] += op.Count / 2
		}
	}
	for shape, n := range want {
		if got[shape] != n {
			t.Errorf("%d %s marks, %d events", got[shape], shape, n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("marks of shapes %v, events of shapes %v", got, want)
	}
}

// hotTimeline is 1 M events over five objects: the hot lanes of a lease
// or an endpoint renewed all the time. Every 1000th event, all in the
// first lane, is OBSERVED, so that lane has type changes to find.
func hotTimeline(t testing.TB, n int) (*timeline.Timeline, *timeline.Analysis) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	b := timeline.NewBuilder()
	f := b.AddFile("hot")
	step := int64(time.Hour) / int64(n)
	for i := 0; i < n; i++ {
		name := "lease-" + strconv.Itoa(i%5)
		typ := parser.Modified
		if i%1000 == 500 {
			typ = parser.Observed // not DELETED: that would close the lane
		}
		f.Add(parser.Event{Seq: i, Type: typ, Kind: "Lease", Namespace: "kube-node-lease", Name: name, UID: name,
			RVNum: uint64(1000 + i), RVValid: true, Arrival: t0 + int64(i)*step})
	}
	f.Finish([]parser.Session{{HTTPStatus: 200, StartArrival: t0, EndArrival: t0 + int64(time.Hour),
		Request: &parser.Request{Watch: true, ResourceVersion: "1000"}}}, nil)
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
}

// TestHotLaneMarks: in a packed lane every type still gets a mark in every
// stretch where it occurs, and marks of a type stay a mark width apart.
func TestHotLaneMarks(t *testing.T) {
	tl, an := hotTimeline(t, 100_000)
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1000+gutterW+rightPad)
	v.Rows = v.Rows[:2]
	var fr Frame
	c.Build(v, &fr)
	var dots, diamonds int
	for _, op := range opsOf(&fr, "mark", "") {
		switch op.Shape {
		case "dot":
			dots += op.Count / 2
			for k := op.Offset + 2; k < op.Offset+op.Count; k += 2 {
				if dx := fr.floats[k] - fr.floats[k-2]; dx < markSize*0.6-0.1 {
					t.Fatalf("two MODIFIED marks %.2f px apart", dx)
				}
			}
		case "diamond":
			diamonds += op.Count / 2
		}
	}
	// 1000 px of plot, a bucket every 5.4 px or more; the lane's 100
	// OBSERVED events are 36 s (about 10 px) apart, each in its own bucket.
	if dots < 150 || dots > 200 || diamonds != 100 {
		t.Errorf("%d MODIFIED and %d OBSERVED marks", dots, diamonds)
	}
}
