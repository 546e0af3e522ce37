package timeline

import "watchlens/parser"

// Cadence is how often one watch's bookmarks came: the evidence that the
// server kept its cursor fresh, and where it went quiet.
type Cadence struct {
	Session   int // global index of the watch's session
	Bookmarks int
	// Median is the middle interval between two bookmarks (0 with fewer
	// than two). MaxGap is the longest silence, counting the stretches
	// from the watch's start to its first bookmark and from its last to
	// the watch's end; it began at MaxGapFrom, the cursor then at
	// MaxGapFromRV (the watch's first RV, or the bookmark's). Both are
	// zero when no time passed between them at all.
	Median, MaxGap int64
	MaxGapFrom     int64
	MaxGapFromRV   string
}

// BookmarkCadence is the cadence of each session that got a bookmark, in
// session order. Bookmarks have no lane: the specials hold them all, in
// time order.
func (tl *Timeline) BookmarkCadence() []Cadence {
	times := map[int][]int64{}
	rvs := map[int][]string{}
	for _, k := range tl.Specials() {
		if p := tl.Point(int(k)); p.Type == parser.Bookmark {
			g := int(p.Session)
			times[g] = append(times[g], p.T)
			rvs[g] = append(rvs[g], tl.Event(int(k)).RV)
		}
	}
	var out []Cadence
	for g, s := range tl.Sessions {
		ts := times[g]
		if len(ts) == 0 {
			continue
		}
		c := Cadence{Session: g, Bookmarks: len(ts)}
		prev, prevRV := s.Start, s.FirstRV
		var ivs []int64
		for k, t := range append(ts, s.End) {
			if k > 0 && k < len(ts) {
				ivs = append(ivs, t-ts[k-1])
			}
			if t-prev > c.MaxGap {
				c.MaxGap, c.MaxGapFrom, c.MaxGapFromRV = t-prev, prev, prevRV
			}
			if k < len(ts) {
				prev, prevRV = t, rvs[g][k]
			}
		}
		if len(ivs) > 0 {
			c.Median = median(ivs)
		}
		out = append(out, c)
	}
	return out
}
