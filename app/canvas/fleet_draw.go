package canvas

import (
	"math"
	"sort"
	"strconv"

	"watchlens/app/words"
)

// FleetViewport is everything one fleet frame depends on besides the
// data.
type FleetViewport struct {
	From, To int64
	Width    float64
	// MaxHeight, when not 0, is the room the canvas has, CSS pixels.
	MaxHeight  float64
	PixelRatio float64
	ScrollY    float64
	Selecting  bool
	SelectFrom float64 // pixel x of a shift-drag's ends
	SelectTo   float64
	// Marker is the instant a reconnect is asked about, 0 for none.
	Marker Marker
}

// Scale maps the viewport's range onto the layout's plot.
func (v *FleetViewport) Scale(l *FleetLayout) Scale {
	return Scale{From: v.From, To: v.To, X0: l.PlotX, Width: l.PlotW}
}

// Build fills fr with one frame of the fleet view; buf is scratch space
// the caller keeps between frames.
func (d *FleetData) Build(v *FleetViewport, fr *Frame, buf *FleetScratch) FleetLayout {
	l := NewFleetLayout(v.Width, v.MaxHeight, len(d.Rows), d.Groups, d.namesRoom(v.Width))
	fr.reset(l.Width, l.Height, v.PixelRatio)
	s := v.Scale(&l)
	bottom := l.RowsY + max(l.RowsH, FleetRowH)

	// Band backgrounds and their names in the gutter.
	fr.rect(ColorGrid, 0.25, l.PlotX, l.CurvesY, l.PlotW, fleetCurvesH)
	fr.rect(ColorGrid, 0.25, l.PlotX, l.HistY, l.PlotW, fleetHistH)
	t0 := len(fr.Texts)
	// Each band's name has a shorter wording, drawn where the gutter is
	// too narrow for the whole (a phone's third of the width), which the
	// browser would cut to "clients sent to r…".
	label := func(y float64, s, short, color, font string) {
		fr.addLabelWithin(l.PlotX-8, y, l.PlotX-14, s, short, color, "r", font)
	}
	label(l.CurvesY+9, "clients sent to relist", "clients to relist", ColorFg, "b")
	label(l.CurvesY+23, "if every watch dropped:", "if all dropped:", ColorMuted, "")
	if d.Fleet.AllBookmarksUnseen() {
		label(l.CurvesY+41, "as their logs show ━", "as logs show ━", ColorIgnoring, "b")
		label(l.CurvesY+55, "(no bookmarks seen)", "(none seen)", ColorMuted, "")
	} else {
		label(l.CurvesY+41, "without bookmarks ━", "no bookmarks ━", ColorIgnoring, "b")
		label(l.CurvesY+55, "with bookmarks ━", "bookmarks ━", ColorAware, "b")
	}
	if d.MaxAtRiskWith > 0 || d.MaxAtRiskWithout > 0 {
		label(l.CurvesY+69, "dashed: might relist", "dashed: maybe", ColorMuted, "")
	}
	label(l.HistY+fleetHistH/2, "relists seen", "", ColorFg, "b")
	fr.flushTexts(t0)

	// Ticks: grid lines over every band, labels in the axis band.
	buf.segs = fr.drawTicks(timeTicks(s, d.zone), s, l.Width, bottom, buf.segs[:0])
	fr.axisZone(l.PlotX, s, d.zone)

	fr.clip(l.PlotX, 0, l.PlotW, l.Height)
	d.drawRestarts(&l, s, fr, buf, bottom)
	d.drawCurves(&l, s, fr, buf)
	d.drawHistogram(&l, s, fr, buf)
	drawRestartLabels(&l, fr)
	fr.unclip()
	d.drawRows(v, &l, s, fr, buf)
	v.Marker.draw(s, bottom, fr, d.zone)

	if v.Selecting {
		a, b := min(v.SelectFrom, v.SelectTo), max(v.SelectFrom, v.SelectTo)
		fr.rect(ColorSession, 0.25, a, axisH, b-a, bottom-axisH)
	}
	return l
}

// FleetScratch is the buffers a fleet frame is built in, kept between
// frames so that a frame allocates nothing once they have grown.
type FleetScratch struct {
	segs, rects, marks    []float32
	with, without         []int32
	riskWith, riskWithout []int32
	bins                  []int32
	stretchMarks          []stretchMark
	restartLabels         []RestartLabel
}

// drawRestarts shades each restart, from the old server ending its
// watches to a server serving again, and each outage, from its first
// attempt that reached no server to the first answer, and marks their
// starts across every band. A restart whose reconnects reached no server
// is its outage's start: the outage's mark and tooltip tell both.
func (d *FleetData) drawRestarts(l *FleetLayout, s Scale, fr *Frame, buf *FleetScratch, bottom float64) {
	buf.stretchMarks = buf.stretchMarks[:0]
	shade := func(from, to int64, label, short string) {
		if to < s.From || from > s.To {
			return
		}
		x0, x1 := s.XClamped(from), s.XClamped(to)
		buf.rects = append(buf.rects, float32(x0), float32(axisH), float32(max(x1-x0, 2)), float32(bottom-axisH))
		x := math.Round(x0) + 0.5
		buf.segs = append(buf.segs, float32(x), float32(axisH), float32(x), float32(bottom))
		buf.stretchMarks = append(buf.stretchMarks, stretchMark{x, label, short})
	}
	buf.rects, buf.segs = buf.rects[:0], buf.segs[:0]
	for _, r := range d.Restarts {
		if !r.Unreachable {
			w := r.Window()
			label, short := "API server restart", "restart"
			if r.ServerName != "" {
				// Which server, where the records say: the restarts of a
				// roll are otherwise told apart by their order alone.
				label = "server " + r.ServerName + " restart"
			}
			if !r.Shown() {
				// Cut short, it still says it is probable.
				label, short = "probable restart", "probable"
			}
			shade(w.From, w.To, label, short)
		}
	}
	fr.add(Op{Kind: "rect", Color: ColorFg, Alpha: 0.1}, buf.rects)
	fr.add(Op{Kind: "seg", Color: ColorFg, Size: 1.5, Dashed: true}, buf.segs)
	buf.rects, buf.segs = buf.rects[:0], buf.segs[:0]
	for _, o := range d.Outages {
		shade(o.From, o.To, "no server reached", "outage")
	}
	fr.add(Op{Kind: "rect", Color: ColorError, Alpha: 0.08}, buf.rects)
	fr.add(Op{Kind: "seg", Color: ColorError, Size: 1.5, Dashed: true}, buf.segs)
	buf.restartLabels = layoutRestartLabels(buf.stretchMarks, l.CurvesY, l.PlotX+l.PlotW, buf.restartLabels)
	l.RestartLabels = buf.restartLabels
}

// drawRestartLabels writes the restarts' names where drawRestarts placed
// them, over the curves.
func drawRestartLabels(l *FleetLayout, fr *Frame) {
	t0 := len(fr.Texts)
	for _, rl := range l.RestartLabels {
		fr.addLabelWithin(rl.X, rl.Y, rl.W, rl.Text, rl.Short, ColorFg, "l", "b")
		fr.Texts[len(fr.Texts)-1].Box = ColorBg
	}
	fr.flushTexts(t0)
}

// drawCurves draws the stampede series, per pixel column its highest
// value there: without bookmarks as a pale area under its line, with
// bookmarks as a line over it. The curves span the shared clock only
// (clockColumns).
func (d *FleetData) drawCurves(l *FleetLayout, s Scale, fr *Frame, buf *FleetScratch) {
	n := max(int(l.PlotW), 1)
	buf.with, buf.without = resize(buf.with, n), resize(buf.without, n)
	buf.riskWith, buf.riskWithout = resize(buf.riskWith, n), resize(buf.riskWithout, n)
	steps := d.Fleet.Steps
	k := sort.Search(len(steps), func(i int) bool { return steps[i].T > s.From }) - 1
	for c := range n {
		var w, wo, rw, rwo int
		if k >= 0 {
			w, wo, rw, rwo = steps[k].With, steps[k].Without, steps[k].AtRiskWith, steps[k].AtRiskWithout
		}
		end := s.ColumnEnd(c, n)
		for k+1 < len(steps) && steps[k+1].T < end {
			k++
			w, wo = max(w, steps[k].With), max(wo, steps[k].Without)
			rw, rwo = max(rw, steps[k].AtRiskWith), max(rwo, steps[k].AtRiskWithout)
		}
		buf.with[c], buf.without[c] = int32(w), int32(wo)
		buf.riskWith[c], buf.riskWithout[c] = int32(rw), int32(rwo)
	}
	top := max(d.MaxWith, d.MaxWithout, d.MaxAtRiskWith, d.MaxAtRiskWithout, 1)
	y0, h := l.CurvesY+fleetCurvesH-4, fleetCurvesH-18
	y := func(v int32) float64 { return math.Round(y0-float64(v)*h/float64(top)) + 0.5 }

	lo, hi := d.clockColumns(s, n)
	x0 := l.PlotX + float64(lo)
	buf.rects = buf.rects[:0]
	for c := lo; c < hi; {
		e := c + 1
		for e < hi && buf.without[e] == buf.without[c] {
			e++
		}
		if buf.without[c] > 0 {
			yt := y(buf.without[c])
			buf.rects = append(buf.rects, float32(l.PlotX+float64(c)), float32(yt), float32(e-c), float32(y0-yt+0.5))
		}
		c = e
	}
	fr.add(Op{Kind: "rect", Color: ColorIgnoring, Alpha: 0.22}, buf.rects)
	fr.add(Op{Kind: "seg", Color: ColorIgnoring, Size: 2}, stepLine(buf.segs[:0], buf.without[lo:hi], x0, y))
	// Where every client's log hides its bookmarks, the two sides are one
	// (the cursor each log shows): one curve.
	unseen := d.Fleet.AllBookmarksUnseen()
	if !unseen {
		buf.segs = stepLine(buf.segs[:0], buf.with[lo:hi], x0, y)
		fr.add(Op{Kind: "seg", Color: ColorAware, Size: 2}, buf.segs)
	}
	// The clients that might relist, the evidence not saying whether the
	// server still had their cursor: dashed, in the same colours. Where
	// the two are equal (audit logs alone, often), the thinner line with
	// bookmarks lies inside the wider one without, which still shows.
	if d.MaxAtRiskWithout > 0 {
		buf.segs = stepLine(buf.segs[:0], buf.riskWithout[lo:hi], x0, y)
		fr.add(Op{Kind: "seg", Color: ColorIgnoring, Size: 4, Dashed: true}, buf.segs)
	}
	if d.MaxAtRiskWith > 0 && !unseen {
		buf.segs = stepLine(buf.segs[:0], buf.riskWith[lo:hi], x0, y)
		fr.add(Op{Kind: "seg", Color: ColorAware, Size: 1.5, Dashed: true}, buf.segs)
	}

	// The scale: the peak and 0, inside the plot's left edge (the gutter
	// beside it holds the band's names, and the plot's clip would hide
	// them there), each on a box of the page's background, as the
	// restarts' names are: a view that starts within the shared clock
	// has the curves, and grid lines, cross them there.
	t0 := len(fr.Texts)
	peak := strconv.Itoa(top) + " clients"
	if top == 1 {
		peak = "1 client"
	}
	fr.addText(l.PlotX+4, y(int32(top)), peak, ColorMuted, "l", "")
	fr.Texts[len(fr.Texts)-1].Box = ColorBg
	fr.addText(l.PlotX+4, y(0)-7, "0", ColorMuted, "l", "")
	fr.Texts[len(fr.Texts)-1].Box = ColorBg
	fr.flushTexts(t0)
}

// clockColumns is the pixel columns [lo, hi) of the n of s that hold an
// instant of the shared clock. The curves count the zones, which stop at
// the clock's ends: past them the curves would say 0 clients where
// nothing was recorded, and where a reconnect asked about (Reconnect at)
// still judges the cursors as the clients left them.
func (d *FleetData) clockColumns(s Scale, n int) (lo, hi int) {
	if d.clockEnd < s.From || d.clockStart >= s.To {
		return 0, 0
	}
	return s.Column(d.clockStart, n), s.Column(d.clockEnd, n) + 1
}

// stepLine appends the segments of a step line through one value per
// pixel column from x0: a horizontal run per value, a vertical rise or
// fall between runs.
func stepLine(segs []float32, vals []int32, x0 float64, y func(int32) float64) []float32 {
	for c := 0; c < len(vals); {
		e := c + 1
		for e < len(vals) && vals[e] == vals[c] {
			e++
		}
		yc := float32(y(vals[c]))
		segs = append(segs, float32(x0+float64(c)), yc, float32(x0+float64(e)), yc)
		if e < len(vals) {
			segs = append(segs, float32(x0+float64(e)), yc, float32(x0+float64(e)), float32(y(vals[e])))
		}
		c = e
	}
	return segs
}

// binRelists counts the relists seen in view per interval of fleetBinPx
// pixels into buf.bins, and returns the largest count.
func (d *FleetData) binRelists(l *FleetLayout, s Scale, buf *FleetScratch) int32 {
	n := max(int(l.PlotW/fleetBinPx), 1)
	buf.bins = resize(buf.bins, n)
	top := int32(0)
	lo := sort.Search(len(d.relists), func(i int) bool { return d.relists[i] >= s.From })
	for _, t := range d.relists[lo:] {
		if t >= s.To {
			break
		}
		b := min(int((s.X(t)-l.PlotX)/fleetBinPx), n-1)
		buf.bins[b]++
		top = max(top, buf.bins[b])
	}
	return top
}

// drawHistogram draws the relists seen per interval of fleetBinPx
// pixels.
func (d *FleetData) drawHistogram(l *FleetLayout, s Scale, fr *Frame, buf *FleetScratch) {
	if d.serverRelists != nil {
		d.drawServerHistogram(l, s, fr, buf)
		return
	}
	top := d.binRelists(l, s, buf)
	buf.rects = buf.rects[:0]
	y0, h := l.HistY+fleetHistH-2, fleetHistH-14
	for b, c := range buf.bins {
		if c == 0 {
			continue
		}
		bh := max(math.Round(float64(c)*h/float64(top)), 2)
		buf.rects = append(buf.rects, float32(l.PlotX+float64(b)*fleetBinPx), float32(y0-bh), float32(fleetBinPx-1), float32(bh))
	}
	fr.add(Op{Kind: "rect", Color: ColorDeleted}, buf.rects)
	if top > 0 {
		t0 := len(fr.Texts)
		fr.addText(l.PlotX-4, y0-h, strconv.Itoa(int(top)), ColorMuted, "r", "")
		fr.flushTexts(t0)
	}
}

// drawRows draws the rows in view, no others: each client's name in the
// gutter; red where a reconnect of the cursor it had would be refused,
// hatched red where the one it did not have would; a ring at each relist.
func (d *FleetData) drawRows(v *FleetViewport, l *FleetLayout, s Scale, fr *Frame, buf *FleetScratch) {
	first, last := l.VisibleRows(v.ScrollY)
	// A clip replaces the one before (web/timeline.js): the gutter's
	// names are clipped to the row area, then the spans to its plot.
	fr.clip(0, l.RowsY, l.Width, l.RowsH)
	buf.rects = buf.rects[:0]
	for r := first; r < last; r++ {
		if r%2 == 1 {
			buf.rects = append(buf.rects, 0, float32(l.RowY(r, v.ScrollY)), float32(l.Width), FleetRowH)
		}
	}
	fr.add(Op{Kind: "rect", Color: ColorGrid, Alpha: 0.3}, buf.rects)
	t0 := len(fr.Texts)
	for r := first; r < last; r++ {
		row := &d.Rows[r]
		name, short := words.Isolated(row.Label), ""
		if row.Short != "" {
			short = words.Isolated(row.Short)
		}
		if !row.Client.Bookmarks {
			name = noBookmarksMark + name
			if short != "" {
				short = noBookmarksMark + short
			}
		}
		fr.addLabelWithin(6, l.RowY(r, v.ScrollY)+FleetRowH/2, l.PlotX-14, name, short, ColorFg, "l", "")
	}
	fr.flushTexts(t0)
	fr.clip(l.PlotX, l.RowsY, l.PlotW, l.RowsH)
	// The other cursor's zones are what might have been: outlined and
	// hatched in the zone's red, behind the row's own solid zones. A
	// pale fill stood 1.1-1.3:1 against the row; the red lines stand at
	// least 3:1 in both themes (TestBrowserContrast).
	buf.rects, buf.segs = buf.rects[:0], buf.segs[:0]
	for r := first; r < last; r++ {
		y := l.RowY(r, v.ScrollY) + 2
		for _, sp := range inView(d.Rows[r].Other(), s) {
			x0, x1 := math.Round(s.XClamped(sp[0])), math.Round(s.XClamped(sp[1]))
			buf.segs = hatch(buf.segs, x0, y, max(x1-x0, 1), FleetRowH-4)
		}
	}
	fr.add(Op{Kind: "seg", Color: ColorZone, Size: 1.5}, buf.segs)
	for r := first; r < last; r++ {
		y := l.RowY(r, v.ScrollY) + 2
		for _, sp := range inView(d.Rows[r].Own(), s) {
			x0, x1 := s.XClamped(sp[0]), s.XClamped(sp[1])
			buf.rects = append(buf.rects, float32(x0), float32(y), float32(max(x1-x0, 1)), FleetRowH-4)
		}
	}
	fr.add(Op{Kind: "rect", Color: ColorZone}, buf.rects)
	// The servers' names, on their patches, under the rings and squares,
	// which a patch would hide.
	d.drawStints(v, l, s, fr, first, last)
	buf.marks = d.rowMarks(buf.marks[:0], v, l, s, first, last, func(r *FleetRow) []int64 { return r.Relists })
	fr.add(Op{Kind: "mark", Color: ColorFg, Shape: "ring", Size: markSize}, buf.marks)
	// A client that never synced: each whole read, a square where a
	// synced client's relist has its ring.
	buf.marks = d.rowMarks(buf.marks[:0], v, l, s, first, last, func(r *FleetRow) []int64 { return r.Reads })
	fr.add(Op{Kind: "mark", Color: ColorFg, Shape: "square", Size: markSize}, buf.marks)
	fr.unclip()
	d.drawGroups(v, l, fr)
}

// rowMarks appends a mark at the middle of each row in view, first to
// last, for each of its instants (times, sorted) within the scale.
func (d *FleetData) rowMarks(out []float32, v *FleetViewport, l *FleetLayout, s Scale, first, last int, times func(*FleetRow) []int64) []float32 {
	for r := first; r < last; r++ {
		ts := times(&d.Rows[r])
		y := float32(l.RowY(r, v.ScrollY) + FleetRowH/2)
		for k := sort.Search(len(ts), func(i int) bool { return ts[i] >= s.From }); k < len(ts) && ts[k] < s.To; k++ {
			out = append(out, float32(s.X(ts[k])), y)
		}
	}
	return out
}

// drawStints writes, in each row in view, the server each of the
// client's stints went to ("a#1", "c#1") where it begins, and a tick
// there: a client's column of servers on the shared clock. Each name sits
// on a patch of the panel's colour, past a relist's ring, so that it
// reads over a red zone and clear of the ring.
func (d *FleetData) drawStints(v *FleetViewport, l *FleetLayout, s Scale, fr *Frame, first, last int) {
	t0 := len(fr.Texts)
	var ticks, patches []float32
	for r := first; r < last; r++ {
		st := d.Rows[r].stints
		y := l.RowY(r, v.ScrollY)
		lastX := -1e9
		for k := max(sort.Search(len(st), func(i int) bool { return st[i].from > s.From })-1, 0); k < len(st) && st[k].from < s.To; k++ {
			if st[k].server < 0 {
				continue
			}
			x := max(s.X(st[k].from), s.X0)
			if x-lastX < 28 {
				continue
			}
			lastX = x
			ticks = append(ticks, float32(x), float32(y+2), float32(x), float32(y+FleetRowH-2))
			// Past a relist's ring, which often sits where a stint begins.
			name := d.serverName(st[k].server, st[k].inc)
			tx := x + markSize/2 + 4
			patches = append(patches, float32(tx-2), float32(y+3), float32(stintCharW*float64(len(name))+4), FleetRowH-6)
			fr.addText(tx, y+FleetRowH/2, name, ColorMuted, "l", "")
		}
	}
	fr.add(Op{Kind: "seg", Color: ColorMuted, Size: 1}, ticks)
	fr.add(Op{Kind: "rect", Color: ColorPanel}, patches)
	fr.flushTexts(t0)
}

// stintCharW is a server name's width per character in the rows' 11 px
// font, about, for the patch under it: the names are a letter or two, '#'
// and a number.
const stintCharW = 6.5

// inView is the spans, sorted, that overlap the scale's range.
func inView(spans [][2]int64, s Scale) [][2]int64 {
	k := sort.Search(len(spans), func(i int) bool { return spans[i][1] > s.From })
	e := k
	for e < len(spans) && spans[e][0] < s.To {
		e++
	}
	return spans[k:e]
}

// hatchStep is the distance between a hatched zone's strokes, px.
const hatchStep = 4.0

// hatch appends the segments of a hatched box at (x, y), w by h: its top
// and bottom edges, and upright strokes hatchStep apart between them.
// The strokes are upright because web/timeline.js fills segments as
// pixel-aligned rectangles, crisp but level or upright only.
func hatch(segs []float32, x, y, w, h float64) []float32 {
	top, bottom := math.Round(y)+0.75, math.Round(y+h)-0.75
	segs = append(segs, float32(x), float32(top), float32(x+w), float32(top), float32(x), float32(bottom), float32(x+w), float32(bottom))
	for c := x + 1; c < x+w; c += hatchStep {
		segs = append(segs, float32(c), float32(top), float32(c), float32(bottom))
	}
	return segs
}

// resize is buf with n zeroed elements, grown when it is too small.
func resize(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}
