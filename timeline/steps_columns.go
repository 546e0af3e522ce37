package timeline

// ColumnSpan is the steps of a series that fall in one pixel column (see
// Steps.Columns): the column, the step after its last, and the values of
// its first and last step.
type ColumnSpan struct {
	Col, End    int
	First, Last uint64
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
func (s *Steps) Columns(lo, hi int, ends []int64, out []ColumnSpan) []ColumnSpan {
	c := 0
	for k := lo; k < hi; {
		i := s.ev.at(k)
		t, first := s.tOf(i), s.rvOf(i)
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
		end := k + 1
		// Zoomed in, the next step is mostly in a later column already.
		if end < hi && s.tOf(s.ev.at(end)) < ends[c] {
			end = s.SearchT(end+1, hi, ends[c])
		}
		out = append(out, ColumnSpan{Col: c, End: end, First: first, Last: s.rvOf(s.ev.at(end - 1))})
		k = end
	}
	return out
}
