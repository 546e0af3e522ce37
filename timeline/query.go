package timeline

import (
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
	// appearance, so a band of the drawing is a contiguous range).
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

// Bins counts events per lane and column: the level of detail for a view
// of any width over any number of events. One pass over the events in
// range, chunk by chunk.
func (tl *Timeline) Bins(q BinQuery, out *Bins) *Bins {
	if out == nil {
		out = &Bins{}
	}
	cols := max(q.Columns, 1)
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
	lo, hi := 0, tl.tab.len()
	if q.Axis == AxisTime {
		lo, hi = tl.TimeRange(q.From, q.To)
	}
	scale := float64(cols) / float64(span)
	types := q.Types
	if types == 0 {
		types = ^uint32(0)
	}
	sessFile := make([]int32, len(tl.Sessions))
	for g, s := range tl.Sessions {
		sessFile[g] = int32(s.File)
	}
	laneFrom, laneTo := int32(q.LaneFrom), int32(q.LaneTo)
	for i := lo; i < hi; {
		c, off := i>>chunkBits, i&chunkMask
		n := min(chunkSize-off, hi-i)
		ts := tl.tab.t.chunks[c][off : off+n]
		rvs := tl.tab.rv.chunks[c][off : off+n]
		lanes := tl.tab.lane.chunks[c][off : off+n]
		typs := tl.tab.typ.chunks[c][off : off+n]
		sess := tl.tab.sess.chunks[c][off : off+n]
		for k, typ := range typs {
			if types&(1<<typ) == 0 || (q.File >= 0 && sessFile[sess[k]] != int32(q.File)) {
				continue
			}
			x := ts[k]
			if q.Axis == AxisRV {
				x = int64(rvs[k])
				if x < q.From || x >= q.To {
					continue
				}
			}
			col := int(float64(x-q.From) * scale)
			if col >= cols {
				col = cols - 1
			}
			switch parser.EventType(typ) {
			case parser.Bookmark:
				out.Bookmarks[col]++
				continue
			case parser.Error:
				out.Errors[col]++
				continue
			}
			out.Objects[col]++
			if l := lanes[k]; l >= laneFrom && l < laneTo {
				cell := &out.Counts[int(l-laneFrom)*cols+col]
				*cell++
				if *cell > out.Max {
					out.Max = *cell
				}
			}
		}
		i += n
	}
	return out
}
