package canvas

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"watchlens/parser"
	"watchlens/timeline"
)

// gridTimeline is a watch of n events exactly every 1000 ns from 0, each
// with a new RV, so that a view whose columns are 1000 ns wide has a
// step at each column's end, and a pan by a nanosecond more or less
// moves each such step into the next column or keeps it.
func gridTimeline(n int) *timeline.Timeline {
	b := timeline.NewBuilder()
	f := b.AddFile("grid")
	for i := range n {
		f.Add(parser.Event{Seq: i, Type: parser.Modified, Kind: "ConfigMap", Namespace: "ns", Name: "cm", UID: "cm",
			RVNum: uint64(1000 + i), RVValid: true, Arrival: int64(i) * 1000})
	}
	f.Finish([]parser.Session{{HTTPStatus: 200, StartArrival: 0, EndArrival: int64(n) * 1000}}, nil)
	return b.Build()
}

// TestColumnsReusedAsFound pans, zooms and moves views over the head and
// the cursors of two captures, and checks that the column spans found
// over an earlier view's (Steps.Columns's prev) are those found afresh:
// on a grid whose steps lie on the columns' ends, panned by whole
// columns and by a nanosecond off them, and on a busy broad watch panned
// as a drag does; some views' steps cut short of their end, some the
// whole series, and some found over the spans of a view three before.
// It checks too that a pan does take the last view's spans: a span taken
// is told by a mark on the spans given.
func TestColumnsReusedAsFound(t *testing.T) {
	busy, _ := busyTimeline(200_000)
	for _, tc := range []struct {
		name string
		tl   *timeline.Timeline
		grid bool
		most int // the least percentage of a pan's spans taken
	}{{"grid", gridTimeline(20_000), true, 50}, {"busy", busy, false, 90}} {
		t.Run(tc.name, func(t *testing.T) {
			series := []*timeline.Steps{tc.tl.HeadSteps()}
			for i := range tc.tl.Cursors {
				series = append(series, &tc.tl.Cursors[i].Steps)
			}
			c := NewCache(tc.tl)
			lo, hi := c.Extent(false)
			rng := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
			var pans, taken, spans int
			for _, st := range series {
				if st.Len() == 0 {
					continue
				}
				const n = 400
				from, to := lo+(hi-lo)/3, lo+(hi-lo)/3+(hi-lo)/8
				if tc.grid {
					from = 1000 * int64(rng.IntN(1000))
					to = from + n*1000
				}
				var found [][]timeline.ColumnSpan // each view's spans, the last last
				for step := range 300 {
					s := Scale{From: from, To: to, X0: 0, Width: n}
					ends := columnEnds(s, n)
					a, z := st.Range(from, to)
					switch step % 7 {
					case 3:
						// Steps cut short of the view's end: a range
						// Columns is given need not be the view's.
						z -= min(z-a, 1+rng.IntN(20))
					case 5:
						a, z = 0, st.Len() // the whole series
					}
					var prev []timeline.ColumnSpan
					if k := len(found); k > 0 {
						prev = found[k-1]
						if step%4 == 2 && k >= 3 {
							prev = found[k-3]
						}
					}
					fresh := st.Columns(a, z, ends, nil, nil)
					got := st.Columns(a, z, ends, prev, nil)
					if !reflect.DeepEqual(fresh, got) {
						t.Fatalf("view %d [%d, %d): the spans found over an earlier view's differ from those found afresh", step, from, to)
					}
					if step%10 != 0 && step%7 != 5 && len(found) > 0 {
						// A pan, as a drag's: each of the last view's
						// spans marked, to count those taken.
						pans++
						marked := make([]timeline.ColumnSpan, len(found[len(found)-1]))
						for i, sp := range found[len(found)-1] {
							sp.Last |= 1 << 62
							marked[i] = sp
						}
						for _, sp := range st.Columns(a, z, ends, marked, nil) {
							spans++
							if sp.Last&(1<<62) != 0 {
								taken++
							}
						}
					}
					found = append(found, got)
					switch {
					case step%10 == 9:
						// A zoom about the middle, or the range moved far.
						span := max((to-from)*int64(1+rng.IntN(3))/2, n)
						mid := from + (to-from)/2 + int64(rng.IntN(n*1000))
						from, to = mid-span/2, mid-span/2+span
					case tc.grid && step%2 == 0:
						// Whole columns, or a nanosecond off them.
						d := 1000*int64(rng.IntN(15)-7) + int64(rng.IntN(3)-1)
						from, to = from+d, to+d
					default:
						// As gestures.pan: a few pixels, rounded to the
						// nanosecond.
						px := float64(rng.IntN(15) - 7)
						d := int64(px*float64(to-from)/n + 0.5)
						from, to = from+d, to+d
					}
				}
			}
			if pans == 0 || taken*100 < spans*tc.most {
				t.Errorf("%d pans took %d of their %d spans from the view before: want %d %% at least", pans, taken, spans, tc.most)
			}
			t.Logf("%d pans took %d of their %d spans from the view before", pans, taken, spans)
		})
	}
}

// TestColumnsReusedAtTheEdges: the spans of an earlier call are taken or
// not at the edges the random views seldom reach: the last span of a call
// cut short, whose next step is decoded, one nanosecond before a wider
// column's end; and the last span of the whole series, which ends where
// the steps do.
func TestColumnsReusedAtTheEdges(t *testing.T) {
	st := gridTimeline(100).HeadSteps() // a step at 0, 1000, 2000, ...
	const k = 10
	narrow := []int64{}
	for c := range k {
		narrow = append(narrow, int64(c+1)*1000)
	}
	narrow = append(narrow, math.MaxInt64)
	for _, tc := range []struct {
		name     string
		lo, hi   int
		ends     []int64
		prev     []timeline.ColumnSpan
		reusable bool
	}{
		// Steps k-1 and k share the wider column, which ends a
		// nanosecond after step k: the span of step k alone does not
		// hold it.
		{"cut short", 0, st.Len(), []int64{(k - 1) * 1000, k*1000 + 1, math.MaxInt64}, st.Columns(0, k, narrow, nil, nil), false},
		{"whole series", 0, st.Len(), narrow, st.Columns(0, st.Len(), narrow, nil, nil), true},
	} {
		fresh := st.Columns(tc.lo, tc.hi, tc.ends, nil, nil)
		if got := st.Columns(tc.lo, tc.hi, tc.ends, tc.prev, nil); !reflect.DeepEqual(fresh, got) {
			t.Errorf("%s: over the earlier spans %v, want %v", tc.name, got, fresh)
		}
		if !tc.reusable {
			continue
		}
		// Each span marked, to tell that every one is taken.
		marked := slices.Clone(tc.prev)
		for i := range marked {
			marked[i].Last |= 1 << 62
		}
		for _, sp := range st.Columns(tc.lo, tc.hi, tc.ends, marked, nil) {
			if sp.Last&(1<<62) == 0 {
				t.Errorf("%s: the span of column %d, steps [%d, %d), is not taken from the same call's", tc.name, sp.Col, sp.Start, sp.End)
			}
		}
	}
}

// TestSpansOfSeriesNotDrawnLetGo: the cursor strips keep each series'
// spans for the next frame, and only those of the series the last frame
// drew: a capture split into thousands of clients draws a few of them at
// a time.
func TestSpansOfSeriesNotDrawnLetGo(t *testing.T) {
	tl, _ := twoFiles(t)
	c := NewCache(tl)
	c.cols, c.spans = make([]stepEnvelope, 1+len(tl.Cursors)), make([]seriesSpans, 1+len(tl.Cursors))
	lo, hi := c.Extent(false)
	ends := columnEnds(Scale{From: lo, To: hi, X0: 0, Width: 100}, 100)
	frame := func(series ...int) {
		c.spanFrame++
		for _, i := range series {
			st := tl.HeadSteps()
			if i > 0 {
				st = &tl.Cursors[i-1].Steps
			}
			c.cols[i].reset(len(ends))
			c.foldSeries(i, &c.cols[i], st, st.Descents(), 0, st.Len(), ends)
		}
		c.dropSpansNotDrawn()
	}
	frame(0, 1, 2, 3, 4)
	frame(0, 3, 0)
	kept := 0
	for i, sp := range c.spans {
		if sp.last != nil {
			kept++
			if i != 0 && i != 3 {
				t.Errorf("series %d, not drawn in the last frame, keeps %d spans", i, len(sp.last))
			}
		}
	}
	if kept != 2 || len(c.spansHeld) != 2 {
		t.Errorf("%d series keep spans, %d held (%v): want the 2 the last frame drew", kept, len(c.spansHeld), c.spansHeld)
	}
}

// BenchmarkColumnsPanned is a pan frame's column spans of the busy broad
// watch's head, a fifth of the capture moved by 5 of its 2000 columns
// each frame (as a drag does), found over the frame before's (reused)
// or afresh.
func BenchmarkColumnsPanned(b *testing.B) {
	tl, _ := busyTimeline(1_000_000)
	st := tl.HeadSteps()
	lo, hi := NewCache(tl).Extent(false)
	width := (hi - lo) / 5
	const n = 2000
	for _, reuse := range []bool{false, true} {
		b.Run(map[bool]string{false: "afresh", true: "reused"}[reuse], func(b *testing.B) {
			var last, spare []timeline.ColumnSpan
			from := lo
			for b.Loop() {
				if from+width > hi {
					from = lo
				}
				ends := columnEnds(Scale{From: from, To: from + width, X0: 0, Width: n}, n)
				a, z := st.Range(from, from+width)
				prev := last
				if !reuse {
					prev = nil
				}
				last, spare = st.Columns(a, z, ends, prev, spare[:0]), last
				from += 5 * width / n
			}
		})
	}
}
