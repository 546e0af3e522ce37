package canvas

import (
	"sort"
	"strconv"
	"strings"

	"watchlens/timeline"
)

// serverTrack is an API server on the shared clock: a bar per process
// (an incarnation, from its audit logs), faint where it was shutting
// down (it took no new request, serving only its open watches), a mark
// at each restart, and,
// from its metrics, the head RV of its watch caches as step lines, one
// per resource, on an RV scale every server's track shares, with their
// capacity written where it changes.
type serverTrack struct {
	c   *Cache
	srv *serverInfo
	rvs *rvBounds
}

// serverH is a server track's height; its processes' bars take the top
// procH of it, its caches' lines the rest. A server with no cache lines
// and no re-initialisation to draw (audit logs without metrics) is
// serverBarH high: its bars and restart marks, with no empty plot under
// them.
const (
	serverH    = 64.0
	serverBarH = procH + 10
	procH      = 8.0
	// capacityH is the strip under the lines where the first cache's
	// capacity is written.
	capacityH = 11.0
)

func (t *serverTrack) label() string { return "server " + t.srv.name }
func (t *serverTrack) height() float64 {
	if len(t.srv.caches) == 0 && len(t.srv.reinits) == 0 {
		return serverBarH
	}
	return serverH
}

// processes are the server's processes: [from, to] spans, from its audit
// logs, else between the restarts its metrics show.
func (t *serverTrack) processes() [][2]int64 {
	srv := t.srv
	var out [][2]int64
	if srv.audit >= 0 {
		for _, inc := range t.c.tl.Servers[srv.audit].Incarnations {
			out = append(out, [2]int64{inc.From, inc.To})
		}
		return out
	}
	m := t.c.tl.Metrics
	if m == nil || m.To <= m.From {
		return nil
	}
	from := m.From
	for _, r := range srv.restarts {
		out = append(out, [2]int64{from, r - 1})
		from = r
	}
	return append(out, [2]int64{from, m.To})
}

// closing is process k where its audit log shows it and it stopped
// taking new requests, shutting down (timeline.Incarnation.Closing); nil
// otherwise.
func (t *serverTrack) closing(k int) *timeline.Incarnation {
	if t.srv.audit < 0 {
		return nil
	}
	if inc := &t.c.tl.Servers[t.srv.audit].Incarnations[k]; inc.Closing != 0 {
		return inc
	}
	return nil
}

// starts are the instants a new process of the server began.
func (t *serverTrack) starts() []int64 {
	ps := t.processes()
	out := make([]int64, 0, len(ps))
	for _, p := range ps[min(1, len(ps)):] {
		out = append(out, p[0])
	}
	return out
}

// logRestarts are the restarts the server's own log shows, drawn when
// no audit log shows its processes.
func (t *serverTrack) logRestarts() []timeline.ServerLogRestart {
	if t.srv.audit >= 0 {
		return nil
	}
	return t.srv.logRestarts
}

// plotY is where the caches' lines go: their top and bottom.
func plotY(b Band) (top, bottom float64) { return b.Y + procH + 6, b.Y + b.Height - capacityH - 2 }

func (t *serverTrack) y(b Band, rv uint64) float64 {
	top, bottom := plotY(b)
	if t.rvs.hi <= t.rvs.lo {
		return (top + bottom) / 2
	}
	return bottom - float64(rv-t.rvs.lo)/float64(t.rvs.hi-t.rvs.lo)*(bottom-top)
}

func (t *serverTrack) draw(v *View, b Band, s Scale, fr *Frame) {
	var bars, closing, marks []float32
	for k, p := range t.processes() {
		if p[1] < v.From || p[0] > v.To {
			continue
		}
		end := p[1]
		if inc := t.closing(k); inc != nil {
			end = inc.Closing
			x1, x2 := s.XClamped(end), s.XClamped(p[1])
			closing = append(closing, float32(x1), float32(b.Y+2), float32(max(x2-x1, 1.5)), float32(procH))
		}
		x1, x2 := s.XClamped(p[0]), s.XClamped(end)
		bars = append(bars, float32(x1), float32(b.Y+2), float32(max(x2-x1, 1.5)), float32(procH))
	}
	for _, r := range t.starts() {
		if r >= v.From && r < v.To {
			marks = append(marks, float32(s.X(r)), float32(b.Y+2+procH/2))
		}
	}
	// Without an audit log, the server's own log shows its restarts:
	// a cross at SIGTERM, the new process's start as a restart's.
	var sigterms, reinits []float32
	for _, r := range t.logRestarts() {
		if r.SIGTERM >= v.From && r.SIGTERM < v.To {
			sigterms = append(sigterms, float32(s.X(r.SIGTERM)), float32(b.Y+2+procH/2))
		}
		if r.NewStart >= v.From && r.NewStart < v.To {
			marks = append(marks, float32(s.X(r.NewStart)), float32(b.Y+2+procH/2))
		}
	}
	fr.add(Op{Kind: "rect", Color: ColorSession, Alpha: 0.55}, bars)
	fr.add(Op{Kind: "rect", Color: ColorSession, Alpha: 0.2}, closing)
	// A new process is no error: an upward triangle in the text's
	// colour, apart from the ERROR events' red one pointing down.
	fr.add(Op{Kind: "mark", Shape: "tri", Color: ColorFg, Size: markSize + 2}, marks)
	for _, r := range t.srv.reinits {
		if r.T >= v.From && r.T < v.To {
			reinits = append(reinits, float32(s.X(r.T)), float32(b.Y+procH+6))
		}
	}
	fr.add(Op{Kind: "mark", Shape: "cross", Color: ColorError, Size: markSize + 2}, sigterms)
	fr.add(Op{Kind: "mark", Shape: "diamond", Color: ColorError, Size: markSize + 1}, reinits)

	// The last cache's line first: the first, the busiest, on top.
	for k := len(t.srv.caches) - 1; k >= 0; k-- {
		fr.add(Op{Kind: "seg", Color: cacheColors[k], Size: 1.5}, t.steps(&t.srv.caches[k], b, s, nil))
	}
	if len(t.srv.caches) > 0 {
		t0 := len(fr.Texts)
		t.capacityLabels(&t.srv.caches[0], b, s, fr)
		fr.flushTexts(t0)
	}
}

// legend names the resources of the lines, in their colours, under the
// track's name in the gutter.
func (t *serverTrack) legend() []legendLine {
	var out []legendLine
	for k, cs := range t.srv.caches {
		out = append(out, legendLine{cs.resource, cacheColors[k]})
	}
	return out
}

// steps are the segments of a cache's head RV in view, as a step line:
// a point holds until the next, unless no scrape came for longer than
// its gap. A run of points of one RV is one segment.
func (t *serverTrack) steps(cs *cacheSeries, b Band, s Scale, segs []float32) []float32 {
	i := max(lastAtOrBefore(cs.t, s.From), 0)
	for i < len(cs.t) && cs.t[i] <= s.To {
		// The run of points of cs.rv[i] that follow each other.
		j := i
		for j+1 < len(cs.t) && cs.rv[j+1] == cs.rv[i] && cs.t[j+1]-cs.t[j] <= cs.gap && cs.t[j] <= s.To {
			j++
		}
		next := j+1 < len(cs.t) && cs.t[j+1]-cs.t[j] <= cs.gap
		end := cs.t[j] + cs.gap
		if next {
			end = cs.t[j+1]
		}
		x1, x2, y := s.XClamped(cs.t[i]), s.XClamped(end), t.y(b, cs.rv[i])
		segs = append(segs, float32(x1), float32(y), float32(max(x2, x1+0.5)), float32(y))
		if next {
			segs = append(segs, float32(x2), float32(y), float32(x2), float32(t.y(b, cs.rv[j+1])))
		}
		i = j + 1
	}
	return segs
}

// capacityLabels write a cache's capacity under the lines: at the left
// of the view and where it changes in view. The first says what the
// number is ("configmaps cache holds 200 changes"), the others "holds
// 400". A label is written whole where it ends in the plot, else in its
// shorter wording ("holds 200") where that does, else not at all: the
// plot's clip would cut it mid-word ("ho"), and the hover gives the
// capacity at any instant.
func (t *serverTrack) capacityLabels(cs *cacheSeries, b Band, s Scale, fr *Frame) {
	y := b.Y + b.Height - capacityH/2 - 1
	right := s.X0 + s.Width
	last, lastX, lastEnd, first := -1, -1e9, -1e9, true
	for i := max(lastAtOrBefore(cs.capT, s.From), 0); i < len(cs.capT) && cs.capT[i] <= s.To; i++ {
		if cs.capacity[i] == last {
			continue
		}
		last = cs.capacity[i]
		x := max(s.XClamped(cs.capT[i]), s.X0) + 2
		text := "holds " + strconv.Itoa(cs.capacity[i])
		if first {
			if whole := cs.resource + " cache " + text + " changes"; x+labelWidth(whole) <= right {
				text = whole
			}
		}
		// Past the label before, which the first's words make long.
		if x-lastX < 70 || x < lastEnd+8 || x+labelWidth(text) > right {
			continue
		}
		fr.addText(x, y, text, ColorMuted, "l", "")
		lastX, lastEnd, first = x, x+labelWidth(text), false
	}
}

func (t *serverTrack) hit(v *View, b Band, s Scale, at int64, x, y float64) Hit {
	h := Hit{Event: -1, Group: -1}
	slop := max(int64(hitSlop*float64(s.To-s.From)/s.Width), 1)
	h.Text = t.describe(at, slop)
	return h
}

// describe says, in plain words, what the server was doing at instant
// at: which process answered, a restart within slop, and its caches.
func (t *serverTrack) describe(at, slop int64) string {
	srv := t.srv
	var b strings.Builder
	b.WriteString("server " + srv.name)
	ps := t.processes()
	source := "its audit log"
	if srv.audit < 0 {
		source = "its metrics"
	}
	switch k := processAt(ps, at); {
	case len(ps) == 0:
	case k == 0 && srv.audit < 0:
		// The metrics show when it was first scraped, not when it
		// started.
		b.WriteString(", process 1, in its metrics from " + clock(ps[k][0], t.c.zone))
	case k >= 0:
		b.WriteString(", process " + strconv.Itoa(k+1) + " since " + clock(ps[k][0], t.c.zone) + " (" + source + ")")
		if inc := t.closing(k); inc != nil && at >= inc.Closing {
			went := "went to another server"
			if len(t.c.tl.Servers) < 2 {
				went = "reached no server"
			}
			b.WriteString("\nshutting down: it stopped taking new requests " + inc.ClosingWords(func(x int64) string { return clock(x, t.c.zone) }) +
				", and served only the watches already open until " + clock(ps[k][1], t.c.zone) + "; a reconnect then " + went)
		}
	case at < ps[0][0]:
		b.WriteString(": " + source + " begins at " + clock(ps[0][0], t.c.zone))
	case at > ps[len(ps)-1][1]:
		b.WriteString(": " + source + " ends at " + clock(ps[len(ps)-1][1], t.c.zone))
	default:
		n := sort.Search(len(ps), func(i int) bool { return ps[i][0] > at })
		b.WriteString(": no process answering; process " + strconv.Itoa(n) + " ended at " + clock(ps[n-1][1], t.c.zone) +
			", process " + strconv.Itoa(n+1) + " began at " + clock(ps[n][0], t.c.zone))
	}
	for k, r := range t.starts() {
		if absInt64(r-at) <= slop {
			b.WriteString("\nrestarted at " + clock(r, t.c.zone) + ": process " + strconv.Itoa(k+2) + " began; its watch caches start over from a new LIST")
		}
	}
	for _, r := range t.logRestarts() {
		if absInt64(r.SIGTERM-at) <= slop || absInt64(r.NewStart-at) <= slop {
			b.WriteString("\nits own log: SIGTERM at " + clock(r.SIGTERM, t.c.zone) + ", a new process at " + clock(r.NewStart, t.c.zone) + "; its watch caches start over from a new LIST")
		}
	}
	for _, r := range srv.reinits {
		if absInt64(r.T-at) <= slop {
			b.WriteString("\nserver " + srv.name + "'s cache of " + r.ResourceName() + " ended every watch at " + clock(r.T, t.c.zone) + " with no restart (its own log): every client of it resumes as after a restart")
		}
	}
	for _, cs := range srv.caches {
		i := lastAtOrBefore(cs.t, at)
		if i < 0 || at-cs.t[i] > cs.gap {
			b.WriteString("\nits " + cs.resource + " cache: no metrics then")
			continue
		}
		b.WriteString("\nits " + cs.resource + " cache at RV " + strconv.FormatUint(cs.rv[i], 10))
		if j := lastAtOrBefore(cs.capT, at); j >= 0 && at-cs.capT[j] <= cs.gap {
			b.WriteString(", holding up to " + strconv.Itoa(cs.capacity[j]) + " changes")
		}
	}
	if srv.metrics == "" && t.c.tl.Metrics != nil {
		b.WriteString("\nno metrics name this server")
	}
	return b.String()
}

// processAt is the process whose span holds at, -1 for none.
func processAt(ps [][2]int64, at int64) int {
	for k, p := range ps {
		if at >= p[0] && at <= p[1] {
			return k
		}
	}
	return -1
}
