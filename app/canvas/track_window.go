package canvas

import (
	"math"
	"strconv"
	"strings"

	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// windowTrack is one API server's watch cache of one resource on an RV
// scale: the RVs it surely held at each scrape (from the oldest it
// surely held to its head) as a solid band, the RVs the evidence leaves
// undecided above those it surely no longer held as a pale one, its
// restarts, and the cursors of the clients it answered, each while the
// client was on it. A cursor below the band is one the server refuses:
// each 410 it sent is a cross where that cursor left the band. The
// window is the timeline's (Analysis.CacheWindow); the track only draws.
type windowTrack struct {
	c        *Cache
	srv      *serverInfo
	server   int // index in Timeline.Servers
	resource string
	rvs      *rvBounds // shared by every window track
	cursors  []windowCursor
	refusals []windowRefusal
	// points is the window of analysis a, asked at its first frame.
	a      *timeline.Analysis
	points []timeline.WindowPoint
	ts     []int64 // the points' instants
	gap    int64
}

// windowCursor is a client's cursor while the server answered it: its
// value at from, then its steps until to.
type windowCursor struct {
	file      int
	bookmarks bool
	from, to  int64
	t         []int64
	rv        []uint64
}

// windowRefusal is a watch the server refused as too old: the cursor
// RV it asked for, and Y, the oldest RV it still accepted.
type windowRefusal struct {
	file int
	t    int64
	rv   uint64
	y    uint64
	msg  string
}

// windowH is a window track's height, CSS px; windowPoints is about
// how many points of its window it draws over the whole clock.
const (
	windowH      = 96.0
	windowPoints = 400
)

func (t *windowTrack) label() string {
	return "window · " + t.srv.name + " · " + t.resource
}
func (t *windowTrack) height() float64 { return windowH }

// legend names the band's parts and the marks over it.
func (t *windowTrack) legend() []legendLine {
	return []legendLine{
		{"surely kept", ColorSession},
		{"not known", ColorMuted},
		{"cursors: bookmarks", ColorAware},
		{"cursors: no bookmarks", ColorIgnoring},
		{"✕ a 410", ColorError},
	}
}

// windowTracks are the window tracks of server srv (index server in
// Timeline.Servers), one per resource its caches draw.
func windowTracks(c *Cache, srv *serverInfo, server int, rvs *rvBounds) []track {
	var out []track
	for _, cs := range srv.caches {
		t := &windowTrack{c: c, srv: srv, server: server, resource: cs.resource, rvs: rvs}
		t.collect()
		for _, rv := range cs.rv {
			rvs.hi = max(rvs.hi, rv)
		}
		for _, cur := range t.cursors {
			for _, rv := range cur.rv {
				rvs.lo = min(rvs.lo, rv)
			}
		}
		for _, r := range t.refusals {
			rvs.lo = min(rvs.lo, r.rv)
		}
		out = append(out, t)
	}
	return out
}

// collect gathers the cursors of the clients of the resource while the
// server answered them, and the 410s it sent them.
func (t *windowTrack) collect() {
	tl := t.c.tl
	for f := range tl.Files {
		if tl.ResourceOf(f) != t.resource {
			continue
		}
		file := &tl.Files[f]
		bookmarks := false
		for _, g := range file.Sessions {
			s := &tl.Sessions[g]
			if q := s.Request; q != nil && q.Watch && q.AllowWatchBookmarks {
				bookmarks = true
			}
			if s.Server == t.server && s.Error != nil && s.Error.TooOld && s.Request != nil && s.ErrorEvent >= 0 {
				if rv, err := strconv.ParseUint(s.Request.ResourceVersion, 10, 64); err == nil {
					t.refusals = append(t.refusals, windowRefusal{file: f, t: tl.Event(s.ErrorEvent).T, rv: rv, y: s.Error.Y, msg: s.Error.Message})
				}
			}
		}
		stints := clientStints(tl, f)
		cur := &tl.Cursors[2*f]
		for k, st := range stints {
			if st.server != t.server {
				continue
			}
			to := file.End
			if k+1 < len(stints) {
				to = stints[k+1].from
			}
			lo, hi := cur.Range(st.from, to)
			// Its values in the stint and the one at its start, in
			// slices made once.
			wc := windowCursor{file: f, bookmarks: bookmarks, from: st.from, to: to,
				t: make([]int64, 0, hi-lo+1), rv: make([]uint64, 0, hi-lo+1)}
			if _, _, k, ok := cur.At(st.from); ok {
				if _, rv, known := cur.Known(k); known {
					wc.t, wc.rv = append(wc.t, st.from), append(wc.rv, rv)
				}
			}
			for i := lo; i < hi; i++ {
				if at, rv, ok := cur.Known(i); ok && at > st.from && at < to {
					wc.t, wc.rv = append(wc.t, at), append(wc.rv, rv)
				}
			}
			if len(wc.t) > 0 {
				t.cursors = append(t.cursors, wc)
			}
		}
	}
}

// window asks analysis a for the window, once per analysis.
func (t *windowTrack) window(a *timeline.Analysis) {
	if a == t.a {
		return
	}
	t.a, t.points, t.ts = a, nil, nil
	if a == nil {
		return
	}
	// A point every few pixels of a whole-clock view: the hover asks
	// the window at its own instant.
	from, to := t.c.Extent(false)
	t.points = a.CacheWindow(t.server, t.resource, from, to, (to-from)/windowPoints)
	for _, p := range t.points {
		t.ts = append(t.ts, p.T)
	}
	t.gap = timeline.ScrapeGapLimit(t.ts)
}

// y is where rv lies in band b, clamped to it.
func (t *windowTrack) y(b Band, rv uint64) float64 {
	top, bottom := b.Y+4, b.Y+b.Height-4
	if t.rvs.hi <= t.rvs.lo {
		return (top + bottom) / 2
	}
	rv = min(max(rv, t.rvs.lo), t.rvs.hi)
	return bottom - float64(rv-t.rvs.lo)/float64(t.rvs.hi-t.rvs.lo)*(bottom-top)
}

// pointEnd is where point i's window stops being drawn: the next point,
// unless no scrape came for longer than the gap.
func (t *windowTrack) pointEnd(i int) int64 {
	if i+1 < len(t.points) && t.points[i+1].T-t.points[i].T <= t.gap {
		return t.points[i+1].T
	}
	return t.points[i].T + t.gap/3
}

func (t *windowTrack) draw(v *View, b Band, s Scale, fr *Frame) {
	if v.AxisRV {
		return
	}
	t.window(v.Analysis)
	var held, unknown, gone []float32
	lowest := t.y(b, t.rvs.lo)
	for i := max(lastAtOrBefore(t.ts, s.From), 0); i < len(t.points) && t.points[i].T <= s.To; i++ {
		p := &t.points[i]
		if p.Doubt != "" {
			continue
		}
		x1, x2 := s.XClamped(p.T), s.XClamped(t.pointEnd(i))
		w := float32(max(x2-x1, 0.75))
		top := t.y(b, p.Head)
		mid := top
		if p.Held {
			mid = t.y(b, p.HeldFrom)
			held = append(held, float32(x1), float32(top), w, float32(max(mid-top, 1)))
		}
		bottom := lowest
		if p.Gone > 0 {
			bottom = t.y(b, p.Gone)
			gone = append(gone, float32(x1), float32(bottom), float32(x1)+w, float32(bottom))
		}
		if bottom > mid {
			unknown = append(unknown, float32(x1), float32(mid), w, float32(bottom-mid))
		}
	}
	fr.add(Op{Kind: "rect", Color: ColorMuted, Alpha: 0.16}, unknown)
	fr.add(Op{Kind: "rect", Color: ColorSession, Alpha: 0.5}, held)
	fr.add(Op{Kind: "seg", Color: ColorSession, Size: 1.5}, gone)

	// The restarts: a new process starts with an empty cache.
	var marks, lines []float32
	for _, r := range (&serverTrack{c: t.c, srv: t.srv}).starts() {
		if r >= s.From && r < s.To {
			x := float32(s.X(r))
			marks = append(marks, x, float32(b.Y+5))
			lines = append(lines, x, float32(b.Y+2), x, float32(b.Y+b.Height-2))
		}
	}
	fr.add(Op{Kind: "seg", Color: ColorError, Size: 1, Dashed: true}, lines)
	fr.add(Op{Kind: "mark", Shape: "tridown", Color: ColorError, Size: markSize}, marks)

	var aware, ignoring []float32
	for k := range t.cursors {
		cur := &t.cursors[k]
		if cur.to < s.From || cur.from > s.To {
			continue
		}
		if cur.bookmarks {
			aware = t.cursorSteps(cur, b, s, aware)
		} else {
			ignoring = t.cursorSteps(cur, b, s, ignoring)
		}
	}
	fr.add(Op{Kind: "seg", Color: ColorAware, Size: 1}, aware)
	fr.add(Op{Kind: "seg", Color: ColorIgnoring, Size: 1}, ignoring)

	var crosses, drops []float32
	for _, r := range t.refusals {
		if r.t < s.From || r.t > s.To {
			continue
		}
		x, y := float32(s.X(r.t)), float32(t.y(b, r.rv))
		crosses = append(crosses, x, y)
		// From the cursor up to the oldest RV the server still took.
		drops = append(drops, x, y, x, float32(t.y(b, r.y)))
	}
	fr.add(Op{Kind: "seg", Color: ColorError, Size: 1, Dashed: true}, drops)
	fr.add(Op{Kind: "mark", Shape: "cross", Color: ColorError, Size: markSize}, crosses)
}

// cursorSteps appends a cursor's steps in view as a step line.
func (t *windowTrack) cursorSteps(cur *windowCursor, b Band, s Scale, segs []float32) []float32 {
	i := max(lastAtOrBefore(cur.t, s.From), 0)
	for ; i < len(cur.t) && cur.t[i] <= s.To; i++ {
		end := cur.to
		if i+1 < len(cur.t) {
			end = cur.t[i+1]
		}
		x1, x2, y := s.XClamped(cur.t[i]), s.XClamped(end), float32(t.y(b, cur.rv[i]))
		segs = append(segs, float32(x1), y, float32(max(x2, x1+0.5)), y)
		if i+1 < len(cur.t) {
			segs = append(segs, float32(x2), y, float32(x2), float32(t.y(b, cur.rv[i+1])))
		}
	}
	return segs
}

func (t *windowTrack) hit(v *View, b Band, s Scale, at int64, x, y float64) Hit {
	h := Hit{Event: -1, Group: -1}
	if v.AxisRV {
		return h
	}
	t.window(v.Analysis)
	slop := max(int64(hitSlop*float64(s.To-s.From)/s.Width), 1)
	h.Text = t.describe(b, at, slop, y)
	return h
}

// describe says, in plain words, what the server's cache kept at instant
// at, and what lies under the pointer at height y: a 410 it sent, a
// client's cursor, a restart.
func (t *windowTrack) describe(b Band, at, slop int64, y float64) string {
	tl := t.c.tl
	var out strings.Builder
	out.WriteString("the window of server " + t.srv.name + "'s " + t.resource + " cache at " + clock(at, t.c.zone) + "\n")
	if t.a == nil {
		out.WriteString("not analysed yet")
	} else if w, ok := t.a.CacheWindowAt(t.server, t.resource, at); ok {
		out.WriteString(w.Window(t.srv.name))
	} else {
		out.WriteString("no scrape of its metrics then")
	}
	for k, r := range (&serverTrack{c: t.c, srv: t.srv}).starts() {
		if absInt64(r-at) <= slop {
			out.WriteString("\nrestarted at " + clock(r, t.c.zone) + ": process " + strconv.Itoa(k+2) + " began, its cache empty until a new LIST; every older cursor is refused")
		}
	}
	for _, r := range t.refusals {
		if absInt64(r.t-at) <= slop && math.Abs(t.y(b, r.rv)-y) <= hitSlop {
			out.WriteString("\n" + tl.Files[r.file].Name + "'s resume from RV " + strconv.FormatUint(r.rv, 10) + " was refused at " + clock(r.t, t.c.zone) +
				": \"" + r.msg + "\"; the server kept nothing older than RV " + strconv.FormatUint(r.y, 10) + ", so the cursor had left its window")
			return out.String()
		}
	}
	// The cursors under the pointer.
	var names []string
	for k := range t.cursors {
		cur := &t.cursors[k]
		if at < cur.from || at > cur.to {
			continue
		}
		j := lastAtOrBefore(cur.t, at)
		if j >= 0 && math.Abs(t.y(b, cur.rv[j])-y) <= hitSlop/2+1 {
			names = append(names, tl.Files[cur.file].Name+" at RV "+strconv.FormatUint(cur.rv[j], 10))
		}
	}
	if len(names) > 0 {
		out.WriteString("\ncursors on this server: " + quantity.Listed(names, 5))
	}
	return out.String()
}
