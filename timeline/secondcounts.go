package timeline

import (
	"cmp"
	"slices"
	"sort"
)

// secondCounts counts instants by the second they fall in: a log's
// requests of one kind, kept at a cost of one entry per second that has
// any, however many it has.
type secondCounts []secondCount

type secondCount struct {
	sec int64 // Unix seconds
	n   int32
}

// add counts instant t (Unix nanoseconds). Instants come nearly in
// order; seal sorts and merges those that did not.
func (c *secondCounts) add(t int64) {
	s := t / 1e9
	if k := len(*c) - 1; k >= 0 && (*c)[k].sec == s {
		(*c)[k].n++
		return
	}
	*c = append(*c, secondCount{s, 1})
}

// seal sorts the seconds and merges repeated ones.
func (c *secondCounts) seal() {
	cs := *c
	slices.SortStableFunc(cs, func(x, y secondCount) int { return cmp.Compare(x.sec, y.sec) })
	out := 0
	for _, e := range cs {
		if out > 0 && cs[out-1].sec == e.sec {
			cs[out-1].n += e.n
			continue
		}
		cs[out] = e
		out++
	}
	*c = cs[:out]
}

// within counts the instants of the whole seconds inside [from, to]:
// those of the seconds that straddle either end are left out, so the
// count is of instants surely inside.
func (c secondCounts) within(from, to int64) int {
	lo := sort.Search(len(c), func(k int) bool { return c[k].sec*1e9 >= from })
	n := 0
	for k := lo; k < len(c) && (c[k].sec+1)*1e9 <= to; k++ {
		n += int(c[k].n)
	}
	return n
}
