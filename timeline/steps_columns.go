package timeline

// ColumnSpan is the steps of a series that fall in one pixel column (see
// Steps.Columns): the column, its first step and the step after its
// last, and the values of its first and last step. T and TLast are the
// instants of its first and last step: what a later call checks before
// it takes the span again (Steps.Columns's prev).
type ColumnSpan struct {
	Col, Start, End int
	First, Last     uint64
	T, TLast        int64
}

// Columns appends to out a span for each column that holds steps of
// [lo, hi), in order, each starting where the one before it ends (the
// first at lo). Column c holds the steps earlier than ends[c] and not
// earlier than ends[c-1]: ends is increasing, and its last is later than
// every step (column 0 holds the steps before ends[0]). It walks the
// columns forward, so a column costs a search through ends and one
// through the steps, each from the column before it, in a loop that
// makes a call only for a column of several steps (as wasm, a loop that
// calls is several times slower): a frame's drawing walks a million
// steps in a few thousand.
//
// prev is what one earlier call over these same steps answered (a pan's
// frame before, whose columns are mostly this one's a few pixels over),
// or nil; out must not share its array. A span of it that starts where
// a column's steps do is taken as it is when the instants around its
// ends show it holds exactly that column's steps, known from the spans
// themselves (or, past the last of them, from the next step decoded): a
// pan's frame decodes and searches only the columns it newly shows. The
// answer is the same with prev or without it.
func (s *Steps) Columns(lo, hi int, ends []int64, prev, out []ColumnSpan) []ColumnSpan {
	c, p := 0, 0
	for k := lo; k < hi; {
		for p < len(prev) && prev[p].Start < k {
			p++
		}
		known := p < len(prev) && prev[p].Start == k
		var t int64
		var first uint64
		if known {
			t, first = prev[p].T, prev[p].First
		} else {
			i := s.ev.at(k)
			t, first = s.tOf(i), s.rvOf(i)
		}
		if last := len(ends) - 1; c < last && ends[c] <= t {
			// Gallop from c, then halve: a series of few steps (a
			// capture split into clients has thousands) skips most
			// columns. ends[lo] is t or earlier; ends[hi] is later, or
			// hi is the last column.
			lo, hi := c, last
			for step := 1; lo+step < hi; step *= 2 {
				if ends[lo+step] > t {
					hi = lo + step
					break
				}
				lo += step
			}
			for lo+1 < hi {
				if m := int(uint(lo+hi) >> 1); ends[m] > t {
					hi = m
				} else {
					lo = m
				}
			}
			c = hi
		}
		if known && s.spanHolds(prev, p, hi, ends[c]) {
			sp := prev[p]
			sp.Col = c
			out = append(out, sp)
			k = sp.End
			continue
		}
		end := k + 1
		// Zoomed in, the next step is mostly in a later column already.
		if end < hi && s.tOf(s.ev.at(end)) < ends[c] {
			end = s.SearchT(end+1, hi, ends[c])
		}
		tLast, last := s.of(s.ev.at(end - 1))
		out = append(out, ColumnSpan{Col: c, Start: k, End: end, First: first, Last: last, T: t, TLast: tLast})
		k = end
	}
	return out
}

// spanHolds says whether prev[p], a span of an earlier Columns call that
// starts at the step a column's steps start at, holds exactly the steps
// of [its start, hi) earlier than end: its steps are (its last is), and
// the step after it is not, or is hi. The instant of that step is the
// next span's T, the spans of one call following each other.
func (s *Steps) spanHolds(prev []ColumnSpan, p, hi int, end int64) bool {
	sp := &prev[p]
	switch {
	case sp.End > hi || sp.TLast >= end:
		return false
	case sp.End == hi:
		return true
	case p+1 < len(prev):
		return prev[p+1].T >= end
	}
	return s.tOf(s.ev.at(sp.End)) >= end
}
