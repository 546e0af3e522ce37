package canvas

import (
	"math"
	"sort"
	"unicode/utf8"

	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// lanesBand is the lane area under the bands: a row per group header
// and per lane. It answers in the gutter too, where a lane's name is.
type lanesBand struct{}

// noRowsText says why no object's lane is drawn: the filter hides them
// all, or the files hold none, as clients read from logs do, whose
// records are requests.
func (c *Cache) noRowsText() string {
	if c.tl.Lanes.Len() > 0 {
		return "no objects match the filter"
	}
	for _, f := range c.tl.Files {
		if !f.Audit {
			return "no objects: the files open hold no watch events"
		}
	}
	return "no objects: logs record the clients' requests, not the events they received"
}

func (lanesBand) answersInGutter() {}

// paint draws the visible rows of the lane area: group headers, and
// per lane its lifetime and its events' marks, one batch per event type.
// Events closer than 60% of a mark share marks (one per type), so a frame
// holds a few marks per mark width per row, whatever the zoom.
func (lanesBand) paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame) {
	if len(v.Rows) == 0 {
		t0 := len(fr.Texts)
		fr.addText(layout.PlotX+8, layout.LanesY+RowHeight/2, c.noRowsText(), ColorMuted, "l", "")
		fr.flushTexts(t0)
		return
	}
	first := int(v.ScrollY / RowHeight)
	last := min(len(v.Rows), int((v.ScrollY+layout.LanesH)/RowHeight)+1)
	for k := range c.scratch {
		c.scratch[k] = c.scratch[k][:0]
	}
	var stripes, headers, life []float32
	visible := map[int]bool{}
	t0 := len(fr.Texts)
	fr.clip(0, layout.LanesY, layout.Width, layout.LanesH)
	minGap := markSize * 0.6
	for r := first; r < last; r++ {
		rw := v.Rows[r]
		y := layout.LanesY + float64(r)*RowHeight - v.ScrollY
		cy := float32(y + RowHeight/2)
		g := &v.Groups[rw.Group]
		if rw.Lane < 0 {
			headers = append(headers, 0, float32(y), float32(layout.Width), RowHeight)
			arrow := "▾ "
			switch {
			case v.Print:
				arrow = ""
			case g.Collapsed:
				arrow = "▸ "
			}
			fr.addTextWithin(4, y+RowHeight/2, layout.Width-8, arrow+g.Label(c.tl), ColorFg, "l", "b")
			continue
		}
		if r%2 == 0 {
			stripes = append(stripes, float32(layout.PlotX), float32(y), float32(layout.PlotW), RowHeight)
		}
		ln := c.tl.Lanes.At(rw.Lane)
		name := words.ClipRunes(timeline.VisibleBidi(ln.Name), 26)
		if !layout.LabelsOver {
			fr.addTextWithin(layout.PlotX-8, y+RowHeight/2, layout.PlotX-12, name, ColorFg, "r", "")
		}
		var before [len(markStyles)]int
		for k := range c.scratch {
			before[k] = len(c.scratch[k])
		}
		visible[rw.Lane] = true
		le := c.lane(rw.Lane)
		if first, last := c.tl.LaneSpan(rw.Lane); !v.AxisRV && last >= v.From && first < v.To {
			life = append(life, float32(s.XClamped(first)), cy, float32(s.XClamped(last)), cy)
		}
		if v.AxisRV {
			c.laneMarksRV(v, le, s, cy, minGap)
		} else {
			c.laneMarksTime(v, le, s, cy, minGap)
		}
		if layout.LabelsOver {
			c.laneNameOver(layout, fr, y+RowHeight/2, name, &before)
		}
	}
	fr.add(Op{Kind: "rect", Color: ColorGrid, Alpha: 0.18}, stripes)
	fr.add(Op{Kind: "rect", Color: ColorGrid, Alpha: 0.45}, headers)
	fr.add(Op{Kind: "seg", Color: ColorMuted, Size: 1, Alpha: 0.35}, life)
	if layout.LabelsOver {
		// The names over the plot go under the marks: a mark at the
		// plot's left end stays in sight.
		fr.flushTexts(t0)
		t0 = len(fr.Texts)
	}
	for typ, marks := range c.scratch {
		if st := markStyles[typ]; st.shape != "" {
			fr.add(Op{Kind: "mark", Shape: st.shape, Color: st.color, Size: markSize}, marks)
		}
	}
	c.selection(v, layout, s, fr, first, last)
	if layout.ContentH > layout.LanesH && !v.Print {
		// A scroll thumb: there are more rows than the lane area shows.
		// A picture has no control to scroll with.
		h := max(layout.LanesH*layout.LanesH/layout.ContentH, 12)
		top := layout.LanesY + v.ScrollY/(layout.ContentH-layout.LanesH)*(layout.LanesH-h)
		fr.rect(ColorMuted, 0.5, layout.Width-7, top, 4, h)
	}
	fr.flushTexts(t0)
	fr.unclip()
	c.trim(visible)
}

// laneNameOver writes a lane's name over the plot, where its marks (those
// the row added to c.scratch past before) leave room: at the plot's left
// end, or at its right end when marks lie under the left one and none
// under the right one (a capture whose objects all changed at its start
// would have each name written through its marks), else at the left,
// under the marks. The name's width is reckoned at 6.5 px a character,
// about the page's 11 px sans-serif's.
func (c *Cache) laneNameOver(layout *Layout, fr *Frame, y float64, name string, before *[len(markStyles)]int) {
	w := min(6.5*float64(utf8.RuneCountInString(name))+4+markSize/2, layout.PlotW*overLabelShare)
	left, right := layout.PlotX+w, layout.PlotX+layout.PlotW-w
	underLeft, underRight := false, false
	for k := range c.scratch {
		marks := c.scratch[k][before[k]:]
		for i := 0; i < len(marks); i += 2 {
			x := float64(marks[i])
			underLeft = underLeft || x < left
			underRight = underRight || x > right
		}
	}
	if underLeft && !underRight {
		fr.addTextWithin(layout.PlotX+layout.PlotW-3, y, layout.PlotW*overLabelShare, name, ColorFg, "r", "")
		fr.Texts[len(fr.Texts)-1].Box = ColorBg
		return
	}
	layout.addLabel(fr, y, name, "", ColorFg, "")
}

// laneMarksTime puts a lane's marks on the time axis bucket by bucket: a
// bucket holds the events within minGap of its first one and gets one
// mark per type present, at that type's first event. Its end is found by
// galloping over the times and the types present from the lane's type
// changes, so a lane of a million events costs a few searches per bucket.
func (c *Cache) laneMarksTime(v *View, le *decodedLane, s Scale, cy float32, minGap float64) {
	n := len(le.t)
	k := sort.Search(n, func(i int) bool { return le.t[i] >= v.From })
	ci := sort.Search(len(le.changes), func(i int) bool { return int(le.changes[i]) > k })
	for k < n && le.t[k] < v.To {
		x := s.X(le.t[k])
		bound := s.At(x + minGap)
		end, step := k+1, 1
		for end+step-1 < n && le.t[end+step-1] < bound {
			end += step
			step *= 2
		}
		hi := min(end+step-1, n)
		end += sort.Search(hi-end, func(i int) bool { return le.t[end+i] >= bound })
		var seen uint32
		mark := func(i int) {
			typ := le.typ[i]
			if seen&(1<<typ) != 0 {
				return
			}
			seen |= 1 << typ
			if int(typ) < len(c.scratch) && v.Filter.Event(typ) {
				c.scratch[typ] = append(c.scratch[typ], float32(s.X(le.t[i])), cy)
			}
		}
		mark(k)
		for ci < len(le.changes) && int(le.changes[ci]) <= k {
			ci++
		}
		for ; ci < len(le.changes) && int(le.changes[ci]) < end; ci++ {
			mark(int(le.changes[ci]))
		}
		k = end
	}
}

// laneMarksRV puts a lane's marks on the RV axis, merging marks of a type
// closer than minGap. A lane's events are in time order, which is not
// always RV order: a lane whose RVs rise is searched by type (see
// rvIndex); another is walked whole, and so is a lane of no more than
// eight events per mark the plot has room for, where the walk's step per
// event costs less than a search per mark (a search is a few tests
// through closures).
func (c *Cache) laneMarksRV(v *View, le *decodedLane, s Scale, cy float32, minGap float64) {
	if len(le.rv) <= 8*int(s.Width/minGap) {
		c.laneMarksRVWalk(v, le, s, cy, minGap)
		return
	}
	if ix := le.rvIndexOf(); ix.ok {
		c.laneMarksRVIndexed(v, le, ix, s, cy, minGap)
		return
	}
	c.laneMarksRVWalk(v, le, s, cy, minGap)
}

// laneMarksRVWalk walks all of a lane's events, marking an event unless
// its type's last mark is within minGap of it.
func (c *Cache) laneMarksRVWalk(v *View, le *decodedLane, s Scale, cy float32, minGap float64) {
	var lastX [len(markStyles)]float64
	for i := range lastX {
		lastX[i] = math.Inf(-1)
	}
	for k, rv := range le.rv {
		typ := le.typ[k]
		p := int64(rv)
		if rv == timeline.NoRV || p < v.From || p >= v.To || int(typ) >= len(lastX) || !v.Filter.Event(typ) {
			continue
		}
		x := s.X(p)
		if math.Abs(x-lastX[typ]) < minGap {
			continue
		}
		lastX[typ] = x
		c.scratch[typ] = append(c.scratch[typ], float32(x), cy)
	}
}

// selection rings the selected event when its lane is on screen and draws
// a line at its place across the whole plot.
func (c *Cache) selection(v *View, layout *Layout, s Scale, fr *Frame, first, last int) {
	if v.Selected < 0 || v.Selected >= c.tl.Len() {
		return
	}
	ev := c.tl.Event(v.Selected)
	p, ok := axisPos(v.AxisRV, ev.T, ev.RVNum)
	if !ok || !ev.RVValid && v.AxisRV || p < v.From || p >= v.To {
		return
	}
	x := s.X(p)
	fr.add(Op{Kind: "seg", Color: ColorFg, Size: 1, Alpha: 0.5}, []float32{float32(x), axisH, float32(x), float32(layout.LanesY + layout.LanesH)})
	for r := first; r < last; r++ {
		if v.Rows[r].Lane == ev.Lane && ev.Lane >= 0 {
			y := layout.LanesY + float64(r)*RowHeight - v.ScrollY + RowHeight/2
			fr.add(Op{Kind: "mark", Shape: "ring", Color: ColorFg, Size: markSize + 6}, []float32{float32(x), float32(y)})
		}
	}
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

// laneText names a lane's object in the page's text: kind, namespace and
// name, each as isolated shows a name from the capture.
func laneText(ln timeline.Lane) string {
	if ln.Namespace == "" {
		return words.Isolated(ln.Kind) + " " + words.Isolated(ln.Name)
	}
	return words.Isolated(ln.Kind) + " " + words.Isolated(ln.Namespace+"/"+ln.Name)
}

// hit answers for the lane area: a group header folds; a lane names
// its object, and the event nearest at, within slop, is selected.
func (lanesBand) hit(c *Cache, v *View, p pointer) Hit {
	layout, x, y, at, slop := p.layout, p.x, p.y, p.at, p.slop
	h := Hit{Event: -1, Group: -1}
	tl := c.tl
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
	ln := tl.Lanes.At(rw.Lane)
	h.Text = laneText(ln) + ": " + quantity.Plural(len(tl.LaneEvents(rw.Lane)), "event")
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
	return h
}
