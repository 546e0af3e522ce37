package canvas

import (
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"watchlens/parser"
	"watchlens/timeline"
)

// decodedLane are one lane's events, decoded once from the timeline.
type decodedLane struct {
	t   []int64
	rv  []uint64
	typ []parser.EventType
	idx []int32
	// changes are the positions whose type differs from the one before.
	changes []int32
	// rvIdx is built by the lane's first frame on the RV axis.
	rvIdx *rvIndex
}

// laneCacheBudget bounds the decoded lane events kept between frames
// (17 bytes each): beyond it the lanes off screen are dropped.
const laneCacheBudget = 2_000_000

// Cache holds what the frames of one timeline share: decoded lanes,
// the bookmark and error tracks, the axis extents.
type Cache struct {
	tl        *timeline.Timeline
	zone      *time.Location // where times are written (takeZone)
	files     []string       // the files' names, for a layout (see FileLayout)
	lanes     map[int]*decodedLane
	cached    int
	bookmarks []bookmarkMark
	bmT, bmRV []int64 // positions for hit-testing, per axis
	bmByFile  []fileBookmarks
	// specialT are the instants of the bookmarks and errors among the
	// events, in order (see densityBins).
	specialT []int64
	// sessByFile are each file's sessions, as indices in tl.Sessions in
	// order: with thousands of files, each file's band walking every
	// session would be a large part of a frame.
	sessByFile [][]int32
	// start and end are tl.Start() and tl.End(), which read every
	// file: the shared clock's first and last instants.
	start, end int64
	errs       []errorMark
	// Whole-capture extents with a margin, so marks at the ends are not
	// cut in half by the plot's edge.
	timeLo, timeHi int64
	rvLo, rvHi     int64
	noClock        bool
	bins           *timeline.Bins
	scratch        [len(markStyles)][]float32
	segs           []float32
	rects          []float32             // scratch for the density band and the zones, reused frame after frame
	cols           []stepEnvelope        // head, then each file's two cursors
	colEnds        []int64               // the cursor strip's columns' ends (Scale.ColumnEnd)
	spans          []seriesSpans         // cols' series' spans of the last frames that drew them (foldSeries)
	spansHeld      []int                 // the series whose spans are kept
	spanSpare      []timeline.ColumnSpan // the buffer the next series' spans are written into
	spanFrame      uint32                // the frames the cursor strips drew, counted
	// Where the head and each cursor stop rising (see stepEnvelope.add).
	headDesc   []int32
	cursorDesc [][]int32
	// tracks are the bands that draw and answer for themselves: the API
	// servers' (see serverTracks).
	tracks []track
	// unread are the files that are no capture (timeline.NotCapture),
	// which have no group of tracks.
	unread FileSet
}

func NewCache(tl *timeline.Timeline) *Cache {
	c := &Cache{tl: tl, lanes: map[int]*decodedLane{}, noClock: len(tl.Files) > 0}
	for fi, f := range tl.Files {
		// A virtual client's group says its selector's value first
		// ("cm-100 · metadata.name · capture"): a folded group's label
		// is clipped to the gutter, and what the clients of a capture
		// share comes last.
		name := f.Name
		if f.SplitKey != "" {
			key, value, _ := strings.Cut(f.SplitKey, "=")
			name = value + " · " + key + " · " + f.SplitOf
		}
		c.files = append(c.files, name)
		if tl.NotCapture(fi) != timeline.IsCapture {
			c.unread = c.unread.With(fi, true)
		}
		if f.Clock != timeline.ClockNone {
			c.noClock = false
		}
	}
	// A split capture copies each bookmark to every virtual client, so
	// this loop can see hundreds of thousands: Point decodes a bookmark
	// without formatting its RV; an error needs Event's Status.
	for _, e := range tl.Specials() {
		p := tl.Point(int(e))
		if isSpecial(p.Type) {
			c.specialT = append(c.specialT, p.T)
		}
		switch p.Type {
		case parser.Bookmark:
			prev, ok := tl.UnchangedSince(int(e))
			if !ok {
				prev = timeline.NoRV
			}
			rv := timeline.NoRV
			if p.RVValid {
				rv = p.RV
			}
			file := tl.Sessions[p.Session].File
			c.bookmarks = append(c.bookmarks, bookmarkMark{t: p.T, idx: int64(e), rv: rv, prev: prev, file: file})
			c.bmT = append(c.bmT, p.T)
		case parser.Error:
			ev := tl.Event(int(e))
			m := errorMark{t: ev.T, idx: int64(e), y: timeline.NoRV, file: ev.File}
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
	c.sessByFile = make([][]int32, len(tl.Files))
	for g, ss := range tl.Sessions {
		if ss.File >= 0 && ss.File < len(c.sessByFile) {
			c.sessByFile[ss.File] = append(c.sessByFile[ss.File], int32(g))
		}
		if st := ss.Status; st != nil {
			m := errorMark{t: ss.Start, idx: -1, y: timeline.NoRV, msg: st.Message, file: ss.File}
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
	c.indexBookmarks()
	slices.Sort(c.specialT)
	c.headDesc = tl.HeadSteps().Descents()
	for k := range tl.Cursors {
		c.cursorDesc = append(c.cursorDesc, tl.Cursors[k].Descents())
	}
	// The margin is at least a second on a clock, so that a capture of
	// one instant (a single LIST answered 410) spans seconds, not
	// nanoseconds.
	c.start, c.end = tl.Start(), tl.End()
	start, end := c.start, c.end+1
	if mx := tl.Metrics; len(tl.Files) == 0 && mx != nil && mx.To > mx.From {
		// Prometheus exports alone: their span is the clock's.
		start, end = mx.From, mx.To+1
	}
	m := max((end-start)/50, 1)
	if !c.noClock {
		m = max(m, int64(time.Second))
	}
	c.timeLo, c.timeHi = start-m, end+m
	c.rvLo, c.rvHi = c.rvExtent()
	c.tracks = serverTracks(c)
	return c
}

// Timeline is the timeline the cache draws.
func (c *Cache) Timeline() *timeline.Timeline { return c.tl }

// NoClock says whether no file of the timeline has a clock: its instants
// are then event ordinals.
func (c *Cache) NoClock() bool { return c.noClock }

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
	// by RV to find it.
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

// Layout is the layout of a frame of this timeline: FileLayout with its
// files.
func (c *Cache) Layout(w, maxH float64, rows int, axisRV, had bool, folded, pinned FileSet) Layout {
	return stackLayout(w, maxH, rows, c.files, c.tracks, axisRV, had, folded, pinned, c.unread)
}

// Files is the number of files, whose groups of tracks a view can fold
// and pin.
func (c *Cache) Files() int { return len(c.files) }

// inFile says whether something of file f belongs in band b.
func inFile(b Band, f int) bool { return b.File < 0 || b.File == f }
