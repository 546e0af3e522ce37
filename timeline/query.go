package timeline

import (
	"math/bits"
	"sort"

	"watchlens/parser"
)

// Queries for drawing. The event table is in time order, so a time range
// is two binary searches; an RV range goes through an index sorted by RV,
// built on first use (4 bytes per event).

// TimeRange returns the table index range [lo, hi) of the events with
// from <= T < to.
func (tl *Timeline) TimeRange(from, to int64) (lo, hi int) {
	n := tl.tab.len()
	lo = sort.Search(n, func(i int) bool { return tl.tab.t.at(i) >= from })
	hi = lo + sort.Search(n-lo, func(i int) bool { return tl.tab.t.at(lo+i) >= to })
	return lo, hi
}

// RVRange returns the indices of the events (bookmarks included, errors
// excluded) with from <= RV <= to, in RV order (ties in time order), at
// most limit of them when limit > 0.
func (tl *Timeline) RVRange(from, to uint64, limit int) []int {
	tl.rvOnce.Do(tl.buildRVOrder)
	o := tl.rvOrder
	lo := sort.Search(len(o), func(i int) bool { return tl.tab.rv.at(int(o[i])) >= from })
	var out []int
	for k := lo; k < len(o); k++ {
		i := int(o[k])
		if tl.tab.rv.at(i) > to || (limit > 0 && len(out) == limit) {
			break
		}
		out = append(out, i)
	}
	return out
}

func (tl *Timeline) buildRVOrder() {
	n := tl.tab.len()
	o := make([]int32, 0, n)
	for i := 0; i < n; i++ {
		if tl.tab.flags.at(i)&flagRVValid != 0 && parser.EventType(tl.tab.typ.at(i)) != parser.Error {
			o = append(o, int32(i))
		}
	}
	sort.SliceStable(o, func(a, b int) bool { return tl.tab.rv.at(int(o[a])) < tl.tab.rv.at(int(o[b])) })
	tl.rvOrder = o
}

// Axis is the horizontal axis of a binned view.
type Axis uint8

const (
	AxisTime Axis = iota // columns split [From, To) in Unix ns
	AxisRV               // columns split [From, To) in resourceVersion
)

// BinQuery asks for counts per lane and pixel column.
type BinQuery struct {
	Axis     Axis
	From, To int64 // [From, To) on the axis (RVs as int64)
	Columns  int
	// Lanes [LaneFrom, LaneTo) get a row each (lane numbers follow first
	// appearance, so a band of the drawing is a contiguous range). Ask for
	// the rows on screen: the answer holds rows x Columns counters. An
	// empty range gives only the per-column totals (an overview strip).
	LaneFrom, LaneTo int
	// Types is a mask of 1<<parser.EventType to count; 0 counts all.
	Types uint32
	// File restricts to one file; -1 for all.
	File int
}

// Bins is the answer of Bins; pass the previous answer back to reuse its
// buffers (a redraw allocates nothing).
type Bins struct {
	Columns, Rows int
	// Counts[r*Columns+c] counts the events of lane LaneFrom+r in column c.
	Counts []uint32
	// Objects, Bookmarks and Errors count per column over all lanes.
	Objects, Bookmarks, Errors []uint32
	Max                        uint32 // largest cell of Counts
}

func resize(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// colOf maps x in [from, from+span) to its column, exactly (128-bit), so
// every path of Bins puts an event in the same column.
func colOf(x, from, span int64, cols int) int {
	hi, lo := bits.Mul64(uint64(x-from), uint64(cols))
	q, _ := bits.Div64(hi, lo, uint64(span))
	return int(q)
}

// colStart is the smallest x whose column is c.
func colStart(c int, from, span int64, cols int) int64 {
	hi, lo := bits.Mul64(uint64(c), uint64(span))
	q, r := bits.Div64(hi, lo, uint64(cols))
	if r != 0 {
		q++
	}
	return from + int64(q)
}

// Bins counts events per lane and column: the level of detail for a view
// of any width over any number of events. Rows walk only their lanes'
// events; the per-column totals come from the column boundaries (binary
// searches) minus the few bookmarks and errors, so a 2000-column view of
// 1 M events costs a few thousand searches plus the visible lanes' events.
// A Types or File filter makes the totals a scan of the range instead.
func (tl *Timeline) Bins(q BinQuery, out *Bins) *Bins {
	if out == nil {
		out = &Bins{}
	}
	cols := max(q.Columns, 1)
	laneFrom, laneTo := max(q.LaneFrom, 0), min(q.LaneTo, tl.Lanes.Len())
	rows := max(q.LaneTo-q.LaneFrom, 0)
	out.Columns, out.Rows, out.Max = cols, rows, 0
	out.Counts = resize(out.Counts, rows*cols)
	out.Objects = resize(out.Objects, cols)
	out.Bookmarks = resize(out.Bookmarks, cols)
	out.Errors = resize(out.Errors, cols)
	span := q.To - q.From
	if span <= 0 {
		return out
	}
	types := q.Types
	if types == 0 {
		types = ^uint32(0)
	}
	pos := func(i int) int64 {
		if q.Axis == AxisRV {
			return int64(tl.tab.rv.at(i))
		}
		return tl.tab.t.at(i)
	}
	for l := laneFrom; l < laneTo; l++ {
		if q.File >= 0 && tl.Lanes.File(l) != q.File {
			continue
		}
		evs := tl.laneEv[tl.laneStart[l]:tl.laneStart[l+1]]
		if q.Axis == AxisTime {
			// A lane's events are in time order: start at From.
			evs = evs[sort.Search(len(evs), func(k int) bool { return tl.tab.t.at(int(evs[k])) >= q.From }):]
		}
		row := out.Counts[(l-q.LaneFrom)*cols : (l-q.LaneFrom+1)*cols]
		for _, e := range evs {
			i := int(e)
			x := pos(i)
			if x >= q.To {
				if q.Axis == AxisTime {
					break
				}
				continue
			}
			if x < q.From || types&(1<<tl.tab.typ.at(i)) == 0 {
				continue
			}
			c := colOf(x, q.From, span, cols)
			row[c]++
			out.Max = max(out.Max, row[c])
		}
	}
	if q.Types != 0 || q.File >= 0 {
		tl.scanTotals(q, out, span, cols, types)
		return out
	}
	for _, e := range tl.special {
		i := int(e)
		if tl.tab.flags.at(i)&flagRVValid == 0 && q.Axis == AxisRV {
			continue
		}
		if x := pos(i); x >= q.From && x < q.To {
			switch parser.EventType(tl.tab.typ.at(i)) {
			case parser.Bookmark:
				out.Bookmarks[colOf(x, q.From, span, cols)]++
			case parser.Error:
				out.Errors[colOf(x, q.From, span, cols)]++
			}
		}
	}
	if q.Axis == AxisTime {
		tl.timeTotals(q.From, span, out)
		return out
	}
	tl.rvOnce.Do(tl.buildRVOrder)
	// first index at or past x, in RV order
	first := func(x int64) int {
		o := tl.rvOrder
		return sort.Search(len(o), func(k int) bool { return int64(tl.tab.rv.at(int(o[k]))) >= x })
	}
	prev := first(q.From)
	for c := 0; c < cols; c++ {
		next := first(colStart(c+1, q.From, span, cols))
		out.Objects[c] = uint32(next-prev) - out.Bookmarks[c]
		prev = next
	}
	return out
}

// timeTotals sets out's Objects, on the time axis from from over span,
// from its columns' boundaries less its Bookmarks and Errors. Each
// boundary is searched from the one before it, galloping, in a loop that
// makes no call: as wasm, a loop that calls is several times slower, and
// a search through sort.Search calls its closure at every probe.
func (tl *Timeline) timeTotals(from, span int64, out *Bins) {
	t := &tl.tab.t
	n, cols := t.len(), out.Columns
	prev := sort.Search(n, func(i int) bool { return t.at(i) >= from })
	for c := range cols {
		x := colStart(c+1, from, span, cols)
		// The events before lo are earlier than x; the first that is not
		// is before hi.
		lo, hi := prev, n
		if lo < n && t.at(lo) < x {
			for step := 1; lo+step < n; step *= 2 {
				if t.at(lo+step) >= x {
					hi = lo + step
					break
				}
				lo += step
			}
			for lo++; lo < hi; {
				if m := int(uint(lo+hi) >> 1); t.at(m) < x {
					lo = m + 1
				} else {
					hi = m
				}
			}
		}
		out.Objects[c] = uint32(lo-prev) - out.Bookmarks[c] - out.Errors[c]
		prev = lo
	}
}

// scanTotals fills the per-column totals by scanning the range, for
// queries whose filters the boundary arithmetic cannot apply.
func (tl *Timeline) scanTotals(q BinQuery, out *Bins, span int64, cols int, types uint32) {
	lo, hi := 0, tl.tab.len()
	if q.Axis == AxisTime {
		lo, hi = tl.TimeRange(q.From, q.To)
	}
	for i := lo; i < hi; i++ {
		typ := tl.tab.typ.at(i)
		if types&(1<<typ) == 0 || (q.File >= 0 && tl.Sessions[tl.tab.sess.at(i)].File != q.File) {
			continue
		}
		x := tl.tab.t.at(i)
		if q.Axis == AxisRV {
			if tl.tab.flags.at(i)&flagRVValid == 0 {
				continue
			}
			if x = int64(tl.tab.rv.at(i)); x < q.From || x >= q.To {
				continue
			}
		}
		c := colOf(x, q.From, span, cols)
		switch parser.EventType(typ) {
		case parser.Bookmark:
			out.Bookmarks[c]++
		case parser.Error:
			out.Errors[c]++
		default:
			out.Objects[c]++
		}
	}
}
