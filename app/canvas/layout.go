package canvas

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

// Group is a group header row: the lanes of one file, kind and namespace.
type Group struct {
	File            int
	Kind, Namespace string
	Lanes           []int32 // lanes passing the filter, in lane (first appearance) order
	Collapsed       bool
}

// Key identifies a group across rebuilds, so a collapsed group stays
// collapsed while the filter changes.
func (g *Group) Key() string {
	return strconv.Itoa(g.File) + "\x00" + g.Kind + "\x00" + g.Namespace
}

// Label is the header's text; the file name only matters when several
// files share the view.
func (g *Group) Label(tl *timeline.Timeline) string {
	ns := g.Namespace
	if ns == "" {
		ns = "(cluster-scoped)"
	}
	s := words.Isolated(g.Kind) + " · " + words.Isolated(ns)
	if len(tl.Files) > 1 {
		s = words.Isolated(tl.Files[g.File].Name) + ": " + s
	}
	return s + " (" + strconv.Itoa(len(g.Lanes)) + ")"
}

// Row is one row of the lane area: a group header (lane -1) or a lane.
type Row struct {
	Group int
	Lane  int
}

// BuildRows groups the lanes passing f by file, kind and namespace, in
// that sort order, each group's lanes in order of first appearance.
func BuildRows(tl *timeline.Timeline, f timeline.Filter, collapsed map[string]bool, active func(lane int) bool) ([]Group, []Row, int) {
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
	var groups []Group
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
			groups = append(groups, Group{File: ln.File, Kind: ln.Kind, Namespace: ln.Namespace})
			sizes = append(sizes, 0)
		}
		groupOf[l] = g
		sizes[g]++
	}
	for g := range groups {
		groups[g].Lanes = make([]int32, 0, sizes[g])
	}
	for l, g := range groupOf {
		if g >= 0 {
			groups[g].Lanes = append(groups[g].Lanes, int32(l))
		}
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := &groups[i], &groups[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Namespace < b.Namespace
	})
	rows := make([]Row, 0, len(groups)+shown)
	for gi := range groups {
		g := &groups[gi]
		g.Collapsed = collapsed[g.Key()]
		rows = append(rows, Row{Group: gi, Lane: -1})
		if g.Collapsed {
			continue
		}
		for _, l := range g.Lanes {
			rows = append(rows, Row{Group: gi, Lane: int(l)})
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
	RowHeight   = 16.0
	maxRowsShow = 28 // the lane area scrolls beyond this many rows
	markSize    = 9.0
	hitSlop     = 5.0 // how far from a mark a click still selects it
)

// BandID names the fixed bands above the lanes.
type BandID int

const (
	BandAxis BandID = iota
	BandDensity
	BandSessions
	BandBookmarks
	BandZoneAware
	BandZoneIgnoring
	BandZoneHad
	BandCursors
	BandLanes
	BandNone
)

type Band struct {
	ID        BandID
	Y, Height float64
	Label     string
}

// Layout places the bands and the plot inside a canvas of width w.
type Layout struct {
	Width, Height float64
	PlotX, PlotW  float64
	Bands         []Band
	LanesY        float64 // top of the lane area
	LanesH        float64 // its visible height
	ContentH      float64 // height of all rows
}

// NewLayout stacks the bands; the cursor strip only exists on the time axis
// (it plots RV against time), and the had-bookmarks band only when a
// capture has that counterfactual cursor.
func NewLayout(w float64, rows int, axisRV, had bool) Layout {
	layout := Layout{Width: w, PlotX: gutterW, PlotW: max(w-gutterW-rightPad, 40)}
	y := 0.0
	add := func(id BandID, h float64, label string) {
		layout.Bands = append(layout.Bands, Band{ID: id, Y: y, Height: h, Label: label})
		y += h + bandGap
	}
	add(BandAxis, axisH, "")
	add(BandDensity, densityH, "events")
	add(BandSessions, sessionH, "sessions")
	add(BandBookmarks, bookmarkH, "bookmarks")
	add(BandZoneAware, zoneH, "410 · bookmark-aware")
	add(BandZoneIgnoring, zoneH, "410 · bookmark-ignoring")
	if had {
		add(BandZoneHad, zoneH, "410 · had bookmarks")
	}
	if !axisRV {
		add(BandCursors, cursorH, "cursors · RV")
	}
	layout.LanesY = y
	layout.ContentH = float64(rows) * RowHeight
	layout.LanesH = min(layout.ContentH, maxRowsShow*RowHeight)
	layout.Height = layout.LanesY + max(layout.LanesH, RowHeight) + 2
	return layout
}

func (layout *Layout) bandByID(id BandID) (Band, bool) {
	for _, b := range layout.Bands {
		if b.ID == id {
			return b, true
		}
	}
	return Band{}, false
}

// BandAt says which band is under y.
func (layout *Layout) BandAt(y float64) BandID {
	if y >= layout.LanesY && y < layout.LanesY+layout.LanesH {
		return BandLanes
	}
	for _, b := range layout.Bands {
		if y >= b.Y && y < b.Y+b.Height {
			return b.ID
		}
	}
	return BandNone
}

// RowAt is the row under y given the lane area's scroll offset, or -1.
func (layout *Layout) RowAt(y, scrollY float64, rows int) int {
	if y < layout.LanesY || y >= layout.LanesY+layout.LanesH {
		return -1
	}
	r := int((y - layout.LanesY + scrollY) / RowHeight)
	if r < 0 || r >= rows {
		return -1
	}
	return r
}

// ClampScroll keeps the lane area's scroll offset inside its content.
func (layout *Layout) ClampScroll(s float64) float64 {
	return math.Max(0, math.Min(s, layout.ContentH-layout.LanesH))
}

// Scale maps axis values in [from, to) onto [x0, x0+w) pixels.
type Scale struct {
	From, To  int64
	X0, Width float64
}

func (s Scale) X(v int64) float64 {
	return s.X0 + float64(v-s.From)*s.Width/float64(s.To-s.From)
}

// XClamped is X for a value that may lie far outside the view (a zone's end at
// the end of time): clamped a little beyond the plot so lines and rects
// still reach its edges.
func (s Scale) XClamped(v int64) float64 {
	if v <= s.From {
		return s.X0 - 2
	}
	if v >= s.To {
		return s.X0 + s.Width + 2
	}
	return s.X(v)
}

// Column is the pixel column of n, from the plot's left edge, that
// instant t falls in; instants outside the view fall in the first or last.
func (s Scale) Column(t int64, n int) int { return max(0, min(int(s.XClamped(t)-s.X0), n-1)) }

// ColumnEnd is the first instant that col maps to a later column of n
// (Column, non-decreasing in the instant); math.MaxInt64 for the last. It
// searches around an estimate from the scale, which rounding can put a
// little off. (Column is a method, not a function passed in: as wasm the
// calls through a closure cost 3-12 % of a frame's drawing.)
func (s Scale) ColumnEnd(col, n int) int64 {
	if col >= n-1 {
		return math.MaxInt64
	}
	guess := s.From + int64(math.Ceil(float64(col+1)*float64(s.To-s.From)/s.Width))
	// Widen [lo, hi] until Column(lo) <= col < Column(hi), then halve it.
	lo, hi := guess-1, guess
	for step := int64(1); s.Column(lo, n) > col; step *= 2 {
		hi, lo = lo, lo-step
	}
	for step := int64(1); s.Column(hi, n) <= col; step *= 2 {
		lo, hi = hi, hi+step
	}
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; s.Column(mid, n) > col {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

func (s Scale) At(x float64) int64 {
	return s.From + int64(math.Round((x-s.X0)/s.Width*float64(s.To-s.From)))
}

// Zoom limits: the narrowest view on each axis.
const (
	MinSpanTime = int64(10 * time.Microsecond)
	MinSpanRV   = 8
)

// ZoomRange scales [from, to) by factor around anchor, keeping anchor at
// the same pixel, then fits the result inside [lo, hi).
func ZoomRange(from, to, anchor int64, factor float64, lo, hi, minSpan int64) (int64, int64) {
	span := float64(to - from)
	ns := math.Max(math.Min(span*factor, float64(hi-lo)), float64(min(minSpan, hi-lo)))
	f := 0.5
	if span > 0 {
		f = float64(anchor-from) / span
	}
	nf := int64(math.Round(float64(anchor) - f*ns))
	return FitRange(nf, nf+int64(ns), lo, hi)
}

// PanRange shifts [from, to) by d and fits it inside [lo, hi).
func PanRange(from, to, d, lo, hi int64) (int64, int64) {
	return FitRange(from+d, to+d, lo, hi)
}

// FitRange slides [from, to) into [lo, hi) without changing its width
// (unless it is wider, then it becomes [lo, hi)).
func FitRange(from, to, lo, hi int64) (int64, int64) {
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

// Tick is one labelled axis position.
type Tick struct {
	Value int64
	Label string
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
func timeTicks(s Scale) []Tick {
	span := s.To - s.From
	step := timeSteps[len(timeSteps)-1]
	for _, d := range timeSteps {
		if float64(d)*s.Width/float64(span) >= minTickPx {
			step = d
			break
		}
	}
	var out []Tick
	for v := ceilDivInt(s.From, step) * step; v < s.To; v += step {
		out = append(out, Tick{Value: v, Label: timeLabel(v, step)})
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
func numberTicks(s Scale) []Tick {
	span := float64(s.To - s.From)
	raw := minTickPx * span / s.Width
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
	var out []Tick
	for v := ceilDivInt(s.From, step) * step; v < s.To; v += step {
		out = append(out, Tick{Value: v, Label: strconv.FormatInt(v, 10)})
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

// ZoneStat is what the summary says of one cursor kind's red zones in view.
type ZoneStat struct {
	Count   int
	Seconds float64 // the union of the zones' instants in view (models overlap)
}

// zoneStats counts the zones of each cursor kind that meet the view and
// measures the time they cover. On the RV axis a zone is the cursor values
// [FromRV, ToRV] it refuses, and its full duration counts.
func zoneStats(zones []timeline.Zone, axisRV bool, from, to int64) [2]ZoneStat {
	var out [2]ZoneStat
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
			out[kind].Count++
			spans = append(spans, [2]int64{lo, hi})
		}
		out[kind].Seconds = float64(unionLength(spans)) / 1e9
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

// Hit is what lies under the pointer: a tooltip, the event a click
// selects (-1 for none) and the group header a click folds (-1 for none).
type Hit struct {
	Text  string
	Event int
	Group int
}

// HitTest answers for the pointer at (x, y) in CSS pixels of the canvas.
func HitTest(c *Cache, v *View, layout *Layout, x, y float64) Hit {
	h := Hit{Event: -1, Group: -1}
	if x < layout.PlotX-2 && layout.BandAt(y) != BandLanes {
		return h
	}
	s := v.PlotScale(layout)
	at := s.At(x)
	slop := max(int64(math.Ceil(hitSlop*float64(s.To-s.From)/s.Width)), 1)
	tl := c.tl
	switch layout.BandAt(y) {
	case BandAxis:
		h.Text = c.FormatPos(v.AxisRV, at)
	case BandDensity:
		if b := c.bins; b != nil && b.Columns > 0 {
			col := int(x - layout.PlotX)
			if col >= 0 && col < b.Columns {
				h.Text = words.Plural(int(b.Objects[col]), "event") + " (not counting bookmarks and errors) around " + c.FormatPos(v.AxisRV, at)
			}
		}
	case BandSessions:
		if k := c.nearestError(v, at, slop); k >= 0 {
			e := c.errs[k]
			h.Event = int(e.idx)
			h.Text = "ERROR at " + c.FormatTime(e.t) + ": " + e.msg
			return h
		}
		h.Text = c.sessionAt(v.AxisRV, at, slop)
		if h.Text == "" && !v.AxisRV {
			// No watch open here: what would coming back now get?
			h.Text = c.reconnectText(v.Analysis, []timeline.CursorKind{timeline.BookmarkAware, timeline.BookmarkIgnoring, timeline.HadBookmarks}, at)
		}
	case BandBookmarks:
		if !v.Filter.Event(parser.Bookmark) {
			return h
		}
		if k := c.nearestBookmark(v.AxisRV, at, slop); k >= 0 {
			b := c.bookmarks[k]
			h.Event = int(b.idx)
			h.Text = bookmarkText(b, c.FormatTime(b.t))
		}
	case BandZoneAware, BandZoneIgnoring, BandZoneHad:
		kind := ZoneBandKind(layout.BandAt(y))
		if v.AxisRV {
			h.Text = zonesAt(v.Analysis, kind, at, slop)
			return h
		}
		h.Text = c.reconnectText(v.Analysis, []timeline.CursorKind{kind}, at)
	case BandCursors:
		h.Text = c.cursorsAt(at)
	case BandLanes:
		r := layout.RowAt(y, v.ScrollY, len(v.Rows))
		if r < 0 {
			return h
		}
		rw := v.Rows[r]
		g := &v.Groups[rw.Group]
		if rw.Lane < 0 {
			h.Group = rw.Group
			verb := "fold"
			if g.Collapsed {
				verb = "unfold"
			}
			h.Text = g.Label(tl) + ": click to " + verb
			return h
		}
		ln := &tl.Lanes[rw.Lane]
		h.Text = laneText(ln) + ": " + words.Plural(len(tl.LaneEvents(rw.Lane)), "event")
		if ln.Deleted {
			h.Text += ", deleted"
		}
		if x < layout.PlotX {
			return h
		}
		if k := c.nearestInLane(v, rw.Lane, at, slop); k >= 0 {
			ev := tl.Event(k)
			h.Event = k
			h.Text = ev.Type.String() + " " + laneText(ln) + "\nRV " + ev.RV + " at " + c.FormatTime(ev.T)
			if !ev.Timed && !c.noClock {
				h.Text += " (estimated)"
			}
			if ev.Initial {
				h.Text += "\npart of the initial events (sendInitialEvents)"
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

func (c *Cache) nearestError(v *View, at, slop int64) int {
	best, bestD := -1, slop+1
	for k, e := range c.errs {
		p, ok := axisPos(v.AxisRV, e.t, e.y)
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
func (c *Cache) nearestBookmark(axisRV bool, at, slop int64) int {
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
func (c *Cache) nearestInLane(v *View, l int, at, slop int64) int {
	le := c.lane(l)
	best, bestD := -1, slop+1
	k := 0
	if !v.AxisRV {
		k = max(sort.Search(len(le.t), func(i int) bool { return le.t[i] >= at-slop }), 0)
	}
	for ; k < len(le.t); k++ {
		p, ok := axisPos(v.AxisRV, le.t[k], le.rv[k])
		if !v.AxisRV && p > at+slop {
			break
		}
		if !ok || !v.Filter.Event(le.typ[k]) {
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
func (c *Cache) sessionAt(axisRV bool, at, slop int64) string {
	tl := c.tl
	if !axisRV {
		for _, s := range tl.Sessions {
			if s.Gap >= 0 && at >= s.Start-s.Gap-slop && at <= s.Start+slop {
				return "reconnect gap of " + fmtSeconds(s.Gap) + " before session " + strconv.Itoa(s.Index) + " of " + tl.Files[s.File].Name +
					": no watch was open; the client resumed from its cursor at " + c.FormatTime(s.Start)
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

func (c *Cache) sessionText(g int) string {
	tl := c.tl
	s := tl.Sessions[g]
	t := "session " + strconv.Itoa(s.Index) + " of " + tl.Files[s.File].Name + ": " + c.FormatTime(s.Start) + " – " + c.FormatTime(s.End)
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

// ZoneBandKind is the cursor whose reconnects a zone band shows.
func ZoneBandKind(b BandID) timeline.CursorKind {
	switch b {
	case BandZoneIgnoring:
		return timeline.BookmarkIgnoring
	case BandZoneHad:
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
func (c *Cache) reconnectText(an *timeline.Analysis, kinds []timeline.CursorKind, at int64) string {
	if an == nil || c.noClock {
		return ""
	}
	tl := c.tl
	var b strings.Builder
	b.WriteString("a drop at " + c.FormatTime(at))
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
func (c *Cache) cursorsAt(t int64) string {
	tl := c.tl
	var b strings.Builder
	b.WriteString("at " + c.FormatTime(t))
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

// FormatTime shows an instant; a capture without a clock has ordinals.
func (c *Cache) FormatTime(t int64) string {
	if c.noClock {
		return "#" + strconv.FormatInt(t, 10)
	}
	return time.Unix(0, t).UTC().Format("2006-01-02 15:04:05.000")
}

func (c *Cache) FormatPos(axisRV bool, v int64) string {
	if axisRV {
		return "RV " + strconv.FormatInt(v, 10)
	}
	return c.FormatTime(v)
}
