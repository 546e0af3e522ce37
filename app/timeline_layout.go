package app

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"watchlens/app/words"
	"watchlens/parser"
	"watchlens/timeline"
)

// Pure geometry of the timeline canvas: which rows exist, where each band
// sits, how axis values map to pixels, where the ticks go and what lies
// under the pointer. Nothing here touches the browser, so all of it is
// tested natively.

// laneGroup is a group header row: the lanes of one file, kind and namespace.
type laneGroup struct {
	file      int
	kind, ns  string
	lanes     []int32 // lanes passing the filter, in lane (first appearance) order
	collapsed bool
}

// key identifies a group across rebuilds, so a collapsed group stays
// collapsed while the filter changes.
func (g *laneGroup) key() string {
	return strconv.Itoa(g.file) + "\x00" + g.kind + "\x00" + g.ns
}

// label is the header's text; the file name only matters when several
// files share the view.
func (g *laneGroup) label(tl *timeline.Timeline) string {
	ns := g.ns
	if ns == "" {
		ns = "(cluster-scoped)"
	}
	s := words.Isolated(g.kind) + " · " + words.Isolated(ns)
	if len(tl.Files) > 1 {
		s = words.Isolated(tl.Files[g.file].Name) + ": " + s
	}
	return s + " (" + strconv.Itoa(len(g.lanes)) + ")"
}

// tlRow is one row of the lane area: a group header (lane -1) or a lane.
type tlRow struct {
	group int
	lane  int
}

// buildRows groups the lanes passing f by file, kind and namespace, in
// that sort order, each group's lanes in order of first appearance.
func buildRows(tl *timeline.Timeline, f timeline.Filter, collapsed map[string]bool, active func(lane int) bool) ([]laneGroup, []tlRow, int) {
	// Neighbouring lanes mostly share a file and kind, not always a
	// namespace: a lane finds its group by namespace in its file and
	// kind's map. Over 200 000 lanes a key built per lane, and appending
	// to each group's list, cost about 60 ms as wasm on the first render.
	type fileKind struct {
		file int
		kind string
	}
	byNS := map[fileKind]map[string]int32{}
	var cur map[string]int32 // the last lane's file and kind's
	curFile := -1
	var curKind string
	var groups []laneGroup
	groupOf := make([]int32, len(tl.Lanes)) // -1: filtered out
	var sizes []int32
	shown := 0
	for l := range tl.Lanes {
		ln := &tl.Lanes[l]
		if !f.Lane(*ln) || (active != nil && !active(l)) {
			groupOf[l] = -1
			continue
		}
		shown++
		if cur == nil || ln.File != curFile || ln.Kind != curKind {
			fk := fileKind{ln.File, ln.Kind}
			if cur = byNS[fk]; cur == nil {
				cur = map[string]int32{}
				byNS[fk] = cur
			}
			curFile, curKind = ln.File, ln.Kind
		}
		g, ok := cur[ln.Namespace]
		if !ok {
			g = int32(len(groups))
			cur[ln.Namespace] = g
			groups = append(groups, laneGroup{file: ln.File, kind: ln.Kind, ns: ln.Namespace})
			sizes = append(sizes, 0)
		}
		groupOf[l] = g
		sizes[g]++
	}
	for g := range groups {
		groups[g].lanes = make([]int32, 0, sizes[g])
	}
	for l, g := range groupOf {
		if g >= 0 {
			groups[g].lanes = append(groups[g].lanes, int32(l))
		}
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := &groups[i], &groups[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.ns < b.ns
	})
	rows := make([]tlRow, 0, len(groups)+shown)
	for gi := range groups {
		g := &groups[gi]
		g.collapsed = collapsed[g.key()]
		rows = append(rows, tlRow{group: gi, lane: -1})
		if g.collapsed {
			continue
		}
		for _, l := range g.lanes {
			rows = append(rows, tlRow{group: gi, lane: int(l)})
		}
	}
	return groups, rows, shown
}

// Band heights and margins, in CSS pixels.
const (
	gutterW     = 176.0 // labels left of the plot
	rightPad    = 12.0
	axisH       = 26.0
	densityH    = 22.0
	sessionH    = 18.0
	bookmarkH   = 16.0
	zoneH       = 12.0
	cursorH     = 84.0
	bandGap     = 4.0
	rowH        = 16.0
	maxRowsShow = 28 // the lane area scrolls beyond this many rows
	markSize    = 9.0
	hitSlop     = 5.0 // how far from a mark a click still selects it
)

// bandID names the fixed bands above the lanes.
type bandID int

const (
	bandAxis bandID = iota
	bandDensity
	bandSessions
	bandBookmarks
	bandZoneAware
	bandZoneIgnoring
	bandZoneHad
	bandCursors
	bandLanes
	bandNone
)

type tlBand struct {
	id    bandID
	y, h  float64
	label string
}

// tlLayout places the bands and the plot inside a canvas of width w.
type tlLayout struct {
	w, h         float64
	plotX, plotW float64
	bands        []tlBand
	lanesY       float64 // top of the lane area
	lanesH       float64 // its visible height
	contentH     float64 // height of all rows
}

// newTLLayout stacks the bands; the cursor strip only exists on the time axis
// (it plots RV against time), and the had-bookmarks band only when a
// capture has that counterfactual cursor.
func newTLLayout(w float64, rows int, axisRV, had bool) tlLayout {
	lo := tlLayout{w: w, plotX: gutterW, plotW: max(w-gutterW-rightPad, 40)}
	y := 0.0
	add := func(id bandID, h float64, label string) {
		lo.bands = append(lo.bands, tlBand{id: id, y: y, h: h, label: label})
		y += h + bandGap
	}
	add(bandAxis, axisH, "")
	add(bandDensity, densityH, "events")
	add(bandSessions, sessionH, "sessions")
	add(bandBookmarks, bookmarkH, "bookmarks")
	add(bandZoneAware, zoneH, "410 · bookmark-aware")
	add(bandZoneIgnoring, zoneH, "410 · bookmark-ignoring")
	if had {
		add(bandZoneHad, zoneH, "410 · had bookmarks")
	}
	if !axisRV {
		add(bandCursors, cursorH, "cursors · RV")
	}
	lo.lanesY = y
	lo.contentH = float64(rows) * rowH
	lo.lanesH = min(lo.contentH, maxRowsShow*rowH)
	lo.h = lo.lanesY + max(lo.lanesH, rowH) + 2
	return lo
}

func (lo *tlLayout) band(id bandID) (tlBand, bool) {
	for _, b := range lo.bands {
		if b.id == id {
			return b, true
		}
	}
	return tlBand{}, false
}

// bandAt says which band is under y.
func (lo *tlLayout) bandAt(y float64) bandID {
	if y >= lo.lanesY && y < lo.lanesY+lo.lanesH {
		return bandLanes
	}
	for _, b := range lo.bands {
		if y >= b.y && y < b.y+b.h {
			return b.id
		}
	}
	return bandNone
}

// rowAt is the row under y given the lane area's scroll offset, or -1.
func (lo *tlLayout) rowAt(y, scrollY float64, rows int) int {
	if y < lo.lanesY || y >= lo.lanesY+lo.lanesH {
		return -1
	}
	r := int((y - lo.lanesY + scrollY) / rowH)
	if r < 0 || r >= rows {
		return -1
	}
	return r
}

// clampScroll keeps the lane area's scroll offset inside its content.
func (lo *tlLayout) clampScroll(s float64) float64 {
	return math.Max(0, math.Min(s, lo.contentH-lo.lanesH))
}

// tlScale maps axis values in [from, to) onto [x0, x0+w) pixels.
type tlScale struct {
	from, to int64
	x0, w    float64
}

func (s tlScale) x(v int64) float64 {
	return s.x0 + float64(v-s.from)*s.w/float64(s.to-s.from)
}

// xc is x for a value that may lie far outside the view (a zone's end at
// the end of time): clamped a little beyond the plot so lines and rects
// still reach its edges.
func (s tlScale) xc(v int64) float64 {
	if v <= s.from {
		return s.x0 - 2
	}
	if v >= s.to {
		return s.x0 + s.w + 2
	}
	return s.x(v)
}

// colOf is the pixel column of n, from the plot's left edge, that
// instant t falls in; instants outside the view fall in the first or last.
func (s tlScale) colOf(t int64, n int) int { return max(0, min(int(s.xc(t)-s.x0), n-1)) }

// columnEnd is the first instant that col maps to a later column of n
// (colOf, non-decreasing in the instant); math.MaxInt64 for the last. It
// searches around an estimate from the scale, which rounding can put a
// little off. (colOf is a method, not a function passed in: as wasm the
// calls through a closure cost 3-12 % of a frame's drawing.)
func (s tlScale) columnEnd(col, n int) int64 {
	if col >= n-1 {
		return math.MaxInt64
	}
	guess := s.from + int64(math.Ceil(float64(col+1)*float64(s.to-s.from)/s.w))
	// Widen [lo, hi] until colOf(lo) <= col < colOf(hi), then halve it.
	lo, hi := guess-1, guess
	for step := int64(1); s.colOf(lo, n) > col; step *= 2 {
		hi, lo = lo, lo-step
	}
	for step := int64(1); s.colOf(hi, n) <= col; step *= 2 {
		lo, hi = hi, hi+step
	}
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; s.colOf(mid, n) > col {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

func (s tlScale) at(x float64) int64 {
	return s.from + int64(math.Round((x-s.x0)/s.w*float64(s.to-s.from)))
}

// Zoom limits: the narrowest view on each axis.
const (
	minSpanTime = int64(10 * time.Microsecond)
	minSpanRV   = 8
)

// zoomRange scales [from, to) by factor around anchor, keeping anchor at
// the same pixel, then fits the result inside [lo, hi).
func zoomRange(from, to, anchor int64, factor float64, lo, hi, minSpan int64) (int64, int64) {
	span := float64(to - from)
	ns := math.Max(math.Min(span*factor, float64(hi-lo)), float64(min(minSpan, hi-lo)))
	f := 0.5
	if span > 0 {
		f = float64(anchor-from) / span
	}
	nf := int64(math.Round(float64(anchor) - f*ns))
	return fitRange(nf, nf+int64(ns), lo, hi)
}

// panRange shifts [from, to) by d and fits it inside [lo, hi).
func panRange(from, to, d, lo, hi int64) (int64, int64) {
	return fitRange(from+d, to+d, lo, hi)
}

// fitRange slides [from, to) into [lo, hi) without changing its width
// (unless it is wider, then it becomes [lo, hi)).
func fitRange(from, to, lo, hi int64) (int64, int64) {
	if to-from >= hi-lo {
		return lo, hi
	}
	if from < lo {
		from, to = lo, lo+(to-from)
	}
	if to > hi {
		from, to = hi-(to-from), hi
	}
	return from, to
}

// tlTick is one labelled axis position.
type tlTick struct {
	v     int64
	label string
}

// timeSteps are the tick steps, from nanoseconds to weeks: 1-2-5 below a second, then
// the steps a clock face has.
var timeSteps = func() []int64 {
	var s []int64
	for d := int64(1); d < int64(time.Second); d *= 10 {
		s = append(s, d, 2*d, 5*d)
	}
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
		time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour} {
		s = append(s, int64(d))
	}
	return s
}()

// minTickPx keeps labels from colliding: a label like 00:54:23.250 is
// about 75 px wide in the canvas font.
const minTickPx = 96.0

// timeTicks places ticks on round UTC instants at least minTickPx apart.
func timeTicks(s tlScale) []tlTick {
	span := s.to - s.from
	step := timeSteps[len(timeSteps)-1]
	for _, d := range timeSteps {
		if float64(d)*s.w/float64(span) >= minTickPx {
			step = d
			break
		}
	}
	var out []tlTick
	for v := ceilDivInt(s.from, step) * step; v < s.to; v += step {
		out = append(out, tlTick{v: v, label: timeLabel(v, step)})
	}
	return out
}

// timeLabel shows as many digits as the step needs.
func timeLabel(v, step int64) string {
	t := time.Unix(0, v).UTC()
	switch {
	case step >= int64(24*time.Hour):
		return t.Format("Jan 2")
	case step >= int64(time.Minute):
		return t.Format("15:04")
	case step >= int64(time.Second):
		return t.Format("15:04:05")
	case step >= int64(time.Millisecond):
		return t.Format("15:04:05.000")
	case step >= int64(time.Microsecond):
		return t.Format(":05.000000")
	}
	return t.Format(":05.000000000")
}

// numberTicks places ticks on round numbers (1, 2, 5 times a power of
// ten): resourceVersions, or event ordinals when a capture has no clock.
func numberTicks(s tlScale) []tlTick {
	span := float64(s.to - s.from)
	raw := minTickPx * span / s.w
	step := int64(1)
	for p := int64(1); ; p *= 10 {
		found := false
		for _, m := range []int64{1, 2, 5} {
			if float64(m*p) >= raw {
				step, found = m*p, true
				break
			}
		}
		if found || p > math.MaxInt64/100 {
			break
		}
	}
	var out []tlTick
	for v := ceilDivInt(s.from, step) * step; v < s.to; v += step {
		out = append(out, tlTick{v: v, label: strconv.FormatInt(v, 10)})
	}
	return out
}

func ceilDivInt(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a > 0) == (b > 0) {
		q++
	}
	return q
}

// nearestPos returns the position in xs (sorted ascending) of the value
// closest to v within tol, or -1.
func nearestPos(xs []int64, v, tol int64) int {
	k := sort.Search(len(xs), func(i int) bool { return xs[i] >= v })
	best, bestD := -1, tol+1
	for _, c := range []int{k - 1, k} {
		if c < 0 || c >= len(xs) {
			continue
		}
		d := xs[c] - v
		if d < 0 {
			d = -d
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// zoneStat is what the summary says of one cursor kind's red zones in view.
type zoneStat struct {
	count   int
	seconds float64 // the union of the zones' instants in view (models overlap)
}

// zoneStats counts the zones of each cursor kind that meet the view and
// measures the time they cover. On the RV axis a zone is the cursor values
// [FromRV, ToRV] it refuses, and its full duration counts.
func zoneStats(zones []timeline.Zone, axisRV bool, from, to int64) [2]zoneStat {
	var out [2]zoneStat
	for _, kind := range timeline.CursorKinds {
		var spans [][2]int64
		for _, z := range zones {
			if z.Kind != kind {
				continue
			}
			lo, hi := z.From, z.To
			if axisRV {
				if int64(z.ToRV) < from || int64(z.FromRV) >= to {
					continue
				}
			} else {
				if z.To <= from || z.From >= to {
					continue
				}
				lo, hi = max(lo, from), min(hi, to)
			}
			out[kind].count++
			spans = append(spans, [2]int64{lo, hi})
		}
		out[kind].seconds = float64(unionLength(spans)) / 1e9
	}
	return out
}

// unionLength is the total length covered by the intervals.
func unionLength(spans [][2]int64) int64 {
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

// tlHit is what lies under the pointer: a tooltip, the event a click
// selects (-1 for none) and the group header a click folds (-1 for none).
type tlHit struct {
	text  string
	event int
	group int
}

// hitTest answers for the pointer at (x, y) in CSS pixels of the canvas.
func hitTest(c *drawCache, v *tlView, lo *tlLayout, x, y float64) tlHit {
	h := tlHit{event: -1, group: -1}
	if x < lo.plotX-2 && lo.bandAt(y) != bandLanes {
		return h
	}
	s := v.scale(lo)
	at := s.at(x)
	slop := max(int64(math.Ceil(hitSlop*float64(s.to-s.from)/s.w)), 1)
	tl := c.tl
	switch lo.bandAt(y) {
	case bandAxis:
		h.text = c.fmtPos(v.axisRV, at)
	case bandDensity:
		if b := c.bins; b != nil && b.Columns > 0 {
			col := int(x - lo.plotX)
			if col >= 0 && col < b.Columns {
				h.text = words.Plural(int(b.Objects[col]), "event") + " (not counting bookmarks and errors) around " + c.fmtPos(v.axisRV, at)
			}
		}
	case bandSessions:
		if k := c.nearestError(v, at, slop); k >= 0 {
			e := c.errs[k]
			h.event = int(e.idx)
			h.text = "ERROR at " + c.fmtTime(e.t) + ": " + e.msg
			return h
		}
		h.text = c.sessionAt(v.axisRV, at, slop)
		if h.text == "" && !v.axisRV {
			// No watch open here: what would coming back now get?
			h.text = c.reconnectText(v.an, []timeline.CursorKind{timeline.BookmarkAware, timeline.BookmarkIgnoring, timeline.HadBookmarks}, at)
		}
	case bandBookmarks:
		if !v.filter.Event(parser.Bookmark) {
			return h
		}
		if k := c.nearestBookmark(v.axisRV, at, slop); k >= 0 {
			b := c.bookmarks[k]
			h.event = int(b.idx)
			h.text = bookmarkText(b, c.fmtTime(b.t))
		}
	case bandZoneAware, bandZoneIgnoring, bandZoneHad:
		kind := zoneBandKind(lo.bandAt(y))
		if v.axisRV {
			h.text = zonesAt(v.an, kind, at, slop)
			return h
		}
		h.text = c.reconnectText(v.an, []timeline.CursorKind{kind}, at)
	case bandCursors:
		h.text = c.cursorsAt(at)
	case bandLanes:
		r := lo.rowAt(y, v.scrollY, len(v.rows))
		if r < 0 {
			return h
		}
		rw := v.rows[r]
		g := &v.groups[rw.group]
		if rw.lane < 0 {
			h.group = rw.group
			verb := "fold"
			if g.collapsed {
				verb = "unfold"
			}
			h.text = g.label(tl) + ": click to " + verb
			return h
		}
		ln := &tl.Lanes[rw.lane]
		h.text = laneText(ln) + ": " + words.Plural(len(tl.LaneEvents(rw.lane)), "event")
		if ln.Deleted {
			h.text += ", deleted"
		}
		if x < lo.plotX {
			return h
		}
		if k := c.nearestInLane(v, rw.lane, at, slop); k >= 0 {
			ev := tl.Event(k)
			h.event = k
			h.text = ev.Type.String() + " " + laneText(ln) + "\nRV " + ev.RV + " at " + c.fmtTime(ev.T)
			if !ev.Timed && !c.noClock {
				h.text += " (estimated)"
			}
			if ev.Initial {
				h.text += "\npart of the initial events (sendInitialEvents)"
			}
		}
	}
	return h
}

// laneText names a lane's object in the page's text: kind, namespace and
// name, each as isolated shows a name from the capture.
func laneText(ln *timeline.Lane) string {
	if ln.Namespace == "" {
		return words.Isolated(ln.Kind) + " " + words.Isolated(ln.Name)
	}
	return words.Isolated(ln.Kind) + " " + words.Isolated(ln.Namespace+"/"+ln.Name)
}

func bookmarkText(b bookmarkMark, when string) string {
	rv := "?"
	if b.rv != timeline.NoRV {
		rv = strconv.FormatUint(b.rv, 10)
	}
	if b.prev == timeline.NoRV {
		return "BOOKMARK at " + when + ": the server says nothing you watch changed up to RV " + rv
	}
	return "BOOKMARK at " + when + ": the server says nothing you watch changed in (" + strconv.FormatUint(b.prev, 10) + ".." + rv + "]"
}

func (c *drawCache) nearestError(v *tlView, at, slop int64) int {
	best, bestD := -1, slop+1
	for k, e := range c.errs {
		p, ok := axisPos(v.axisRV, e.t, e.y)
		if !ok {
			continue
		}
		if d := absInt64(p - at); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// nearestBookmark returns the index in c.bookmarks of the bookmark nearest
// at on the axis, within slop, or -1.
func (c *drawCache) nearestBookmark(axisRV bool, at, slop int64) int {
	if !axisRV {
		return nearestPos(c.bmT, at, slop)
	}
	k := nearestPos(c.bmRV, at, slop)
	if k < 0 {
		return -1
	}
	for i, b := range c.bookmarks {
		if int64(b.rv) == c.bmRV[k] {
			return i
		}
	}
	return -1
}

// nearestInLane returns the table index of the event of lane l nearest at,
// within slop, or -1.
func (c *drawCache) nearestInLane(v *tlView, l int, at, slop int64) int {
	le := c.lane(l)
	best, bestD := -1, slop+1
	k := 0
	if !v.axisRV {
		k = max(sort.Search(len(le.t), func(i int) bool { return le.t[i] >= at-slop }), 0)
	}
	for ; k < len(le.t); k++ {
		p, ok := axisPos(v.axisRV, le.t[k], le.rv[k])
		if !v.axisRV && p > at+slop {
			break
		}
		if !ok || !v.filter.Event(le.typ[k]) {
			continue
		}
		if d := absInt64(p - at); d < bestD {
			best, bestD = int(le.idx[k]), d
		}
	}
	return best
}

func absInt64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// sessionAt describes the reconnect gap or the session under the pointer;
// gaps first, within slop, since they may be narrower than a pixel.
func (c *drawCache) sessionAt(axisRV bool, at, slop int64) string {
	tl := c.tl
	if !axisRV {
		for _, s := range tl.Sessions {
			if s.Gap >= 0 && at >= s.Start-s.Gap-slop && at <= s.Start+slop {
				return "reconnect gap of " + fmtSeconds(s.Gap) + " before session " + strconv.Itoa(s.Index) + " of " + tl.Files[s.File].Name +
					": no watch was open; the client resumed from its cursor at " + c.fmtTime(s.Start)
			}
		}
	}
	for g, s := range tl.Sessions {
		from, to := s.Start, s.End
		if axisRV {
			a, z, ok := s.RVRange()
			if !ok {
				continue
			}
			from, to = int64(a), int64(z)+1
		}
		if at >= from && at <= to {
			return c.sessionText(g)
		}
	}
	return ""
}

func (c *drawCache) sessionText(g int) string {
	tl := c.tl
	s := tl.Sessions[g]
	t := "session " + strconv.Itoa(s.Index) + " of " + tl.Files[s.File].Name + ": " + c.fmtTime(s.Start) + " – " + c.fmtTime(s.End)
	if s.Request != nil {
		rv := s.Request.ResourceVersion
		if rv == "" {
			rv = `""`
		}
		t += "\nwatch from resourceVersion " + rv
		if s.Request.AllowWatchBookmarks {
			t += ", with bookmarks"
		}
	}
	t += "\n" + strconv.Itoa(s.Events) + " events, " + strconv.Itoa(s.Bookmarks) + " bookmarks; ended: " + s.EndReason.String()
	if s.Error != nil {
		t += " (" + s.Error.Message + ")"
	}
	return t
}

// zoneBandKind is the cursor whose reconnects a zone band shows.
func zoneBandKind(b bandID) timeline.CursorKind {
	switch b {
	case bandZoneIgnoring:
		return timeline.BookmarkIgnoring
	case bandZoneHad:
		return timeline.HadBookmarks
	}
	return timeline.BookmarkAware
}

// zonesAt lists, on the RV axis, the window models that refuse or put at
// risk a resume of cursor kind at the pointer's RV.
func zonesAt(an *timeline.Analysis, kind timeline.CursorKind, at, slop int64) string {
	if an == nil {
		return ""
	}
	var lines []string
	for _, zs := range [][]timeline.Zone{an.Zones, an.RiskZones} {
		for _, z := range zs {
			if z.Kind == kind && at >= int64(z.FromRV)-slop && at < int64(z.ToRV)+1+slop {
				lines = append(lines, z.Reason)
			}
		}
	}
	if len(lines) == 0 {
		return "no 410 here for the " + kind.String() + " cursor"
	}
	if len(lines) > 4 {
		lines = append(lines[:4], "…")
	}
	return "a resume from here (" + kind.String() + " cursor):\n" + strings.Join(lines, "\n")
}

// cursorWords names a cursor kind as the page says it.
var cursorWords = map[timeline.CursorKind]string{
	timeline.BookmarkAware:    "with its bookmarks",
	timeline.BookmarkIgnoring: "without bookmarks",
	timeline.HadBookmarks:     "had it asked for bookmarks",
}

// reconnectText says, in words, what a client of each capture that
// dropped at instant at and came back after the model's delay would get,
// per cursor kind; with one capture, the exact reason follows each.
func (c *drawCache) reconnectText(an *timeline.Analysis, kinds []timeline.CursorKind, at int64) string {
	if an == nil || c.noClock {
		return ""
	}
	tl := c.tl
	var b strings.Builder
	b.WriteString("a drop at " + c.fmtTime(at))
	if d := an.Params.Delay; d > 0 {
		b.WriteString(", back " + fmtSeconds(int64(d)) + " later")
	}
	b.WriteString(":")
	shown := 0
	for fi, f := range tl.Files {
		if f.Clock == timeline.ClockNone || at < f.Start {
			continue
		}
		if shown++; shown > 4 {
			b.WriteString("\n…")
			break
		}
		for _, k := range kinds {
			if k == timeline.HadBookmarks && !an.HadBookmarks[fi].Synthetic {
				continue
			}
			v := an.Verdict(fi, k, at, an.Params.Delay)
			b.WriteString("\n")
			if len(tl.Files) > 1 {
				b.WriteString(words.Isolated(f.Name) + ", ")
			}
			b.WriteString(cursorWords[k] + ": " + an.Words(v))
			if len(tl.Files) == 1 && v.Outcome != timeline.Accepted {
				b.WriteString("\n  (" + v.Reason + ")")
			}
		}
	}
	if shown == 0 {
		return ""
	}
	return b.String()
}

// cursorsAt reads the cursor strip at instant t.
func (c *drawCache) cursorsAt(t int64) string {
	tl := c.tl
	var b strings.Builder
	b.WriteString("at " + c.fmtTime(t))
	if h, ok := tl.Head(t); ok {
		b.WriteString("\nhead ≈ RV " + strconv.FormatUint(h, 10))
	}
	for k := range tl.Cursors {
		cur := &tl.Cursors[k]
		name := cur.Kind.String()
		if len(tl.Files) > 1 {
			name = tl.Files[cur.File].Name + " " + name
		}
		rv, since, _, ok := cur.At(t)
		if !ok {
			b.WriteString("\n" + name + ": no cursor")
			continue
		}
		b.WriteString("\n" + name + ": RV " + strconv.FormatUint(rv, 10) + ", last current " + fmtSeconds(t-since) + " before")
	}
	return b.String()
}

func fmtSeconds(d int64) string {
	return strconv.FormatFloat(float64(d)/1e9, 'f', 3, 64) + " s"
}

// fmtTime shows an instant; a capture without a clock has ordinals.
func (c *drawCache) fmtTime(t int64) string {
	if c.noClock {
		return "#" + strconv.FormatInt(t, 10)
	}
	return time.Unix(0, t).UTC().Format("2006-01-02 15:04:05.000")
}

func (c *drawCache) fmtPos(axisRV bool, v int64) string {
	if axisRV {
		return "RV " + strconv.FormatInt(v, 10)
	}
	return c.fmtTime(v)
}
