package canvas

import (
	"math/rand/v2"
	"reflect"
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
// over the last view's (Steps.Columns's prev) are those found afresh:
// on a grid whose steps lie on the columns' ends, panned by whole
// columns and by a nanosecond off them, and on a busy broad watch panned
// as a drag does; some views' steps cut short of their end. It checks too that a pan does take the last view's
// spans: a span taken is told by a mark on the spans given.
func TestColumnsReusedAsFound(t *testing.T) {
	busy, _ := busyTimeline(200_000)
	for _, tc := range []struct {
		name string
		tl   *timeline.Timeline
		grid bool
	}{{"grid", gridTimeline(20_000), true}, {"busy", busy, false}} {
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
				var from, to int64
				if tc.grid {
					from, to = 1000*int64(rng.IntN(1000)), 0
					to = from + n*1000
				} else {
					from, to = lo+(hi-lo)/3, lo+(hi-lo)/3+(hi-lo)/8
				}
				var prev []timeline.ColumnSpan
				for step := range 300 {
					s := Scale{From: from, To: to, X0: 0, Width: n}
					ends := columnEnds(s, n)
					a, z := st.Range(from, to)
					if step%7 == 3 {
						// Steps cut short of the view's end: a range
						// Columns is given need not be the view's.
						z -= min(z-a, 1+rng.IntN(20))
					}
					fresh := st.Columns(a, z, ends, nil, nil)
					got := st.Columns(a, z, ends, prev, nil)
					if !reflect.DeepEqual(fresh, got) {
						t.Fatalf("view %d [%d, %d): the spans found over the last view's differ from those found afresh", step, from, to)
					}
					if step%10 != 0 {
						// A pan, as a drag's: each of the last view's
						// spans marked, to count those taken.
						pans++
						marked := make([]timeline.ColumnSpan, len(prev))
						for i, sp := range prev {
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
					prev = got
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
			if pans == 0 || taken < spans*3/4 {
				t.Errorf("%d pans took %d of their %d spans from the view before: want most", pans, taken, spans)
			}
			t.Logf("%d pans took %d of their %d spans from the view before", pans, taken, spans)
		})
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
