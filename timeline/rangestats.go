package timeline

import (
	"sort"

	"watchlens/parser"
)

// RangeStats is what a time range [From, To) of the shared clock holds,
// as a range selection on the page shows it (Perfetto's area selection):
// events by type and kind, bookmarks, errors, each cursor's oldest age in
// the range, and the zones in it and their length.
type RangeStats struct {
	From, To int64
	// Events counts ADDED, MODIFIED, DELETED and OBSERVED events, by
	// type and by kind (kind, then type).
	Events    int
	ByType    map[string]int
	ByKind    map[string]map[string]int
	Bookmarks int
	Errors    int
	Cursors   []RangeCursor
	Zones     []RangeZones
	// FirstEvent and LastEvent are table indices (-1 when the range
	// holds none): where a view of the range starts and ends.
	FirstEvent, LastEvent int
}

// RangeCursor is one cursor's oldest age inside the range: the longest it
// had gone unconfirmed at any instant of the range.
type RangeCursor struct {
	File   int
	Kind   CursorKind
	MaxAge int64 // 0 when the cursor had no value in the range
	RV     uint64
}

// RangeZones sums one cursor's zones of one outcome inside the range.
type RangeZones struct {
	File    int
	Kind    CursorKind
	Outcome Outcome // Refused or AtRisk
	Count   int
	Length  int64 // the union of their stretches inside the range, ns
}

// RangeStats computes the statistics of [from, to) on the time axis.
func (a *Analysis) RangeStats(from, to int64) RangeStats {
	tl := a.TL
	st := RangeStats{From: from, To: to, ByType: map[string]int{}, ByKind: map[string]map[string]int{}, FirstEvent: -1, LastEvent: -1}
	lo, hi := tl.TimeRange(from, to)
	for i := lo; i < hi; i++ {
		p := tl.Point(i)
		switch p.Type {
		case parser.Bookmark:
			st.Bookmarks++
		case parser.Error:
			st.Errors++
		default:
			st.Events++
			typ := p.Type.String()
			st.ByType[typ]++
			kind := tl.Lanes[p.Lane].Kind
			if st.ByKind[kind] == nil {
				st.ByKind[kind] = map[string]int{}
			}
			st.ByKind[kind][typ]++
		}
		if st.FirstEvent < 0 {
			st.FirstEvent = i
		}
		st.LastEvent = i
	}
	// A session that is a Status (a LIST's 410) is an error too.
	for _, s := range tl.Sessions {
		if s.Status != nil && s.Start >= from && s.Start < to {
			st.Errors++
		}
	}
	for fi := range tl.Files {
		for _, k := range a.kinds(fi) {
			st.Cursors = append(st.Cursors, a.cursor(fi, k).oldestIn(fi, k, from, to))
		}
	}
	for _, layer := range []struct {
		zones   []Zone
		outcome Outcome
	}{{a.Zones, Refused}, {a.RiskZones, AtRisk}} {
		sums := map[[2]int]*RangeZones{}
		var order [][2]int
		spans := map[[2]int][][2]int64{}
		for _, z := range layer.zones {
			zf, zt := max(z.From, from), min(z.To, to)
			if zf >= zt {
				continue
			}
			key := [2]int{z.File, int(z.Kind)}
			if sums[key] == nil {
				sums[key] = &RangeZones{File: z.File, Kind: z.Kind, Outcome: layer.outcome}
				order = append(order, key)
			}
			sums[key].Count++
			spans[key] = append(spans[key], [2]int64{zf, zt})
		}
		for _, key := range order {
			z := sums[key]
			z.Length = UnionLength(spans[key])
			st.Zones = append(st.Zones, *z)
		}
	}
	return st
}

// oldestIn is the cursor's oldest age within [from, to): at each step's
// end (or the range's end), how long since it was set or confirmed.
func (c *Cursor) oldestIn(file int, kind CursorKind, from, to int64) RangeCursor {
	rc := RangeCursor{File: file, Kind: kind}
	n := c.Len()
	k := max(c.SearchT(0, n, from)-1, 0)
	for ; k < n; k++ {
		t, rv, ok := c.Known(k)
		if t >= to {
			break
		}
		end := min(c.End, to)
		if k+1 < n {
			end = min(c.T(k+1), to)
		}
		if !ok || end <= from {
			continue
		}
		if age := end - t; age > rc.MaxAge {
			rc.MaxAge, rc.RV = age, rv
		}
	}
	return rc
}

// UnionLength is the total length the intervals [from, to) cover, each
// instant once however many overlap there (models' zones do). It sorts
// spans in place.
func UnionLength(spans [][2]int64) int64 {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var total, end int64
	started := false
	for _, s := range spans {
		if !started || s[0] > end {
			if s[1] > s[0] {
				total += s[1] - s[0]
			}
			end, started = max(s[1], s[0]), true
			continue
		}
		if s[1] > end {
			total += s[1] - end
			end = s[1]
		}
	}
	return total
}
