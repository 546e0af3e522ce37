package timeline

import (
	"sort"

	"watchlens/parser"
)

// RangeStats is what a range [From, To) of the shared clock, or of
// resourceVersions, holds, as a range selection on the page shows it
// (Perfetto's area selection): events by type and kind, bookmarks,
// errors, each cursor's oldest age in the range, and the zones in it and
// their length.
type RangeStats struct {
	// From and To are Unix ns, or resourceVersions when AxisRV.
	From, To int64
	AxisRV   bool
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

// NoKind is the kind RangeStats.ByKind counts an event under whose
// object had neither name nor uid, and so no lane to keep its kind.
const NoKind = ""

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
		st.count(tl, i)
	}
	// A session that is a Status (a LIST's 410) is an error too, and so
	// is a 410 only a log shows.
	for g := range tl.Sessions {
		if s := &tl.Sessions[g]; (s.Status != nil || s.GoneUnlisted()) && s.Start >= from && s.Start < to {
			st.Errors++
		}
	}
	for fi := range tl.Files {
		for _, k := range a.kinds(fi) {
			st.Cursors = append(st.Cursors, a.cursor(fi, k).oldestIn(fi, k, from, to))
		}
	}
	st.Zones = a.zonesIn(timeClip(from, to))
	return st
}

// timeClip is the part of a zone in the instants [from, to).
func timeClip(from, to int64) func(Zone) (int64, int64) {
	return func(z Zone) (int64, int64) { return max(z.From, from), min(z.To, to) }
}

// rvClip is the whole of a zone whose resourceVersions meet [from, to),
// and nothing of any other.
func rvClip(from, to int64) func(Zone) (int64, int64) {
	return func(z Zone) (int64, int64) {
		if int64(z.ToRV) < from || int64(z.FromRV) >= to {
			return 0, 0
		}
		return z.From, z.To
	}
}

// ZoneTotal is one cursor kind's refused zones in a range, over all files.
type ZoneTotal struct {
	Count  int
	Length int64 // the union of their stretches in the range, ns (models overlap)
}

// ZoneTotals sums the refused zones (Zones) of each recorded cursor kind
// (CursorKinds: not the counterfactual's) in [from, to), as RangeStats
// and RangeStatsRV (axisRV) clip them: what a view's summary says of its
// red zones.
func (a *Analysis) ZoneTotals(axisRV bool, from, to int64) [2]ZoneTotal {
	clip := timeClip(from, to)
	if axisRV {
		clip = rvClip(from, to)
	}
	var out [2]ZoneTotal
	var spans [2][][2]int64
	for _, z := range a.Zones {
		if int(z.Kind) >= len(out) {
			continue
		}
		if zf, zt := clip(z); zf < zt {
			out[z.Kind].Count++
			spans[z.Kind] = append(spans[z.Kind], [2]int64{zf, zt})
		}
	}
	for k := range out {
		out[k].Length = UnionLength(spans[k])
	}
	return out
}

// zonesIn sums the zones of each cursor and outcome that clip (the part
// of a zone in the range, on the clock; from >= to when it is outside)
// keeps: their count, and the union of their stretches' lengths.
func (a *Analysis) zonesIn(clip func(Zone) (from, to int64)) []RangeZones {
	var out []RangeZones
	for _, layer := range []struct {
		zones   []Zone
		outcome Outcome
	}{{a.Zones, Refused}, {a.RiskZones, AtRisk}} {
		sums := map[[2]int]*RangeZones{}
		var order [][2]int
		spans := map[[2]int][][2]int64{}
		for _, z := range layer.zones {
			zf, zt := clip(z)
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
			out = append(out, *z)
		}
	}
	return out
}

// count adds the table's event i to the statistics.
func (st *RangeStats) count(tl *Timeline, i int) {
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
		// An object with neither name nor uid has no lane, and so no
		// kind the table keeps: it counts under NoKind.
		kind := NoKind
		if p.Lane >= 0 {
			kind = tl.Lanes.Kind(int(p.Lane))
		}
		if st.ByKind[kind] == nil {
			st.ByKind[kind] = map[string]int{}
		}
		st.ByKind[kind][typ]++
	}
	if st.FirstEvent < 0 || i < st.FirstEvent {
		st.FirstEvent = i
	}
	st.LastEvent = max(st.LastEvent, i)
}

// RangeStatsRV computes the statistics of the resourceVersions [from, to),
// as the RV axis shows them: the events and bookmarks with an RV in the
// range; the errors (which carry no RV) and Status sessions in the time
// those events span; each cursor's oldest age over its values in the
// range; and the zones whose RVs meet the range, with their whole length.
func (a *Analysis) RangeStatsRV(from, to uint64) RangeStats {
	tl := a.TL
	st := RangeStats{From: int64(from), To: int64(to), AxisRV: true, ByType: map[string]int{}, ByKind: map[string]map[string]int{}, FirstEvent: -1, LastEvent: -1}
	if to <= from {
		return st
	}
	for _, i := range tl.RVRange(from, to-1, 0) {
		st.count(tl, i)
	}
	if st.FirstEvent >= 0 {
		t0, t1 := tl.Point(st.FirstEvent).T, tl.Point(st.LastEvent).T
		lo, hi := tl.TimeRange(t0, t1+1)
		for i := lo; i < hi; i++ {
			if tl.Point(i).Type == parser.Error {
				st.Errors++
			}
		}
		for g := range tl.Sessions {
			if s := &tl.Sessions[g]; (s.Status != nil || s.GoneUnlisted()) && s.Start >= t0 && s.Start <= t1 {
				st.Errors++
			}
		}
	}
	for fi := range tl.Files {
		for _, k := range a.kinds(fi) {
			st.Cursors = append(st.Cursors, a.cursor(fi, k).oldestInRV(fi, k, from, to))
		}
	}
	st.Zones = a.zonesIn(rvClip(int64(from), int64(to)))
	return st
}

// oldestInRV is the cursor's oldest age over its values in [from, to):
// for each step to such a value, how long until the next step (or the
// cursor's end).
func (c *Cursor) oldestInRV(file int, kind CursorKind, from, to uint64) RangeCursor {
	rc := RangeCursor{File: file, Kind: kind}
	n := c.Len()
	for k := 0; k < n; k++ {
		t, rv, ok := c.Known(k)
		if !ok || rv < from || rv >= to {
			continue
		}
		end := c.End
		if k+1 < n {
			end = c.T(k + 1)
		}
		if age := end - t; age > rc.MaxAge {
			rc.MaxAge, rc.RV = age, rv
		}
	}
	return rc
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
