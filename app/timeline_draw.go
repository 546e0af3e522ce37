package app

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"unicode/utf8"

	"watchlens/parser"
	"watchlens/timeline"
)

// One frame of the timeline canvas as data: a list of drawing operations
// over one float32 buffer, built in Go and drawn by a single call into
// web/timeline.js (one Go->JS call per event would cost milliseconds per
// thousand marks; see browser-notes.md, "Batch drawing").

// tlOp is one batched drawing operation over buf[O:O+N] (or, for text,
// over Texts[O:O+N]).
//
//	rect:   x, y, w, h per rect, filled
//	mark:   cx, cy per mark, shape S of size Z
//	seg:    x1, y1, x2, y2 per segment, stroked with width Z, dashed if D
//	clip:   x, y, w, h; everything until unclip is clipped to it
//	text:   the texts
type tlOp struct {
	K string  `json:"k"`
	C string  `json:"c,omitempty"` // colour, or a CSS custom property ("--fg") the page defines
	S string  `json:"s,omitempty"`
	Z float32 `json:"z,omitempty"`
	A float32 `json:"a,omitempty"` // alpha; 0 means opaque
	D bool    `json:"d,omitempty"`
	O int     `json:"o"`
	N int     `json:"n"`
}

// tlText is one label; A is the alignment ("l", "r", "c"), F the font
// ("" regular, "b" bold) and M, when set, the most CSS px it may take.
type tlText struct {
	X float32 `json:"x"`
	Y float32 `json:"y"`
	S string  `json:"s"`
	C string  `json:"c"`
	A string  `json:"a,omitempty"`
	F string  `json:"f,omitempty"`
	M float32 `json:"m,omitempty"`
}

// tlFrame is what web/timeline.js draws; W and H are CSS pixels.
type tlFrame struct {
	W     float64  `json:"w"`
	H     float64  `json:"h"`
	DPR   float64  `json:"dpr"`
	Ops   []tlOp   `json:"ops"`
	Texts []tlText `json:"texts"`
	buf   []float32
}

func (f *tlFrame) reset(w, h, dpr float64) {
	f.W, f.H, f.DPR = w, h, dpr
	f.Ops, f.Texts, f.buf = f.Ops[:0], f.Texts[:0], f.buf[:0]
}

// add appends an operation over floats already collected elsewhere.
func (f *tlFrame) add(op tlOp, floats []float32) {
	if len(floats) == 0 {
		return
	}
	op.O, op.N = len(f.buf), len(floats)
	f.buf = append(f.buf, floats...)
	f.Ops = append(f.Ops, op)
}

func (f *tlFrame) rect(c string, alpha float32, x, y, w, h float64) {
	f.add(tlOp{K: "rect", C: c, A: alpha}, []float32{float32(x), float32(y), float32(w), float32(h)})
}

func (f *tlFrame) clip(x, y, w, h float64) {
	f.add(tlOp{K: "clip"}, []float32{float32(x), float32(y), float32(w), float32(h)})
}

func (f *tlFrame) unclip() { f.Ops = append(f.Ops, tlOp{K: "unclip"}) }

// flushTexts flushes the labels added since start as one text operation.
func (f *tlFrame) flushTexts(start int) {
	if len(f.Texts) > start {
		f.Ops = append(f.Ops, tlOp{K: "text", O: start, N: len(f.Texts) - start})
	}
}

func (f *tlFrame) text(x, y float64, s, c, align, font string) {
	f.Texts = append(f.Texts, tlText{X: float32(x), Y: float32(y), S: s, C: c, A: align, F: font})
}

// textWithin is text that web/timeline.js cuts, with an ellipsis, to at
// most w CSS px: a label from the capture is clipped to a number of
// characters, and wide characters still ran it off the canvas or over the
// plot; only the browser knows their width.
func (f *tlFrame) textWithin(x, y, w float64, s, c, align, font string) {
	f.text(x, y, s, c, align, font)
	f.Texts[len(f.Texts)-1].M = float32(w)
}

// Colours: Okabe-Ito, distinguishable with the common colour-vision
// deficiencies; every event type also has its own shape.
const (
	colAdded     = "#0072B2"
	colModified  = "#E69F00"
	colDeleted   = "#D55E00"
	colObserved  = "#8C8C8C"
	colListed    = "#56B4E9"
	colBookmark  = "#009E73"
	colError     = "#C00000"
	colZone      = "#E5172F"
	colAware     = "#0072B2"
	colIgnoring  = "#CC79A7"
	colHead      = "#8C8C8C"
	colSession   = "#56B4E9"
	colSelection = "#F0E442"
	colFg        = "--fg"
	colMuted     = "--muted"
	colGrid      = "--border"
	colPanel     = "--panel"
)

// markStyle is how one event type is drawn.
type markStyle struct {
	shape, color string
}

// markStyles is indexed by parser.EventType; bookmarks and errors have
// no lane (they have bands of their own), so no entry.
var markStyles = [...]markStyle{
	parser.TypeUnknown: {"square", colObserved},
	parser.Added:       {"tri", colAdded},
	parser.Modified:    {"dot", colModified},
	parser.Deleted:     {"cross", colDeleted},
	parser.Observed:    {"diamond", colObserved},
	parser.Listed:      {"ring", colListed},
}

// rvNone marks an event without a usable resourceVersion (the same
// sentinel the timeline uses for "no cursor").
const rvNone = math.MaxUint64

// laneEvents are one lane's events, decoded once from the timeline.
type laneEvents struct {
	t   []int64
	rv  []uint64
	typ []parser.EventType
	idx []int32
	// changes are the positions whose type differs from the one before.
	changes []int32
}

// bookmarkMark is a bookmark and the RV the client held before it, so its
// tooltip can say which RVs it vouches for.
type bookmarkMark struct {
	t, idx   int64
	rv, prev uint64 // prev is rvNone when unknown
}

type errorMark struct {
	t, idx int64
	y      uint64 // the lowest RV still accepted, rvNone when the message does not say
	msg    string
}

// laneCacheBudget bounds the decoded lane events kept between frames
// (17 bytes each): beyond it the lanes off screen are dropped.
const laneCacheBudget = 2_000_000

// drawCache holds what the frames of one timeline share: decoded lanes,
// the bookmark and error tracks, the axis extents.
type drawCache struct {
	tl        *timeline.Timeline
	lanes     map[int]*laneEvents
	cached    int
	bookmarks []bookmarkMark
	bmT, bmRV []int64 // positions for hit-testing, per axis
	errs      []errorMark
	errT      []int64
	// Whole-capture extents with a margin, so marks at the ends are not
	// cut in half by the plot's edge.
	timeLo, timeHi int64
	rvLo, rvHi     int64
	noClock        bool
	bins           *timeline.Bins
	scratch        [len(markStyles)][]float32
	segs           []float32
	rects          []float32      // scratch for the density band and the zones, reused frame after frame
	cols           []stepEnvelope // head, then each file's two cursors
	// Where the head and each cursor stop rising (see stepEnvelope.add).
	headDesc   []int32
	cursorDesc [][]int32
}

func newDrawCache(tl *timeline.Timeline) *drawCache {
	c := &drawCache{tl: tl, lanes: map[int]*laneEvents{}, noClock: len(tl.Files) > 0}
	for _, f := range tl.Files {
		if f.Clock != timeline.ClockNone {
			c.noClock = false
		}
	}
	lastRV := map[int]uint64{} // per session: the RV the stream last carried
	for _, e := range tl.Specials() {
		ev := tl.Event(int(e))
		switch ev.Type {
		case parser.Bookmark:
			prev, ok := lastRV[ev.Session]
			if !ok {
				prev = c.prevRV(ev)
			}
			rv := uint64(rvNone)
			if ev.RVValid {
				rv = ev.RVNum
				lastRV[ev.Session] = rv
			}
			c.bookmarks = append(c.bookmarks, bookmarkMark{t: ev.T, idx: int64(e), rv: rv, prev: prev})
			c.bmT = append(c.bmT, ev.T)
		case parser.Error:
			m := errorMark{t: ev.T, idx: int64(e), y: rvNone}
			if ev.Status != nil {
				m.msg = ev.Status.Message
				if ev.Status.TooOld {
					m.y = ev.Status.Y
				}
			}
			c.errs = append(c.errs, m)
			c.errT = append(c.errT, ev.T)
		}
	}
	for _, b := range c.bookmarks {
		if b.rv != rvNone {
			c.bmRV = append(c.bmRV, int64(b.rv))
		}
	}
	sort.Slice(c.bmRV, func(i, j int) bool { return c.bmRV[i] < c.bmRV[j] })
	c.headDesc = tl.HeadSteps().Descents()
	for k := range tl.Cursors {
		c.cursorDesc = append(c.cursorDesc, tl.Cursors[k].Descents())
	}
	start, end := tl.Start(), tl.End()+1
	m := max((end-start)/50, 1)
	c.timeLo, c.timeHi = start-m, end+m
	c.rvLo, c.rvHi = c.rvExtent()
	return c
}

// prevRV finds the RV the stream carried before a bookmark: the previous
// event of its session, else the resourceVersion its request resumed from.
func (c *drawCache) prevRV(bm timeline.Event) uint64 {
	tl := c.tl
	for j, steps := bm.Index-1, 0; j >= 0 && steps < 10_000; j, steps = j-1, steps+1 {
		p := tl.Point(j)
		if int(p.Session) == bm.Session && p.RVValid && p.Type != parser.Error {
			return p.RV
		}
	}
	if r := tl.Sessions[bm.Session].Request; r != nil {
		if v, err := strconv.ParseUint(r.ResourceVersion, 10, 64); err == nil && v > 0 {
			return v
		}
	}
	return rvNone
}

// rvExtent spans every RV the view can show: events, bookmarks, cursor
// values and the head (an error's Y raises it past the last event).
func (c *drawCache) rvExtent() (int64, int64) {
	tl := c.tl
	lo, hi := uint64(math.MaxUint64), uint64(0)
	see := func(v uint64) {
		if v != rvNone {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	// The least event RV, noted by Build: RVRange would sort every event
	// by RV to find it (100 ms as wasm over a million events).
	if rv, ok := tl.MinRV(); ok {
		see(rv)
	}
	for k := range tl.Cursors {
		if cur := &tl.Cursors[k]; cur.Len() > 0 {
			see(cur.RV(0))
		}
	}
	if h := tl.HeadSteps(); h.Len() > 0 {
		see(h.RV(h.Len() - 1))
	}
	if lo > hi {
		return 0, 1
	}
	m := max((hi-lo)/50, 1)
	return int64(lo - min(lo, m)), int64(hi + m + 1)
}

// lane returns lane l's events, decoding them on first use.
func (c *drawCache) lane(l int) *laneEvents {
	if le := c.lanes[l]; le != nil {
		return le
	}
	idx := c.tl.LaneEvents(l)
	le := &laneEvents{t: make([]int64, len(idx)), rv: make([]uint64, len(idx)), typ: make([]parser.EventType, len(idx)), idx: idx}
	for k, i := range idx {
		p := c.tl.Point(int(i))
		le.t[k], le.typ[k], le.rv[k] = p.T, p.Type, rvNone
		if p.RVValid {
			le.rv[k] = p.RV
		}
		if k > 0 && le.typ[k] != le.typ[k-1] {
			le.changes = append(le.changes, int32(k))
		}
	}
	c.lanes[l] = le
	c.cached += len(idx)
	return le
}

// trim drops decoded lanes that are not on screen once the cache holds
// more than its budget.
func (c *drawCache) trim(visible map[int]bool) {
	if c.cached <= laneCacheBudget {
		return
	}
	for l, le := range c.lanes {
		if !visible[l] {
			c.cached -= len(le.t)
			delete(c.lanes, l)
		}
	}
}

// extent is the axis' whole range.
func (c *drawCache) extent(axisRV bool) (int64, int64) {
	if axisRV {
		return c.rvLo, c.rvHi
	}
	return c.timeLo, c.timeHi
}

// tlView is everything one frame depends on.
type tlView struct {
	an        *timeline.Analysis
	filter    Filter
	axisRV    bool
	from, to  int64
	width     float64
	dpr       float64
	groups    []laneGroup
	rows      []tlRow
	scrollY   float64
	selected  int
	selecting bool
	selA      float64 // pixel x of a shift-drag's ends
	selB      float64
}

func (v *tlView) scale(lo *tlLayout) tlScale {
	return tlScale{from: v.from, to: v.to, x0: lo.plotX, w: lo.plotW}
}

// build fills fr with one frame of the view.
func (c *drawCache) build(v *tlView, fr *tlFrame) tlLayout {
	lo := newTLLayout(v.width, len(v.rows), v.axisRV)
	fr.reset(lo.w, lo.h, v.dpr)
	s := v.scale(&lo)
	plotBottom := lo.lanesY + max(lo.lanesH, rowH)

	// Band backgrounds and labels.
	t0 := len(fr.Texts)
	for _, b := range lo.bands[1:] {
		fr.rect(colGrid, 0.25, lo.plotX, b.y, lo.plotW, b.h)
		fr.text(lo.plotX-8, b.y+b.h/2, b.label, colMuted, "r", "")
	}
	fr.flushTexts(t0)

	// Ticks: grid lines over every band, labels in the axis band.
	var ticks []tlTick
	if v.axisRV || c.noClock {
		ticks = numberTicks(s)
	} else {
		ticks = timeTicks(s)
	}
	c.segs = c.segs[:0]
	t0 = len(fr.Texts)
	for _, tk := range ticks {
		x := math.Round(s.x(tk.v)) + 0.5
		c.segs = append(c.segs, float32(x), float32(axisH-6), float32(x), float32(plotBottom))
		fr.text(x, axisH/2-2, tk.label, colMuted, "c", "")
	}
	fr.add(tlOp{K: "seg", C: colGrid, Z: 1}, c.segs)
	fr.flushTexts(t0)

	fr.clip(lo.plotX, 0, lo.plotW, lo.h)
	c.density(v, &lo, fr)
	c.sessions(v, &lo, s, fr)
	c.bookmarkTrack(v, &lo, s, fr)
	c.zoneBands(v, &lo, s, fr)
	c.errorMarks(v, &lo, s, fr)
	var rvTop, rvBot uint64
	if !v.axisRV {
		rvTop, rvBot = c.cursorStrip(v, &lo, s, fr)
	}
	fr.unclip()
	if rvTop > rvBot {
		// The strip's RV scale, in the gutter beside it.
		b, _ := lo.band(bandCursors)
		t0 := len(fr.Texts)
		fr.text(lo.plotX-8, b.y+7, strconv.FormatUint(rvTop, 10), colMuted, "r", "")
		fr.text(lo.plotX-8, b.y+b.h-7, strconv.FormatUint(rvBot, 10), colMuted, "r", "")
		fr.flushTexts(t0)
	}

	c.laneRows(v, &lo, s, fr)

	if v.selecting {
		a, b := min(v.selA, v.selB), max(v.selA, v.selB)
		fr.rect(colSession, 0.25, a, axisH, b-a, plotBottom-axisH)
	}
	return lo
}

// axisPos is an event's place on the axis (ok false when it has none there).
func axisPos(axisRV bool, t int64, rv uint64) (int64, bool) {
	if axisRV {
		return int64(rv), rv != rvNone
	}
	return t, true
}

// density draws how many events fall in each pixel column, on a log
// scale, from the timeline's binned counts: where the activity is, even
// in lanes scrolled out of sight.
func (c *drawCache) density(v *tlView, lo *tlLayout, fr *tlFrame) {
	b, _ := lo.band(bandDensity)
	q := timeline.BinQuery{From: v.from, To: v.to, Columns: max(int(lo.plotW), 1), File: -1}
	if v.axisRV {
		q.Axis = timeline.AxisRV
	}
	c.bins = c.tl.Bins(q, c.bins)
	var peak uint32
	for _, n := range c.bins.Objects {
		peak = max(peak, n)
	}
	if peak == 0 {
		return
	}
	scale := (b.h - 2) / math.Log1p(float64(peak))
	rects := c.rects[:0]
	for col, n := range c.bins.Objects {
		if n == 0 {
			continue
		}
		h := max(math.Log1p(float64(n))*scale, 1.5)
		rects = append(rects, float32(lo.plotX+float64(col)), float32(b.y+b.h-1-h), 1, float32(h))
	}
	fr.add(tlOp{K: "rect", C: colMuted, A: 0.7}, rects)
	c.rects = rects
}

// sessions draws each watch connection as a bar and each reconnect gap
// (from a session's end to the next one's start in the same file) as a
// notch at least 3 px wide, so a sub-second reconnect stays visible;
// dashed boundaries run down through the lanes.
func (c *drawCache) sessions(v *tlView, lo *tlLayout, s tlScale, fr *tlFrame) {
	b, _ := lo.band(bandSessions)
	var bars, gaps, bounds []float32
	bottom := lo.lanesY + lo.lanesH
	for _, ss := range c.tl.Sessions {
		from, to := ss.Start, ss.End
		if v.axisRV {
			a, okA := parseRVText(ss.FirstRV)
			z, okZ := parseRVText(ss.LastRV)
			if !okA || !okZ {
				continue
			}
			from, to = int64(a), int64(z)+1
		} else if ss.Gap >= 0 && ss.Start > v.from && ss.Start-ss.Gap < v.to {
			x1, x2 := s.xc(ss.Start-ss.Gap), s.xc(ss.Start)
			w := max(x2-x1, 3)
			gaps = append(gaps, float32(x2-w), float32(b.y+1), float32(w), float32(b.h-2))
		}
		if to < v.from || from > v.to {
			continue
		}
		x1, x2 := s.xc(from), s.xc(to)
		bars = append(bars, float32(x1), float32(b.y+3), float32(max(x2-x1, 1.5)), float32(b.h-6))
		for _, x := range []float64{x1, x2} {
			if x >= s.x0 && x <= s.x0+s.w {
				bounds = append(bounds, float32(x), float32(b.y), float32(x), float32(bottom))
			}
		}
	}
	fr.add(tlOp{K: "rect", C: colSession, A: 0.7}, bars)
	fr.add(tlOp{K: "rect", C: colDeleted, A: 0.8}, gaps)
	fr.add(tlOp{K: "seg", C: colMuted, Z: 1, D: true, A: 0.6}, bounds)
}

func parseRVText(s string) (uint64, bool) {
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// bookmarkTrack draws a tick per bookmark; ticks within a pixel merge.
func (c *drawCache) bookmarkTrack(v *tlView, lo *tlLayout, s tlScale, fr *tlFrame) {
	if !v.filter.Event(parser.Bookmark) {
		return
	}
	b, _ := lo.band(bandBookmarks)
	var segs []float32
	last := math.Inf(-1)
	xs := c.bmT
	if v.axisRV {
		xs = c.bmRV
	}
	for k := sort.Search(len(xs), func(i int) bool { return xs[i] >= v.from }); k < len(xs) && xs[k] < v.to; k++ {
		x := s.x(xs[k])
		if x-last < 1 {
			continue
		}
		last = x
		segs = append(segs, float32(x), float32(b.y+2), float32(x), float32(b.y+b.h-2))
	}
	fr.add(tlOp{K: "seg", C: colBookmark, Z: 2}, segs)
}

// zoneBands draws the red zones of each cursor kind in its band.
func (c *drawCache) zoneBands(v *tlView, lo *tlLayout, s tlScale, fr *tlFrame) {
	if v.an == nil {
		return
	}
	for _, kind := range timeline.CursorKinds {
		id := bandZoneAware
		if kind == timeline.BookmarkIgnoring {
			id = bandZoneIgnoring
		}
		b, _ := lo.band(id)
		rects := c.rects[:0]
		for _, z := range v.an.Zones {
			if z.Kind != kind {
				continue
			}
			from, to := z.From, z.To
			if v.axisRV {
				from, to = int64(z.FromRV), int64(z.ToRV)+1
			}
			if to <= v.from || from >= v.to {
				continue
			}
			x1, x2 := s.xc(from), s.xc(to)
			rects = append(rects, float32(x1), float32(b.y+1), float32(max(x2-x1, 3)), float32(b.h-2))
		}
		fr.add(tlOp{K: "rect", C: colZone, A: 0.55}, rects)
		c.rects = rects
	}
}

// errorMarks puts a marker on every observed ERROR above the sessions and
// a line down through the zone bands. On the RV axis an error sits at the
// lowest RV it says is still accepted.
func (c *drawCache) errorMarks(v *tlView, lo *tlLayout, s tlScale, fr *tlFrame) {
	if !v.filter.Event(parser.Error) {
		return
	}
	b, _ := lo.band(bandSessions)
	zb, _ := lo.band(bandZoneIgnoring)
	var marks, lines []float32
	for _, e := range c.errs {
		p, ok := axisPos(v.axisRV, e.t, e.y)
		if !ok || p < v.from || p >= v.to {
			continue
		}
		x := s.x(p)
		marks = append(marks, float32(x), float32(b.y+b.h/2))
		lines = append(lines, float32(x), float32(b.y+b.h/2), float32(x), float32(zb.y+zb.h))
	}
	fr.add(tlOp{K: "seg", C: colError, Z: 1.5}, lines)
	fr.add(tlOp{K: "mark", S: "tridown", C: colError, Z: markSize + 3}, marks)
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
	T(k int) int64
	RV(k int) uint64
	SearchT(lo, hi int, t int64) int
}

// add folds the steps [from, to) of st into the columns. A column
// holding a stretch that only rises (no entry of desc inside it) is
// folded from its two ends, found by a search over the instants, so a
// whole-capture view of a million steps costs a search per column, not a
// million steps.
func (e *stepEnvelope) add(st stepSeries, desc []int32, from, to int, s tlScale) {
	n := len(e.has)
	prev, havePrev, prevCol := uint64(0), false, -1
	fold := func(col int, val uint64) {
		if val == rvNone {
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
	for k := from; k < to; {
		col := s.colOf(st.T(k), n)
		// Zoomed in, the next step is mostly in another column already.
		end := k + 1
		if end < to && s.colOf(st.T(end), n) == col {
			// The search compares instants with the column's end, found
			// once: mapping every instant it read to its column was a fifth
			// of a pan frame's drawing as wasm.
			end = st.SearchT(end+1, to, s.columnEnd(col, n))
		}
		d, _ := slices.BinarySearch(desc, int32(k+1)) // the first descent after k
		if v := st.RV(k); v != rvNone && (d == len(desc) || int(desc[d]) >= end) {
			fold(col, v)
			fold(col, st.RV(end-1))
		} else {
			for j := k; j < end; j++ {
				fold(col, st.RV(j))
			}
		}
		k = end
	}
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
func (c *drawCache) cursorStrip(v *tlView, lo *tlLayout, s tlScale, fr *tlFrame) (uint64, uint64) {
	b, _ := lo.band(bandCursors)
	tl := c.tl
	ncol := int(math.Ceil(lo.plotW))
	endCol := func(end int64) int { return int(math.Ceil(s.xc(end) - s.x0)) }
	if want := 1 + len(tl.Cursors); len(c.cols) < want {
		c.cols = make([]stepEnvelope, want)
	}
	head := &c.cols[0]
	head.reset(ncol)
	hlo, hhi := tl.HeadRange(v.from, v.to)
	head.add(tl.HeadSteps(), c.headDesc, hlo, hhi, s)
	type series struct {
		env   *stepEnvelope
		color string
		end   int
	}
	all := []series{{head, colHead, endCol(tl.End())}}
	mn, mx := head.min, head.max
	var pairs [][2]*stepEnvelope
	for f := range tl.Files {
		var pair [2]*stepEnvelope
		for _, kind := range timeline.CursorKinds {
			cur := &tl.Cursors[2*f+int(kind)]
			env := &c.cols[1+2*f+int(kind)]
			env.reset(ncol)
			a, z := cur.Range(v.from, v.to)
			env.add(&cur.Steps, c.cursorDesc[2*f+int(kind)], a, z, s)
			mn, mx = min(mn, env.min), max(mx, env.max)
			col := colAware
			if kind == timeline.BookmarkIgnoring {
				col = colIgnoring
			}
			all = append(all, series{env, col, endCol(cur.End)})
			pair[kind] = env
		}
		pairs = append(pairs, pair)
	}
	if mn > mx {
		fr.text(lo.plotX+8, b.y+b.h/2, "no resourceVersions in view", colMuted, "l", "")
		fr.flushTexts(len(fr.Texts) - 1)
		return 0, 0
	}
	pad := max((mx-mn)/10, 1)
	top, bot := mx+pad, mn-min(mn, pad)
	axis := rvBand{y0: b.y, h: b.h, top: top, bot: bot}
	// Shade between the two cursors, column by column, merging runs.
	var shade []float32
	for _, p := range pairs {
		aw, ig := p[timeline.BookmarkAware], p[timeline.BookmarkIgnoring]
		var va, vi uint64
		okA, okI := false, false
		runStart, runA, runI := -1, uint64(0), uint64(0)
		flush := func(end int) {
			if runStart >= 0 && runA != runI {
				y1, y2 := axis.y(max(runA, runI)), axis.y(min(runA, runI))
				shade = append(shade, float32(lo.plotX+float64(runStart)), float32(y1), float32(end-runStart), float32(y2-y1))
			}
			runStart = -1
		}
		for col := 0; col < ncol; col++ {
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
		flush(ncol)
	}
	fr.add(tlOp{K: "rect", C: colIgnoring, A: 0.18}, shade)
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
		c.segs = sr.env.segments(c.segs[:0], lo.plotX, sr.end, axis)
		alpha := float32(0)
		if sr.env == head {
			alpha = 0.45
		}
		fr.add(tlOp{K: "seg", C: sr.color, Z: z, A: alpha}, c.segs)
	}
	return top, bot
}

// laneRows draws the visible rows of the lane area: group headers, and
// per lane its lifetime and its events' marks, one batch per event type.
// Events closer than 60% of a mark share marks (one per type), so a frame
// holds a few marks per mark width per row, whatever the zoom.
func (c *drawCache) laneRows(v *tlView, lo *tlLayout, s tlScale, fr *tlFrame) {
	if len(v.rows) == 0 {
		t0 := len(fr.Texts)
		fr.text(lo.plotX+8, lo.lanesY+rowH/2, "no objects match the filter", colMuted, "l", "")
		fr.flushTexts(t0)
		return
	}
	first := int(v.scrollY / rowH)
	last := min(len(v.rows), int((v.scrollY+lo.lanesH)/rowH)+1)
	for k := range c.scratch {
		c.scratch[k] = c.scratch[k][:0]
	}
	var stripes, headers, life []float32
	visible := map[int]bool{}
	t0 := len(fr.Texts)
	fr.clip(0, lo.lanesY, lo.w, lo.lanesH)
	minGap := markSize * 0.6
	for r := first; r < last; r++ {
		rw := v.rows[r]
		y := lo.lanesY + float64(r)*rowH - v.scrollY
		cy := float32(y + rowH/2)
		g := &v.groups[rw.group]
		if rw.lane < 0 {
			headers = append(headers, 0, float32(y), float32(lo.w), rowH)
			arrow := "▾ "
			if g.collapsed {
				arrow = "▸ "
			}
			fr.textWithin(4, y+rowH/2, lo.w-8, arrow+g.label(c.tl), colFg, "l", "b")
			continue
		}
		if r%2 == 0 {
			stripes = append(stripes, float32(lo.plotX), float32(y), float32(lo.plotW), rowH)
		}
		ln := &c.tl.Lanes[rw.lane]
		fr.textWithin(lo.plotX-8, y+rowH/2, lo.plotX-12, clipRunes(visibleControls(ln.Name), 26), colFg, "r", "")
		visible[rw.lane] = true
		le := c.lane(rw.lane)
		if first, last := c.tl.LaneSpan(rw.lane); !v.axisRV && last >= v.from && first < v.to {
			life = append(life, float32(s.xc(first)), cy, float32(s.xc(last)), cy)
		}
		if v.axisRV {
			c.laneMarksRV(v, le, s, cy, minGap)
		} else {
			c.laneMarksTime(v, le, s, cy, minGap)
		}
	}
	fr.add(tlOp{K: "rect", C: colGrid, A: 0.18}, stripes)
	fr.add(tlOp{K: "rect", C: colGrid, A: 0.45}, headers)
	fr.add(tlOp{K: "seg", C: colMuted, Z: 1, A: 0.35}, life)
	for typ, marks := range c.scratch {
		if st := markStyles[typ]; st.shape != "" {
			fr.add(tlOp{K: "mark", S: st.shape, C: st.color, Z: markSize}, marks)
		}
	}
	c.selection(v, lo, s, fr, first, last)
	if lo.contentH > lo.lanesH {
		// A scroll thumb: there are more rows than the lane area shows.
		h := max(lo.lanesH*lo.lanesH/lo.contentH, 12)
		top := lo.lanesY + v.scrollY/(lo.contentH-lo.lanesH)*(lo.lanesH-h)
		fr.rect(colMuted, 0.5, lo.w-7, top, 4, h)
	}
	fr.flushTexts(t0)
	fr.unclip()
	c.trim(visible)
}

// laneMarksTime puts a lane's marks on the time axis bucket by bucket: a
// bucket holds the events within minGap of its first one and gets one
// mark per type present, at that type's first event. Its end is found by
// galloping over the times and the types present from the lane's type
// changes, so a lane of a million events costs a few searches per bucket.
func (c *drawCache) laneMarksTime(v *tlView, le *laneEvents, s tlScale, cy float32, minGap float64) {
	n := len(le.t)
	k := sort.Search(n, func(i int) bool { return le.t[i] >= v.from })
	ci := sort.Search(len(le.changes), func(i int) bool { return int(le.changes[i]) > k })
	for k < n && le.t[k] < v.to {
		x := s.x(le.t[k])
		bound := s.at(x + minGap)
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
			if int(typ) < len(c.scratch) && v.filter.Event(typ) {
				c.scratch[typ] = append(c.scratch[typ], float32(s.x(le.t[i])), cy)
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

// laneMarksRV puts a lane's marks on the RV axis. A lane's events are in
// time order, which is not quite RV order, so it walks them all, merging
// marks of a type closer than minGap.
func (c *drawCache) laneMarksRV(v *tlView, le *laneEvents, s tlScale, cy float32, minGap float64) {
	var lastX [len(markStyles)]float64
	for i := range lastX {
		lastX[i] = math.Inf(-1)
	}
	for k, rv := range le.rv {
		typ := le.typ[k]
		p := int64(rv)
		if rv == rvNone || p < v.from || p >= v.to || int(typ) >= len(lastX) || !v.filter.Event(typ) {
			continue
		}
		x := s.x(p)
		if math.Abs(x-lastX[typ]) < minGap {
			continue
		}
		lastX[typ] = x
		c.scratch[typ] = append(c.scratch[typ], float32(x), cy)
	}
}

// selection rings the selected event when its lane is on screen and draws
// a line at its place across the whole plot.
func (c *drawCache) selection(v *tlView, lo *tlLayout, s tlScale, fr *tlFrame, first, last int) {
	if v.selected < 0 || v.selected >= c.tl.Len() {
		return
	}
	ev := c.tl.Event(v.selected)
	p, ok := axisPos(v.axisRV, ev.T, ev.RVNum)
	if !ok || !ev.RVValid && v.axisRV || p < v.from || p >= v.to {
		return
	}
	x := s.x(p)
	fr.add(tlOp{K: "seg", C: colFg, Z: 1, A: 0.5}, []float32{float32(x), axisH, float32(x), float32(lo.lanesY + lo.lanesH)})
	for r := first; r < last; r++ {
		if v.rows[r].lane == ev.Lane && ev.Lane >= 0 {
			y := lo.lanesY + float64(r)*rowH - v.scrollY + rowH/2
			fr.add(tlOp{K: "mark", S: "ring", C: colFg, Z: markSize + 6}, []float32{float32(x), float32(y)})
		}
	}
}

// clipRunes shortens s to n runes with an ellipsis.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
