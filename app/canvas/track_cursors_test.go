package canvas

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// steps is a step series from plain slices.
type steps struct {
	ts []int64
	vs []uint64
}

func (s steps) T(k int) int64 { return s.ts[k] }

func (s steps) RV(k int) uint64 { return s.vs[k] }

// Columns groups the steps one by one, as timeline.Steps.Columns does by
// searches.
func (s steps) Columns(lo, hi int, ends []int64, _, out []timeline.ColumnSpan) []timeline.ColumnSpan {
	for k := lo; k < hi; k++ {
		c := sort.Search(len(ends)-1, func(c int) bool { return ends[c] > s.ts[k] })
		if n := len(out); n > 0 && out[n-1].Col == c {
			out[n-1].End, out[n-1].Last = k+1, s.vs[k]
			continue
		}
		out = append(out, timeline.ColumnSpan{Col: c, End: k + 1, First: s.vs[k], Last: s.vs[k]})
	}
	return out
}

// columnEnds is each column's Scale.ColumnEnd, as the cursor strip finds them.
func columnEnds(s Scale, n int) []int64 {
	ends := make([]int64, n)
	for col := range ends {
		ends[col] = s.ColumnEnd(col, n)
	}
	return ends
}

// descents is timeline.Steps.Descents for a test series.
func descents(st steps) []int32 {
	var out []int32
	for k, v := range st.vs {
		if v == timeline.NoRV || k > 0 && (st.vs[k-1] == timeline.NoRV || v < st.vs[k-1]) {
			out = append(out, int32(k))
		}
	}
	return out
}

// TestStepEnvelope reduces a step series to columns and back to segments.
func TestStepEnvelope(t *testing.T) {
	s := Scale{From: 0, To: 100, X0: 10, Width: 100}
	ts := []int64{0, 10, 10, 50, 51, 90}
	vs := []uint64{5, 7, 6, 9, timeline.NoRV, 12}
	var e stepEnvelope
	e.reset(100)
	e.add(steps{ts, vs}, descents(steps{ts, vs}), 0, len(ts), columnEnds(s, 100), nil, nil)
	if !e.has[10] || e.lo[10] != 5 || e.hi[10] != 7 || e.last[10] != 6 {
		t.Errorf("column 10: has %v lo %d hi %d last %d", e.has[10], e.lo[10], e.hi[10], e.last[10])
	}
	if !e.breakAfter[50] || e.has[51] {
		t.Errorf("the unset step does not break the line")
	}
	// A long rising run folds from its ends and gives the same columns.
	var long, byStep stepEnvelope
	lts, lvs := make([]int64, 1000), make([]uint64, 1000)
	for i := range lts {
		lts[i], lvs[i] = int64(i/10), uint64(i*3)
	}
	long.reset(100)
	long.add(steps{lts, lvs}, descents(steps{lts, lvs}), 0, len(lts), columnEnds(s, 100), nil, nil)
	byStep.reset(100)
	every := make([]int32, len(lts)) // as if it fell at every step: no shortcut
	for i := range every {
		every[i] = int32(i)
	}
	byStep.add(steps{lts, lvs}, every, 0, len(lts), columnEnds(s, 100), nil, nil)
	for col := range 100 {
		if long.has[col] != byStep.has[col] || long.lo[col] != byStep.lo[col] || long.hi[col] != byStep.hi[col] || long.last[col] != byStep.last[col] {
			t.Fatalf("column %d: folded %v %d..%d last %d, stepwise %v %d..%d last %d", col,
				long.has[col], long.lo[col], long.hi[col], long.last[col], byStep.has[col], byStep.lo[col], byStep.hi[col], byStep.last[col])
		}
	}
	if e.min != 5 || e.max != 12 {
		t.Errorf("range %d..%d", e.min, e.max)
	}
	segs := e.segments(nil, 10, 100, rvBand{h: 20, top: 12, bot: 5})
	// 0->10 flat at 5; at 10 a vertical 5..7 and flat at 6 to 50; vertical
	// 6..9 at 50; no line from 51 to 90; 90 flat to the end.
	if len(segs)%4 != 0 || len(segs)/4 != 5 {
		t.Fatalf("%d segments: %v", len(segs)/4, segs)
	}
	for k := 0; k < len(segs); k += 4 {
		if segs[k] > 60.5+10 && segs[k] < 90+10 {
			t.Errorf("segment %v crosses the gap with no cursor", segs[k:k+4])
		}
	}
}

// TestStepEnvelopeSearchedAsWalked: on real captures, the head and each
// cursor folded into columns run by run (a search per column, one per
// descent) give the columns that folding every step gives, at several
// zooms and widths; and some of those columns hold a descent, where a
// cursor fell or was unset, inside them.
func TestStepEnvelopeSearchedAsWalked(t *testing.T) {
	// The WatchList recording's clients that asked for bookmarks: their
	// cursors fall or are unset and set again, several times in a pixel
	// column. (Those that did not ask never synced: with no cursor to
	// resume from, they have none that falls.)
	paths, err := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-watchlist"), "c0*-bookmarks*.http"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no WatchList captures with bookmarks: %v", err)
	}
	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http", "w6-sendinitialevents-rig-a.http", "kubectl-pods-watch.jsonl"} {
		paths = append(paths, testsample.Sample(t, name))
	}
	inside := 0
	for _, path := range paths {
		name := filepath.Base(path)
		b := timeline.NewBuilder()
		if err := b.AddReader(name, bytes.NewReader(testsample.Read(t, path)), parser.Options{}); err != nil {
			t.Fatal(err)
		}
		tl := b.Build()
		series := []*timeline.Steps{tl.HeadSteps()}
		for k := range tl.Cursors {
			series = append(series, &tl.Cursors[k].Steps)
		}
		lo, hi := NewCache(tl).Extent(false)
		for _, width := range []float64{320, 1280} {
			for _, div := range []int64{1, 10, 100, 1000} {
				span := max((hi-lo)/div, 2)
				from := lo + (hi-lo)/3 - span/3
				if div == 1 {
					from = lo
				}
				s := Scale{From: from, To: from + span, X0: 0, Width: width}
				n := int(width)
				for _, st := range series {
					a, z := st.Range(s.From, s.To)
					searchedAsWalked(t, st, s, n, a, z)
					for _, d := range st.Descents() {
						if k := int(d); k > a && k < z && s.Column(st.T(k), n) == s.Column(st.T(k-1), n) {
							inside++
						}
					}
				}
			}
		}
	}
	if inside == 0 {
		t.Error("no column of the captures holds a descent: the runs are not tried")
	}
	t.Logf("%d columns hold a descent", inside)
	// A series that, ten steps a column, rises for four, falls, rises
	// again and every third column is unset for a step: runs of several
	// steps on either side of the descents.
	ts, vs := make([]int64, 1000), make([]uint64, 1000)
	for i := range ts {
		ts[i], vs[i] = int64(i/10), uint64(100+i%10*7-(i%10/5)*40+i/10)
		if i%30 == 7 {
			vs[i] = timeline.NoRV
		}
	}
	st := steps{ts, vs}
	every := make([]int32, len(ts))
	for i := range every {
		every[i] = int32(i)
	}
	s := Scale{From: 0, To: 100, X0: 0, Width: 100}
	var searched, walked stepEnvelope
	searched.reset(100)
	searched.add(st, descents(st), 0, len(ts), columnEnds(s, 100), nil, nil)
	walked.reset(100)
	walked.add(st, every, 0, len(ts), columnEnds(s, 100), nil, nil)
	if !reflect.DeepEqual(searched, walked) {
		t.Error("a generated series folded by runs differs from the one folded step by step")
	}
}

// searchedAsWalked checks that st's steps [a, z), folded into the n
// columns of s run by run, give the columns that folding every step, each
// in its Scale.Column, gives.
func searchedAsWalked(t *testing.T, st *timeline.Steps, s Scale, n, a, z int) {
	t.Helper()
	ends := columnEnds(s, n)
	var searched, walked stepEnvelope
	searched.reset(n)
	spans := searched.add(st, st.Descents(), a, z, ends, nil, nil)
	// The steps, read one by one, and each its own descent: no shortcut.
	plain := steps{make([]int64, st.Len()), make([]uint64, st.Len())}
	every := make([]int32, st.Len())
	for k := range every {
		plain.ts[k], plain.vs[k] = st.Step(k)
		every[k] = int32(k)
	}
	walked.reset(n)
	walked.add(plain, every, a, z, ends, nil, nil)
	if !reflect.DeepEqual(searched, walked) {
		t.Fatalf("%v over %d columns: the columns folded by runs differ from those folded step by step", s, n)
	}
	k := a
	for _, sp := range spans {
		for ; k < sp.End; k++ {
			if col := s.Column(plain.ts[k], n); col != sp.Col {
				t.Fatalf("%v over %d columns: step %d is in column %d, its span says %d", s, n, k, col, sp.Col)
			}
		}
	}
	if k != max(z, a) {
		t.Fatalf("%v over %d columns: the spans end at step %d, not %d", s, n, k, z)
	}
}

// TestStepEnvelopeSearchedAsWalkedBusy is TestStepEnvelopeSearchedAsWalked
// on the frame benchmark's capture of a million events, whole, zoomed in
// and panned, on both sides of a step per column.
func TestStepEnvelopeSearchedAsWalkedBusy(t *testing.T) {
	tl, _ := benchTimeline()
	series := []*timeline.Steps{tl.HeadSteps()}
	for k := range tl.Cursors {
		series = append(series, &tl.Cursors[k].Steps)
	}
	lo, hi := NewCache(tl).Extent(false)
	for _, div := range []int64{1, 10, 1000, 100000} {
		span := max((hi-lo)/div, 2)
		for _, from := range []int64{lo, lo + (hi-lo)/3, hi - span/2} {
			s := Scale{From: from, To: from + span, X0: 0, Width: 2000}
			for _, st := range series {
				a, z := st.Range(s.From, s.To)
				searchedAsWalked(t, st, s, 2000, a, z)
			}
		}
	}
}

// TestCursorShadeStopsWithTheLines: w3-narrow's capture ends minutes
// before w1's, on the clock they share. Its two cursors' lines stop at
// its end, and so does the shade between them, which ran on to the
// plot's right end, between lines no longer drawn.
func TestCursorShadeStopsWithTheLines(t *testing.T) {
	tl := buildFiles(t, []string{testsample.Sample(t, "w3-narrow-label-bookmarks.ts.http"), testsample.Sample(t, "w1-broad-configmaps-bookmarks.ts.http")})
	c := NewCache(tl)
	v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	s := v.PlotScale(&layout)
	f := slices.IndexFunc(tl.Files, func(f timeline.File) bool { return f.Name == "w3-narrow-label-bookmarks.ts.http" })
	end := max(tl.Cursors[2*f].End, tl.Cursors[2*f+1].End)
	if end >= tl.End() {
		t.Fatalf("w3-narrow's cursors end at the clock's end: the test tests nothing")
	}
	var band Band
	for _, b := range layout.Bands {
		if b.ID == BandCursors && b.File == f {
			band = b
		}
	}
	shaded := 0
	for _, op := range fr.Ops {
		if op.Kind != "rect" || op.Color != ColorIgnoring || op.Alpha != 0.18 {
			continue
		}
		fl := fr.floats[op.Offset : op.Offset+op.Count]
		for i := 0; i+3 < len(fl); i += 4 {
			if y := float64(fl[i+1]); y < band.Y || y >= band.Y+band.Height {
				continue
			}
			shaded++
			if right := float64(fl[i] + fl[i+2]); right > s.XClamped(end)+1 {
				t.Errorf("the shade between w3-narrow's cursors reaches x %v, past their end at %v", right, s.XClamped(end))
			}
		}
	}
	if shaded == 0 {
		t.Error("no shade between w3-narrow's cursors: the test tests nothing")
	}
}
