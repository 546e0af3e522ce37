package canvas

import (
	"math"
	"strconv"
	"strings"

	"watchlens/timeline"
)

// cursorsBand is a file's strip of cursors against time.
type cursorsBand struct{}

func (cursorsBand) label() string { return "cursors · RV" }

// height is smaller with several file groups, which each have a strip.
func (cursorsBand) height(groups int) float64 {
	if groups > 1 {
		return cursorH * 3 / 4
	}
	return cursorH
}

// paint draws each strip and notes in its band the RVs at its top and
// bottom, and in the layout the first strip's.
func (cursorsBand) paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame) {
	if v.AxisRV {
		return
	}
	// The columns' ends, found once for every strip and every series it
	// folds: a capture split into clients has a strip for each in view.
	ncol := int(math.Ceil(layout.PlotW))
	ends := c.colEnds[:0]
	for col := range ncol {
		ends = append(ends, s.ColumnEnd(col, ncol))
	}
	c.colEnds = ends
	c.spanFrame++
	for i := range layout.Bands {
		if b := &layout.Bands[i]; b.ID == BandCursors && fr.shows(*b) {
			b.RVTop, b.RVBot = c.cursorStrip(v, layout, *b, s, ends, fr)
			if layout.CursorTop == layout.CursorBot {
				layout.CursorTop, layout.CursorBot = b.RVTop, b.RVBot
			}
		}
	}
	c.dropSpansNotDrawn()
}

func (cursorsBand) hit(c *Cache, v *View, p pointer) Hit {
	h := Hit{Event: -1, Group: -1, Text: c.cursorsAt(p.at, p.band)}
	if k, ev := c.cursorStepHit(p.band, p.at, p.y); ev >= 0 {
		h.Event = ev
		h.Text += "\nclick: select the event that set the " + k + " cursor here"
	} else if k != "" {
		h.Text += "\nthe " + k + " cursor was set here by its session's request, not by an event"
	}
	return h
}

// cursorScale paints each strip's RV scale in the gutter beside it (or
// over the plot's right end, see addScaleLabel), outside the plot's clip.
type cursorScale struct{}

func (cursorScale) paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame) {
	t0 := len(fr.Texts)
	for _, b := range layout.Bands {
		if b.ID == BandCursors && b.RVTop > b.RVBot {
			layout.addScaleLabel(fr, b.Y+7, strconv.FormatUint(b.RVTop, 10))
			layout.addScaleLabel(fr, b.Y+b.Height-7, strconv.FormatUint(b.RVBot, 10))
		}
	}
	fr.flushTexts(t0)
}

// stepEnvelope is a step series reduced to pixel columns: per column the
// lowest and highest value it takes there and the value it leaves with.
type stepEnvelope struct {
	has        []bool
	lo, hi     []uint64
	last       []uint64
	breakAfter []bool // the series has no value after this column's last step
	min, max   uint64
}

func (e *stepEnvelope) reset(n int) {
	grow := func(s []uint64) []uint64 {
		if cap(s) < n {
			return make([]uint64, n)
		}
		return s[:n]
	}
	e.lo, e.hi, e.last = grow(e.lo), grow(e.hi), grow(e.last)
	if cap(e.has) < n {
		e.has, e.breakAfter = make([]bool, n), make([]bool, n)
	}
	e.has, e.breakAfter = e.has[:n], e.breakAfter[:n]
	clear(e.has)
	clear(e.breakAfter)
	e.min, e.max = math.MaxUint64, 0
}

// stepSeries is what the envelope reads of a step series:
// *timeline.Steps (the head, a cursor).
type stepSeries interface {
	RV(k int) uint64
	Columns(lo, hi int, ends []int64, prev, out []timeline.ColumnSpan) []timeline.ColumnSpan
}

// seriesSpans are a series' column spans (stepSeries.Columns) of the
// last frame that drew it, which the next frame's takes over where they
// hold (a pan's frame shows mostly the same columns a few pixels over);
// frame is that frame's count (Cache.spanFrame), and held says the
// series is in Cache.spansHeld.
type seriesSpans struct {
	last  []timeline.ColumnSpan
	frame uint32
	held  bool
}

// foldSeries folds series i (st, whose descents are desc) into env as
// env.add does, over the spans of the frame that drew it last, and keeps
// this frame's for the next: each series' buffer, and one spare they are
// written into by turns.
func (c *Cache) foldSeries(i int, env *stepEnvelope, st stepSeries, desc []int32, from, to int, ends []int64) {
	sp := &c.spans[i]
	if !sp.held {
		sp.held = true
		c.spansHeld = append(c.spansHeld, i)
	}
	sp.frame = c.spanFrame
	sp.last, c.spanSpare = env.add(st, desc, from, to, ends, sp.last, c.spanSpare[:0]), sp.last
}

// dropSpansNotDrawn lets go of the spans of the series this frame did
// not draw: a capture split into thousands of clients draws the strips
// of those in view, and as wasm memory held once is never given back.
func (c *Cache) dropSpansNotDrawn() {
	held := c.spansHeld[:0]
	for _, i := range c.spansHeld {
		if sp := &c.spans[i]; sp.frame == c.spanFrame {
			held = append(held, i)
		} else {
			*sp = seriesSpans{}
		}
	}
	c.spansHeld = held
}

// add folds the steps [from, to) of st into the columns, which end at
// ends (Scale.ColumnEnd of each column), and answers their spans, found
// over last, the spans of st a frame before found (stepSeries.Columns's
// prev), into out. A
// column's steps are found by a search from the column before it
// (stepSeries.Columns), and split by the entries of desc (st's descents)
// inside them into runs that only rise, each folded from its two ends: a
// whole-capture view of a million steps costs a search per column and
// one per descent, not a million steps.
func (e *stepEnvelope) add(st stepSeries, desc []int32, from, to int, ends []int64, last, out []timeline.ColumnSpan) []timeline.ColumnSpan {
	prev, havePrev, prevCol := uint64(0), false, -1
	fold := func(col int, val uint64) {
		if val == timeline.NoRV {
			if havePrev && prevCol >= 0 {
				e.breakAfter[prevCol] = true
			}
			havePrev = false
			return
		}
		if !e.has[col] {
			e.has[col], e.lo[col], e.hi[col] = true, val, val
			if havePrev && prevCol != col {
				e.lo[col], e.hi[col] = min(val, prev), max(val, prev)
			}
		}
		e.lo[col], e.hi[col] = min(e.lo[col], val), max(e.hi[col], val)
		e.last[col], e.breakAfter[col] = val, false
		e.min, e.max = min(e.min, val), max(e.max, val)
		prev, havePrev, prevCol = val, true, col
	}
	spans := st.Columns(from, to, ends, last, out)
	k, d := from, 0
	for _, sp := range spans {
		// The runs between the descents inside [k, sp.End) only rise:
		// the first and the last step of each bound it. A step with no
		// RV is a descent, and so is the one after it: such a run is
		// that one step. The descents at k or before it are behind.
		for d < len(desc) && int(desc[d]) <= k {
			d++
		}
		first := sp.First
		for ; d < len(desc) && int(desc[d]) < sp.End; d++ {
			fold(sp.Col, first)
			fold(sp.Col, st.RV(int(desc[d])-1))
			first = st.RV(int(desc[d]))
		}
		fold(sp.Col, first)
		fold(sp.Col, sp.Last)
		k = sp.End
	}
	return spans
}

// segments appends the envelope as line segments: a vertical per column
// where the series moved, a horizontal to the next column it is in.
func (e *stepEnvelope) segments(out []float32, x0 float64, endCol int, axis rvBand) []float32 {
	n := len(e.has)
	c := 0
	for c < n && !e.has[c] {
		c++
	}
	for c < n {
		x := float32(x0 + float64(c) + 0.5)
		if e.lo[c] != e.hi[c] {
			out = append(out, x, float32(axis.y(e.lo[c])), x, float32(axis.y(e.hi[c])))
		}
		next := c + 1
		for next < n && !e.has[next] {
			next++
		}
		if !e.breakAfter[c] {
			stop := next
			if next == n {
				stop = min(endCol, n)
			}
			if stop > c {
				yy := float32(axis.y(e.last[c]))
				out = append(out, x, yy, float32(x0+float64(stop)+0.5), yy)
			}
		}
		c = next
	}
	return out
}

// rvBand maps resourceVersions from bot to top onto a band's height, top
// up. It is a value with a method, not a closure: as wasm, calls through
// a closure cost, and segments makes two or three for each column.
type rvBand struct {
	y0, h    float64
	top, bot uint64
}

func (r rvBand) y(rv uint64) float64 {
	return r.y0 + r.h - 2 - float64(rv-r.bot)/float64(r.top-r.bot)*(r.h-4)
}

// cursorStrip plots, against time, the head estimate and each file's two
// cursors as step lines, and shades what lies between the two cursors. It
// returns the RVs at the strip's top and bottom (equal when it is empty).
// Its columns end at ends (Scale.ColumnEnd of each).
func (c *Cache) cursorStrip(v *View, layout *Layout, b Band, s Scale, ends []int64, fr *Frame) (uint64, uint64) {
	tl := c.tl
	ncol := len(ends)
	endCol := func(end int64) int { return int(math.Ceil(s.XClamped(end) - s.X0)) }
	if want := 1 + len(tl.Cursors); len(c.cols) < want {
		c.cols, c.spans = make([]stepEnvelope, want), make([]seriesSpans, want)
	}
	head := &c.cols[0]
	head.reset(ncol)
	hlo, hhi := tl.HeadRange(v.From, v.To)
	c.foldSeries(0, head, tl.HeadSteps(), c.headDesc, hlo, hhi, ends)
	type series struct {
		env   *stepEnvelope
		color string
		end   int
	}
	all := []series{{head, ColorHead, endCol(c.end)}}
	mn, mx := head.min, head.max
	// Each file's two cursors, and the column where the first of them
	// ends: the shade between them stops where their lines do.
	type cursorPair struct {
		env [2]*stepEnvelope
		end int
	}
	var pairs []cursorPair
	// A file's band reads its own file's cursors, not every file's.
	files, last := 0, len(tl.Files)
	if b.File >= 0 {
		files, last = b.File, min(b.File+1, len(tl.Files))
	}
	for f := files; f < last; f++ {
		pair := cursorPair{end: ncol}
		for _, kind := range timeline.CursorKinds {
			cur := &tl.Cursors[2*f+int(kind)]
			env := &c.cols[1+2*f+int(kind)]
			env.reset(ncol)
			a, z := cur.Range(v.From, v.To)
			c.foldSeries(1+2*f+int(kind), env, &cur.Steps, c.cursorDesc[2*f+int(kind)], a, z, ends)
			mn, mx = min(mn, env.min), max(mx, env.max)
			col := ColorAware
			if kind == timeline.BookmarkIgnoring {
				col = ColorIgnoring
			}
			all = append(all, series{env, col, endCol(cur.End)})
			pair.env[kind] = env
			pair.end = min(pair.end, endCol(cur.End))
		}
		pairs = append(pairs, pair)
	}
	if mn > mx {
		fr.addText(layout.PlotX+8, b.Y+b.Height/2, "no resourceVersions in view", ColorMuted, "l", "")
		fr.flushTexts(len(fr.Texts) - 1)
		return 0, 0
	}
	pad := max((mx-mn)/10, 1)
	top, bot := mx+pad, mn-min(mn, pad)
	axis := rvBand{y0: b.Y, h: b.Height, top: top, bot: bot}
	// Shade between the two cursors, column by column, merging runs.
	var shade []float32
	for _, p := range pairs {
		aw, ig := p.env[timeline.BookmarkAware], p.env[timeline.BookmarkIgnoring]
		var va, vi uint64
		okA, okI := false, false
		runStart, runA, runI := -1, uint64(0), uint64(0)
		flush := func(end int) {
			if runStart >= 0 && runA != runI {
				y1, y2 := axis.y(max(runA, runI)), axis.y(min(runA, runI))
				shade = append(shade, float32(layout.PlotX+float64(runStart)), float32(y1), float32(end-runStart), float32(y2-y1))
			}
			runStart = -1
		}
		for col := 0; col < min(p.end, ncol); col++ {
			if aw.has[col] {
				va, okA = aw.last[col], !aw.breakAfter[col]
			}
			if ig.has[col] {
				vi, okI = ig.last[col], !ig.breakAfter[col]
			}
			if !okA || !okI {
				flush(col)
				continue
			}
			if runStart < 0 || va != runA || vi != runI {
				flush(col)
				runStart, runA, runI = col, va, vi
			}
		}
		flush(min(p.end, ncol))
	}
	fr.add(Op{Kind: "rect", Color: ColorIgnoring, Alpha: 0.18}, shade)
	// Widest first, so where the lines coincide (a cursor at the head, or
	// both cursors at one value) each still shows as a rim of its colour.
	for i, sr := range all {
		z := float32(1.5)
		switch {
		case sr.env == head:
			z = 5
		case i%2 == 1: // bookmark-aware, drawn under bookmark-ignoring
			z = 3
		}
		c.segs = sr.env.segments(c.segs[:0], layout.PlotX, sr.end, axis)
		alpha := float32(0)
		if sr.env == head {
			alpha = 0.45
		}
		fr.add(Op{Kind: "seg", Color: sr.color, Size: z, Alpha: alpha}, c.segs)
	}
	return top, bot
}

// cursorsAt reads the cursor strip at instant t. Off the shared clock
// it says that nothing was recorded there and, past its end, reads the
// cursors at its last instant, where their lines stop.
func (c *Cache) cursorsAt(t int64, band Band) string {
	switch c.offClock(t) {
	case -1:
		return c.beginsText()
	case 1:
		return c.endsText("the cursors") + "\n" + c.cursorsOnClock(c.end, band)
	}
	return c.cursorsOnClock(t, band)
}

// cursorsOnClock is cursorsAt at instant t of the shared clock.
func (c *Cache) cursorsOnClock(t int64, band Band) string {
	tl := c.tl
	var b strings.Builder
	b.WriteString("at " + c.FormatTime(t))
	if h, ok := tl.Head(t); ok {
		b.WriteString("\nhead ≈ RV " + strconv.FormatUint(h, 10))
	}
	for k := range tl.Cursors {
		cur := &tl.Cursors[k]
		if !inFile(band, cur.File) {
			continue
		}
		name := cur.Kind.String()
		if len(tl.Files) > 1 {
			name = tl.Files[cur.File].Name + " " + name
		}
		rv, since, _, ok := cur.At(t)
		if !ok {
			b.WriteString("\n" + name + ": no cursor")
			continue
		}
		b.WriteString("\n" + name + ": RV " + strconv.FormatUint(rv, 10) + ", last current " + timeline.FormatDuration(t-since) + " before")
	}
	return b.String()
}
