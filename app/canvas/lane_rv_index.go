package canvas

import (
	"math"

	"watchlens/parser"
	"watchlens/timeline"
)

// rvIndex is a decoded lane's events by type on the resourceVersion
// axis, for a lane whose RVs never fall in event order (one watch stream,
// the usual lane): there a type's marks are found by searching its events'
// RVs, so a frame costs a few searches per mark, not a step per event in
// the lane, which a walk of the lane on this axis is (docs/performance.md,
// "hot lanes on the resourceVersion axis").
type rvIndex struct {
	// ok says the lane's valid RVs are non-decreasing in event order.
	ok bool
	// byType[typ] are the positions in the lane of its events of type typ
	// with a valid RV, in order.
	byType [len(markStyles)][]int32
}

// rvIndexOf builds le's index once, on its first frame on the RV axis.
func (le *decodedLane) rvIndexOf() *rvIndex {
	if le.rvIdx != nil {
		return le.rvIdx
	}
	ix := &rvIndex{ok: true}
	last := int64(math.MinInt64)
	for k, rv := range le.rv {
		if rv == timeline.NoRV {
			continue
		}
		p := int64(rv)
		if p < last {
			ix.ok = false
			break
		}
		last = p
		if typ := int(le.typ[k]); typ < len(ix.byType) {
			ix.byType[typ] = append(ix.byType[typ], int32(k))
		}
	}
	if !ix.ok {
		ix.byType = [len(markStyles)][]int32{}
	}
	le.rvIdx = ix
	return ix
}

// laneMarksRVIndexed is laneMarksRV for a lane whose RVs rise: each type's
// marks are its first event in view and then, again and again, its first
// event at least minGap right of the last mark, found by galloping over
// its RVs (the pixel position is non-decreasing in the RV, so the walk's
// test, within minGap of the last mark, holds for a prefix).
func (c *Cache) laneMarksRVIndexed(v *View, le *decodedLane, ix *rvIndex, s Scale, cy float32, minGap float64) {
	for typ, ks := range ix.byType {
		if len(ks) == 0 || !v.Filter.Event(parser.EventType(typ)) {
			continue
		}
		pos := func(i int) int64 { return int64(le.rv[ks[i]]) }
		i := gallop(0, len(ks), func(i int) bool { return pos(i) >= v.From })
		for i < len(ks) && pos(i) < v.To {
			x := s.X(pos(i))
			c.scratch[typ] = append(c.scratch[typ], float32(x), cy)
			i = gallop(i+1, len(ks), func(j int) bool { return s.X(pos(j))-x >= minGap })
		}
	}
}

// gallop returns the first i in [lo, hi) where ok holds, hi if none,
// for ok false then true over the range: it tests lo, then steps of
// doubling length from it, then searches the last step, so an answer k
// past lo costs about 2 log2(k) tests, not log2(hi-lo).
func gallop(lo, hi int, ok func(int) bool) int {
	if lo >= hi || ok(lo) {
		return lo
	}
	for step := 1; ; step *= 2 {
		next := lo + step
		if next >= hi {
			break
		}
		if ok(next) {
			hi = next
			break
		}
		lo = next
	}
	// ok is false at lo and true at hi, or hi is the range's end.
	lo++
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ok(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}
