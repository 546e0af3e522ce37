package canvas

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"watchlens/app/words"
	"watchlens/parser"
	"watchlens/timeline"
)

// One frame of the timeline canvas as data: a list of drawing operations
// over one float32 buffer, built in Go and drawn by a single call into
// web/timeline.js (one Go->JS call per event would cost milliseconds per
// thousand marks; see browser-notes.md, "Batch drawing").

// Op is one batched drawing operation over the frame's coordinates
// [Offset, Offset+Count) (or, for text, over Texts[Offset:Offset+Count]).
// The JSON names are short: web/timeline.js reads them every frame.
//
//	rect:   x, y, w, h per rect, filled
//	mark:   cx, cy per mark, shape Shape of size Size
//	seg:    x1, y1, x2, y2 per segment, stroked with width Size, dashed if Dashed
//	clip:   x, y, w, h; everything until unclip is clipped to it
//	text:   the texts
type Op struct {
	Kind   string  `json:"k"`
	Color  string  `json:"c,omitempty"` // colour, or a CSS custom property ("--fg") the page defines
	Shape  string  `json:"s,omitempty"`
	Size   float32 `json:"z,omitempty"`
	Alpha  float32 `json:"a,omitempty"` // alpha; 0 means opaque
	Dashed bool    `json:"d,omitempty"`
	Offset int     `json:"o"`
	Count  int     `json:"n"`
}

// Text is one label at (X, Y); Align is the alignment ("l", "r", "c"),
// Font the font ("" regular, "b" bold) and MaxWidth, when set, the most
// CSS px it may take.
type Text struct {
	X        float32 `json:"x"`
	Y        float32 `json:"y"`
	Text     string  `json:"s"`
	Color    string  `json:"c"`
	Align    string  `json:"a,omitempty"`
	Font     string  `json:"f,omitempty"`
	MaxWidth float32 `json:"m,omitempty"`
}

// Frame is what web/timeline.js draws; Width and Height are CSS pixels.
type Frame struct {
	Width      float64 `json:"w"`
	Height     float64 `json:"h"`
	PixelRatio float64 `json:"dpr"`
	Ops        []Op    `json:"ops"`
	Texts      []Text  `json:"texts"`
	floats     []float32
}

// Spec is the frame's operations and texts as the JSON web/timeline.js
// reads.
func (f *Frame) Spec() ([]byte, error) { return json.Marshal(f) }

// Floats writes the frame's coordinates as the little-endian float32s of
// the Float32Array web/timeline.js reads into buf, grown when it is too
// small, and returns them and their count.
func (f *Frame) Floats(buf []byte) ([]byte, int) {
	n := len(f.floats)
	if cap(buf) < 4*n {
		buf = make([]byte, 4*n+4*n/4)
	}
	b := buf[:4*n]
	for i, v := range f.floats {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b, n
}

func (f *Frame) reset(w, h, dpr float64) {
	f.Width, f.Height, f.PixelRatio = w, h, dpr
	f.Ops, f.Texts, f.floats = f.Ops[:0], f.Texts[:0], f.floats[:0]
}

// add appends an operation over floats already collected elsewhere.
func (f *Frame) add(op Op, floats []float32) {
	if len(floats) == 0 {
		return
	}
	op.Offset, op.Count = len(f.floats), len(floats)
	f.floats = append(f.floats, floats...)
	f.Ops = append(f.Ops, op)
}

func (f *Frame) rect(c string, alpha float32, x, y, w, h float64) {
	f.add(Op{Kind: "rect", Color: c, Alpha: alpha}, []float32{float32(x), float32(y), float32(w), float32(h)})
}

func (f *Frame) clip(x, y, w, h float64) {
	f.add(Op{Kind: "clip"}, []float32{float32(x), float32(y), float32(w), float32(h)})
}

func (f *Frame) unclip() { f.Ops = append(f.Ops, Op{Kind: "unclip"}) }

// flushTexts flushes the labels added since start as one text operation.
func (f *Frame) flushTexts(start int) {
	if len(f.Texts) > start {
		f.Ops = append(f.Ops, Op{Kind: "text", Offset: start, Count: len(f.Texts) - start})
	}
}

func (f *Frame) addText(x, y float64, s, c, align, font string) {
	f.Texts = append(f.Texts, Text{X: float32(x), Y: float32(y), Text: s, Color: c, Align: align, Font: font})
}

// addTextWithin is addText with a text that web/timeline.js cuts, with an ellipsis, to at
// most w CSS px: a label from the capture is clipped to a number of
// characters, and wide characters still ran it off the canvas or over the
// plot; only the browser knows their width.
func (f *Frame) addTextWithin(x, y, w float64, s, c, align, font string) {
	f.addText(x, y, s, c, align, font)
	f.Texts[len(f.Texts)-1].MaxWidth = float32(w)
}

// Colours: Okabe-Ito, distinguishable with the common colour-vision
// deficiencies; every event type also has its own shape.
const (
	ColorAdded    = "#0072B2"
	ColorModified = "#E69F00"
	ColorDeleted  = "#D55E00"
	ColorObserved = "#8C8C8C"
	ColorBookmark = "#009E73"
	ColorError    = "#C00000"
	ColorZone     = "#E5172F"
	// A refused zone is drawn at zoneAlpha, an at-risk one at
	// zoneRiskAlpha: apart by lightness, which every eye tells.
	zoneAlpha      = 0.55
	zoneRiskAlpha  = 0.18
	ColorAware     = "#0072B2"
	ColorIgnoring  = "#CC79A7"
	ColorHead      = "#8C8C8C"
	ColorSession   = "#56B4E9"
	ColorSelection = "#F0E442"
	ColorFg        = "--fg"
	ColorMuted     = "--muted"
	ColorGrid      = "--border"
	ColorPanel     = "--panel"
)

// markStyle is how one event type is drawn.
type markStyle struct {
	shape, color string
}

// markStyles is indexed by parser.EventType; bookmarks and errors have
// no lane (they have bands of their own), so no entry.
var markStyles = [...]markStyle{
	parser.TypeUnknown: {"square", ColorObserved},
	parser.Added:       {"tri", ColorAdded},
	parser.Modified:    {"dot", ColorModified},
	parser.Deleted:     {"cross", ColorDeleted},
	parser.Observed:    {"diamond", ColorObserved},
}

// decodedLane are one lane's events, decoded once from the timeline.
type decodedLane struct {
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
	rv, prev uint64 // prev is timeline.NoRV when unknown
}

type errorMark struct {
	t, idx int64
	y      uint64 // the lowest RV still accepted, timeline.NoRV when the message does not say
	msg    string
}

// laneCacheBudget bounds the decoded lane events kept between frames
// (17 bytes each): beyond it the lanes off screen are dropped.
const laneCacheBudget = 2_000_000

// Cache holds what the frames of one timeline share: decoded lanes,
// the bookmark and error tracks, the axis extents.
type Cache struct {
	tl        *timeline.Timeline
	lanes     map[int]*decodedLane
	cached    int
	bookmarks []bookmarkMark
	bmT, bmRV []int64 // positions for hit-testing, per axis
	errs      []errorMark
	// Whole-capture extents with a margin, so marks at the ends are not
	// cut in half by the plot's edge.
	timeLo, timeHi int64
	rvLo, rvHi     int64
	noClock        bool
	bins           *timeline.Bins
	scratch        [parser.Observed + 1][]float32
	segs           []float32
	rects          []float32      // scratch for the density band and the zones, reused frame after frame
	cols           []stepEnvelope // head, then each file's two cursors
	// Where the head and each cursor stop rising (see stepEnvelope.add).
	headDesc   []int32
	cursorDesc [][]int32
}

func NewCache(tl *timeline.Timeline) *Cache {
	c := &Cache{tl: tl, lanes: map[int]*decodedLane{}, noClock: len(tl.Files) > 0}
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
			rv := timeline.NoRV
			if ev.RVValid {
				rv = ev.RVNum
				lastRV[ev.Session] = rv
			}
			c.bookmarks = append(c.bookmarks, bookmarkMark{t: ev.T, idx: int64(e), rv: rv, prev: prev})
			c.bmT = append(c.bmT, ev.T)
		case parser.Error:
			m := errorMark{t: ev.T, idx: int64(e), y: timeline.NoRV}
			if ev.Status != nil {
				m.msg = ev.Status.Message
				if ev.Status.TooOld {
					m.y = ev.Status.Y
				}
			}
			c.errs = append(c.errs, m)
		}
	}
	// A response that is a Status (a LIST's 410 Gone, a 504) is an error
	// the server sent as much as an in-stream ERROR is: it has no event to
	// select, only its session.
	for _, ss := range tl.Sessions {
		if st := ss.Status; st != nil {
			m := errorMark{t: ss.Start, idx: -1, y: timeline.NoRV, msg: st.Message}
			if st.TooOld {
				m.y = st.Y
			}
			c.errs = append(c.errs, m)
		}
	}
	sort.SliceStable(c.errs, func(i, j int) bool { return c.errs[i].t < c.errs[j].t })
	for _, b := range c.bookmarks {
		if b.rv != timeline.NoRV {
			c.bmRV = append(c.bmRV, int64(b.rv))
		}
	}
	sort.Slice(c.bmRV, func(i, j int) bool { return c.bmRV[i] < c.bmRV[j] })
	c.headDesc = tl.HeadSteps().Descents()
	for k := range tl.Cursors {
		c.cursorDesc = append(c.cursorDesc, tl.Cursors[k].Descents())
	}
	// The margin is at least a second on a clock, so that a capture of
	// one instant (a single LIST answered 410) spans seconds, not
	// nanoseconds.
	start, end := tl.Start(), tl.End()+1
	m := max((end-start)/50, 1)
	if !c.noClock {
		m = max(m, int64(time.Second))
	}
	c.timeLo, c.timeHi = start-m, end+m
	c.rvLo, c.rvHi = c.rvExtent()
	return c
}

// Timeline is the timeline the cache draws.
func (c *Cache) Timeline() *timeline.Timeline { return c.tl }

// NoClock says whether no file of the timeline has a clock: its instants
// are then event ordinals.
func (c *Cache) NoClock() bool { return c.noClock }

// prevRV finds the RV the stream carried before a bookmark: the previous
// event of its session, else the resourceVersion its request resumed from.
func (c *Cache) prevRV(bm timeline.Event) uint64 {
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
	return timeline.NoRV
}

// rvExtent spans every RV the view can show: events, bookmarks, cursor
// values and the head (an error's Y raises it past the last event).
func (c *Cache) rvExtent() (int64, int64) {
	tl := c.tl
	lo, hi := uint64(math.MaxUint64), uint64(0)
	see := func(v uint64) {
		if v != timeline.NoRV {
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
func (c *Cache) lane(l int) *decodedLane {
	if le := c.lanes[l]; le != nil {
		return le
	}
	idx := c.tl.LaneEvents(l)
	le := &decodedLane{t: make([]int64, len(idx)), rv: make([]uint64, len(idx)), typ: make([]parser.EventType, len(idx)), idx: idx}
	for k, i := range idx {
		p := c.tl.Point(int(i))
		le.t[k], le.typ[k], le.rv[k] = p.T, p.Type, timeline.NoRV
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
func (c *Cache) trim(visible map[int]bool) {
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

// Extent is the axis' whole range.
func (c *Cache) Extent(axisRV bool) (int64, int64) {
	if axisRV {
		return c.rvLo, c.rvHi
	}
	return c.timeLo, c.timeHi
}

// View is everything one frame depends on.
type View struct {
	Analysis   *timeline.Analysis
	Filter     timeline.Filter
	AxisRV     bool
	From, To   int64
	Width      float64
	PixelRatio float64
	Groups     []Group
	Rows       []Row
	ScrollY    float64
	Selected   int
	Selecting  bool
	SelectFrom float64 // pixel x of a shift-drag's ends
	SelectTo   float64
}

// PlotScale maps the view's range onto the layout's plot.
func (v *View) PlotScale(layout *Layout) Scale {
	return Scale{From: v.From, To: v.To, X0: layout.PlotX, Width: layout.PlotW}
}

// Build fills fr with one frame of the view.
func (c *Cache) Build(v *View, fr *Frame) Layout {
	layout := NewLayout(v.Width, len(v.Rows), v.AxisRV, HasHad(v.Analysis))
	fr.reset(layout.Width, layout.Height, v.PixelRatio)
	s := v.PlotScale(&layout)
	plotBottom := layout.LanesY + max(layout.LanesH, RowHeight)

	// Band backgrounds and labels.
	t0 := len(fr.Texts)
	for _, b := range layout.Bands[1:] {
		fr.rect(ColorGrid, 0.25, layout.PlotX, b.Y, layout.PlotW, b.Height)
		fr.addText(layout.PlotX-8, b.Y+b.Height/2, b.Label, ColorMuted, "r", "")
	}
	fr.flushTexts(t0)

	// Ticks: grid lines over every band, labels in the axis band.
	var ticks []Tick
	if v.AxisRV || c.noClock {
		ticks = numberTicks(s)
	} else {
		ticks = timeTicks(s)
	}
	c.segs = c.segs[:0]
	t0 = len(fr.Texts)
	for _, tk := range ticks {
		x := math.Round(s.X(tk.Value)) + 0.5
		c.segs = append(c.segs, float32(x), float32(axisH-6), float32(x), float32(plotBottom))
		fr.addText(x, axisH/2-2, tk.Label, ColorMuted, "c", "")
	}
	fr.add(Op{Kind: "seg", Color: ColorGrid, Size: 1}, c.segs)
	fr.flushTexts(t0)

	fr.clip(layout.PlotX, 0, layout.PlotW, layout.Height)
	c.density(v, &layout, fr)
	c.sessions(v, &layout, s, fr)
	c.bookmarkTrack(v, &layout, s, fr)
	c.zoneBands(v, &layout, s, fr)
	c.errorMarks(v, &layout, s, fr)
	var rvTop, rvBot uint64
	if !v.AxisRV {
		rvTop, rvBot = c.cursorStrip(v, &layout, s, fr)
	}
	fr.unclip()
	if rvTop > rvBot {
		// The strip's RV scale, in the gutter beside it.
		b, _ := layout.bandByID(BandCursors)
		t0 := len(fr.Texts)
		fr.addText(layout.PlotX-8, b.Y+7, strconv.FormatUint(rvTop, 10), ColorMuted, "r", "")
		fr.addText(layout.PlotX-8, b.Y+b.Height-7, strconv.FormatUint(rvBot, 10), ColorMuted, "r", "")
		fr.flushTexts(t0)
	}

	c.laneRows(v, &layout, s, fr)

	if v.Selecting {
		a, b := min(v.SelectFrom, v.SelectTo), max(v.SelectFrom, v.SelectTo)
		fr.rect(ColorSession, 0.25, a, axisH, b-a, plotBottom-axisH)
	}
	return layout
}

// axisPos is an event's place on the axis (ok false when it has none there).
func axisPos(axisRV bool, t int64, rv uint64) (int64, bool) {
	if axisRV {
		return int64(rv), rv != timeline.NoRV
	}
	return t, true
}

// density draws how many events fall in each pixel column, on a log
// scale, from the timeline's binned counts: where the activity is, even
// in lanes scrolled out of sight.
func (c *Cache) density(v *View, layout *Layout, fr *Frame) {
	b, _ := layout.bandByID(BandDensity)
	q := timeline.BinQuery{From: v.From, To: v.To, Columns: max(int(layout.PlotW), 1), File: -1}
	if v.AxisRV {
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
	scale := (b.Height - 2) / math.Log1p(float64(peak))
	rects := c.rects[:0]
	for col, n := range c.bins.Objects {
		if n == 0 {
			continue
		}
		h := max(math.Log1p(float64(n))*scale, 1.5)
		rects = append(rects, float32(layout.PlotX+float64(col)), float32(b.Y+b.Height-1-h), 1, float32(h))
	}
	fr.add(Op{Kind: "rect", Color: ColorMuted, Alpha: 0.7}, rects)
	c.rects = rects
}

// sessions draws each watch connection as a bar and each reconnect gap
// (from a session's end to the next one's start in the same file) as a
// notch at least 3 px wide, so a sub-second reconnect stays visible;
// dashed boundaries run down through the lanes.
func (c *Cache) sessions(v *View, layout *Layout, s Scale, fr *Frame) {
	b, _ := layout.bandByID(BandSessions)
	var bars, gaps, bounds []float32
	bottom := layout.LanesY + layout.LanesH
	for _, ss := range c.tl.Sessions {
		from, to := ss.Start, ss.End
		if v.AxisRV {
			a, z, ok := ss.RVRange()
			if !ok {
				continue
			}
			from, to = int64(a), int64(z)+1
		} else if ss.Gap >= 0 && ss.Start > v.From && ss.Start-ss.Gap < v.To {
			x1, x2 := s.XClamped(ss.Start-ss.Gap), s.XClamped(ss.Start)
			w := max(x2-x1, 3)
			gaps = append(gaps, float32(x2-w), float32(b.Y+1), float32(w), float32(b.Height-2))
		}
		if to < v.From || from > v.To {
			continue
		}
		x1, x2 := s.XClamped(from), s.XClamped(to)
		bars = append(bars, float32(x1), float32(b.Y+3), float32(max(x2-x1, 1.5)), float32(b.Height-6))
		for _, x := range []float64{x1, x2} {
			if x >= s.X0 && x <= s.X0+s.Width {
				bounds = append(bounds, float32(x), float32(b.Y), float32(x), float32(bottom))
			}
		}
	}
	fr.add(Op{Kind: "rect", Color: ColorSession, Alpha: 0.7}, bars)
	fr.add(Op{Kind: "rect", Color: ColorDeleted, Alpha: 0.8}, gaps)
	fr.add(Op{Kind: "seg", Color: ColorMuted, Size: 1, Dashed: true, Alpha: 0.6}, bounds)
}

// bookmarkTrack draws a tick per bookmark; ticks within a pixel merge.
func (c *Cache) bookmarkTrack(v *View, layout *Layout, s Scale, fr *Frame) {
	if !v.Filter.Event(parser.Bookmark) {
		return
	}
	b, _ := layout.bandByID(BandBookmarks)
	var segs []float32
	last := math.Inf(-1)
	xs := c.bmT
	if v.AxisRV {
		xs = c.bmRV
	}
	for k := sort.Search(len(xs), func(i int) bool { return xs[i] >= v.From }); k < len(xs) && xs[k] < v.To; k++ {
		x := s.X(xs[k])
		if x-last < 1 {
			continue
		}
		last = x
		segs = append(segs, float32(x), float32(b.Y+2), float32(x), float32(b.Y+b.Height-2))
	}
	fr.add(Op{Kind: "seg", Color: ColorBookmark, Size: 2}, segs)
}

// zoneBands draws the zones of each cursor kind in its band: pale where
// a reconnect is at risk, red where it is refused.
func (c *Cache) zoneBands(v *View, layout *Layout, s Scale, fr *Frame) {
	if v.Analysis == nil {
		return
	}
	for _, id := range [...]BandID{BandZoneAware, BandZoneIgnoring, BandZoneHad} {
		b, ok := layout.bandByID(id)
		if !ok {
			continue
		}
		kind := ZoneBandKind(id)
		for _, layer := range [...]struct {
			zones []timeline.Zone
			alpha float32
		}{{v.Analysis.RiskZones, zoneRiskAlpha}, {v.Analysis.Zones, zoneAlpha}} {
			rects := c.rects[:0]
			for _, z := range layer.zones {
				if z.Kind != kind {
					continue
				}
				from, to := z.From, z.To
				if v.AxisRV {
					from, to = int64(z.FromRV), int64(z.ToRV)+1
				}
				if to <= v.From || from >= v.To {
					continue
				}
				x1, x2 := s.XClamped(from), s.XClamped(to)
				rects = append(rects, float32(x1), float32(b.Y+1), float32(max(x2-x1, 3)), float32(b.Height-2))
			}
			fr.add(Op{Kind: "rect", Color: ColorZone, Alpha: layer.alpha}, rects)
			c.rects = rects
		}
	}
}

// HasHad says whether a capture has the had-bookmarks cursor, and so a
// band for its zones.
func HasHad(an *timeline.Analysis) bool {
	if an == nil {
		return false
	}
	for _, cf := range an.HadBookmarks {
		if cf.Synthetic {
			return true
		}
	}
	return false
}

// errorMarks puts a marker on every observed ERROR above the sessions and
// a line down through the zone bands. On the RV axis an error sits at the
// lowest RV it says is still accepted.
func (c *Cache) errorMarks(v *View, layout *Layout, s Scale, fr *Frame) {
	if !v.Filter.Event(parser.Error) {
		return
	}
	b, _ := layout.bandByID(BandSessions)
	zb, _ := layout.bandByID(BandZoneIgnoring)
	var marks, lines []float32
	for _, e := range c.errs {
		p, ok := axisPos(v.AxisRV, e.t, e.y)
		if !ok || p < v.From || p >= v.To {
			continue
		}
		x := s.X(p)
		marks = append(marks, float32(x), float32(b.Y+b.Height/2))
		lines = append(lines, float32(x), float32(b.Y+b.Height/2), float32(x), float32(zb.Y+zb.Height))
	}
	fr.add(Op{Kind: "seg", Color: ColorError, Size: 1.5}, lines)
	fr.add(Op{Kind: "mark", Shape: "tridown", Color: ColorError, Size: markSize + 3}, marks)
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
func (e *stepEnvelope) add(st stepSeries, desc []int32, from, to int, s Scale) {
	n := len(e.has)
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
	for k := from; k < to; {
		col := s.Column(st.T(k), n)
		// Zoomed in, the next step is mostly in another column already.
		end := k + 1
		if end < to && s.Column(st.T(end), n) == col {
			// The search compares instants with the column's end, found
			// once: mapping every instant it read to its column was a fifth
			// of a pan frame's drawing as wasm.
			end = st.SearchT(end+1, to, s.ColumnEnd(col, n))
		}
		d, _ := slices.BinarySearch(desc, int32(k+1)) // the first descent after k
		if v := st.RV(k); v != timeline.NoRV && (d == len(desc) || int(desc[d]) >= end) {
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
func (c *Cache) cursorStrip(v *View, layout *Layout, s Scale, fr *Frame) (uint64, uint64) {
	b, _ := layout.bandByID(BandCursors)
	tl := c.tl
	ncol := int(math.Ceil(layout.PlotW))
	endCol := func(end int64) int { return int(math.Ceil(s.XClamped(end) - s.X0)) }
	if want := 1 + len(tl.Cursors); len(c.cols) < want {
		c.cols = make([]stepEnvelope, want)
	}
	head := &c.cols[0]
	head.reset(ncol)
	hlo, hhi := tl.HeadRange(v.From, v.To)
	head.add(tl.HeadSteps(), c.headDesc, hlo, hhi, s)
	type series struct {
		env   *stepEnvelope
		color string
		end   int
	}
	all := []series{{head, ColorHead, endCol(tl.End())}}
	mn, mx := head.min, head.max
	var pairs [][2]*stepEnvelope
	for f := range tl.Files {
		var pair [2]*stepEnvelope
		for _, kind := range timeline.CursorKinds {
			cur := &tl.Cursors[2*f+int(kind)]
			env := &c.cols[1+2*f+int(kind)]
			env.reset(ncol)
			a, z := cur.Range(v.From, v.To)
			env.add(&cur.Steps, c.cursorDesc[2*f+int(kind)], a, z, s)
			mn, mx = min(mn, env.min), max(mx, env.max)
			col := ColorAware
			if kind == timeline.BookmarkIgnoring {
				col = ColorIgnoring
			}
			all = append(all, series{env, col, endCol(cur.End)})
			pair[kind] = env
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
		aw, ig := p[timeline.BookmarkAware], p[timeline.BookmarkIgnoring]
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

// laneRows draws the visible rows of the lane area: group headers, and
// per lane its lifetime and its events' marks, one batch per event type.
// Events closer than 60% of a mark share marks (one per type), so a frame
// holds a few marks per mark width per row, whatever the zoom.
func (c *Cache) laneRows(v *View, layout *Layout, s Scale, fr *Frame) {
	if len(v.Rows) == 0 {
		t0 := len(fr.Texts)
		fr.addText(layout.PlotX+8, layout.LanesY+RowHeight/2, "no objects match the filter", ColorMuted, "l", "")
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
			if g.Collapsed {
				arrow = "▸ "
			}
			fr.addTextWithin(4, y+RowHeight/2, layout.Width-8, arrow+g.Label(c.tl), ColorFg, "l", "b")
			continue
		}
		if r%2 == 0 {
			stripes = append(stripes, float32(layout.PlotX), float32(y), float32(layout.PlotW), RowHeight)
		}
		ln := &c.tl.Lanes[rw.Lane]
		fr.addTextWithin(layout.PlotX-8, y+RowHeight/2, layout.PlotX-12, words.ClipRunes(words.VisibleControls(ln.Name), 26), ColorFg, "r", "")
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
	}
	fr.add(Op{Kind: "rect", Color: ColorGrid, Alpha: 0.18}, stripes)
	fr.add(Op{Kind: "rect", Color: ColorGrid, Alpha: 0.45}, headers)
	fr.add(Op{Kind: "seg", Color: ColorMuted, Size: 1, Alpha: 0.35}, life)
	for typ, marks := range c.scratch {
		if st := markStyles[typ]; st.shape != "" {
			fr.add(Op{Kind: "mark", Shape: st.shape, Color: st.color, Size: markSize}, marks)
		}
	}
	c.selection(v, layout, s, fr, first, last)
	if layout.ContentH > layout.LanesH {
		// A scroll thumb: there are more rows than the lane area shows.
		h := max(layout.LanesH*layout.LanesH/layout.ContentH, 12)
		top := layout.LanesY + v.ScrollY/(layout.ContentH-layout.LanesH)*(layout.LanesH-h)
		fr.rect(ColorMuted, 0.5, layout.Width-7, top, 4, h)
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

// laneMarksRV puts a lane's marks on the RV axis. A lane's events are in
// time order, which is not quite RV order, so it walks them all, merging
// marks of a type closer than minGap.
func (c *Cache) laneMarksRV(v *View, le *decodedLane, s Scale, cy float32, minGap float64) {
	var lastX [parser.Observed + 1]float64
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
