package canvas

import (
	"sort"
	"testing"

	"watchlens/timeline"
)

// steps is a step series from plain slices.
type steps struct {
	ts []int64
	vs []uint64
}

func (s steps) T(k int) int64 { return s.ts[k] }

func (s steps) RV(k int) uint64 { return s.vs[k] }

func (s steps) SearchT(lo, hi int, t int64) int {
	return lo + sort.Search(hi-lo, func(x int) bool { return s.ts[lo+x] >= t })
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
	e.add(steps{ts, vs}, descents(steps{ts, vs}), 0, len(ts), s)
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
	long.add(steps{lts, lvs}, descents(steps{lts, lvs}), 0, len(lts), s)
	byStep.reset(100)
	every := make([]int32, len(lts)) // as if it fell at every step: no shortcut
	for i := range every {
		every[i] = int32(i)
	}
	byStep.add(steps{lts, lvs}, every, 0, len(lts), s)
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
