package timeline

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"

	"watchlens/parser"
)

// Timeline is the model of one or more captures on one clock. It does not
// depend on the window-model parameters; Analyze applies those.
type Timeline struct {
	// pause is the Builder's Pause, for the analyses.
	pause func()
	// headIdx samples the head estimate for HeadPassed (see headIndex).
	headIdx     []uint64
	headIdxOnce sync.Once

	Files     []File
	Sessions  []Session
	Lanes     Lanes
	Anomalies []Anomaly
	// AnomalyCounts counts the anomalies found of each kind; Anomalies
	// keeps at most maxAnomaliesPerKind of each. Nil when none was found.
	AnomalyCounts map[string]int
	// Cursors holds two cursors per file: Cursors[2*file+int(kind)].
	Cursors []Cursor
	// Relists are the requests for the whole state (LISTs and WatchLists)
	// after each file's first sync or after a 410, in file order.
	Relists []Relist
	// WatchLists are the WatchList requests, in file order.
	WatchLists []WatchList
	// AuditLogs are the audit logs read, whose clients are files.
	// AuditCaptured counts their requests that a capture given with them
	// holds too, by its Audit-Id: those are the capture's client's, not a
	// client of the logs.
	AuditLogs     []AuditLog
	AuditCaptured int
	// AuditShared is what every client of the audit logs shares, which
	// their names leave out.
	AuditShared AuditShared
	auditLog    map[int]int // global session of a client from audit logs -> its log
	// Servers are the API servers the audit logs show, by name; sessions
	// say which answered them (Session.Server).
	Servers []Server
	// Metrics are the Prometheus exports read, nil when none was.
	Metrics *Metrics
	// ServerLogs are the API servers' own logs read.
	ServerLogs []ServerLog

	tab    table
	status map[int]*parser.Status
	// body holds BodyOffset for the events read from a Content-Encoding
	// body, apart from the table, which stays compact for the plain
	// captures that are the rule.
	body map[int]int64
	// late is, for the events whose last bytes are stamped more than
	// LateStamp after their first, how much later (Event.StampedLate).
	late  map[int]int64
	oddRV map[int]string
	// looksLike says, of the files whose start is a known format that is
	// no watch record, what they look like ("a PNG image").
	looksLike map[int]string
	// twins maps each session of a capture that holds the same watch as
	// one given before it (DiagSameWatch) to that one's session at the
	// same place: the same request and answer, recorded twice.
	twins map[int]int

	// Head estimate: the highest RV known to exist, as steps, raised by
	// every event and bookmark of every file and by the Y of every `too
	// old resource version: X (Y)`.
	head Steps

	// Calibration floors per object kind: from each observed too-old
	// error on, every RV below its Y is refused (the oldest buffered RV
	// only rises). serverFloors are those of each server, and, with
	// server -1, the RVs every server refuses (see calibrationFloors).
	floors       map[string]*floorSteps
	serverFloors map[floorKey]*floorSteps

	// series per object kind for the watch-cache count model.
	series map[string]*kindSeries

	// laneEv[laneStart[l]:laneStart[l+1]] are lane l's events in order;
	// special lists the events without a lane (bookmarks, errors).
	laneStart []int32
	laneEv    []int32
	special   []int32
	// unchangedSince[k] is what the bookmark at special[k] says nothing
	// changed after (UnchangedSince); unsetRV for an error.
	unchangedSince []uint64

	minRV uint64 // see MinRV
	hasRV bool
	// timeOrdered: no event's instant is before the one's before it
	// (buildHead checks), so that every series of changes, the head's
	// and the calibration floors' steps are in time order too, and a
	// threshold that moves forward with a cursor's value never moves
	// back in time (see thresholdBound).
	timeOrdered bool

	// lists are the LISTs, pages joined, in the order of their ends;
	// listEnds has the complete ones by their last page's session.
	lists    []listRead
	listEnds map[int]*listRead

	rvOnce  sync.Once
	rvOrder []int32 // event indices by RV, for RV-range queries

	outagesOnce sync.Once
	outages     []Outage // see Outages
}

// Cursor is a client cursor as a step series: at T(k) the cursor was set
// to (or re-confirmed at) RV(k); RV(k) == unset means no cursor (a watch
// from "now"). Each step's T is also the last instant the value was known
// current, which is what the window models age.
type Cursor struct {
	File int
	Kind CursorKind
	Steps
	End int64 // the cursor lives until its file's end
}

// Len is the number of events.
func (tl *Timeline) Len() int { return tl.tab.len() }

// Start and End bound the shared clock: the first session start and the
// last session end over the files with a clock (over all files when none
// has one, whose instants are then ordinals).
func (tl *Timeline) Start() int64 {
	s, _ := tl.bounds()
	return s
}

// End is the last instant on the shared clock (see Start).
func (tl *Timeline) End() int64 {
	_, e := tl.bounds()
	return e
}

func (tl *Timeline) bounds() (start, end int64) {
	timed := false
	for _, f := range tl.Files {
		timed = timed || f.Clock != ClockNone
	}
	first := true
	for _, f := range tl.Files {
		if timed && f.Clock == ClockNone {
			continue
		}
		if first || f.Start < start {
			start = f.Start
		}
		if first || f.End > end {
			end = f.End
		}
		first = false
	}
	return start, end
}

// Event decodes event i (0 <= i < Len()) of the time-ordered table.
func (tl *Timeline) Event(i int) Event {
	t := &tl.tab
	fl := t.flags.at(i)
	e := Event{
		Index: i, T: t.t.at(i), Type: parser.EventType(t.typ.at(i)),
		RVNum: t.rv.at(i), RVValid: fl&flagRVValid != 0,
		Lane: int(t.lane.at(i)), Session: int(t.sess.at(i)),
		Offset: t.off.at(i), Length: int64(t.length.at(i)),
		Initial: fl&flagInitial != 0, InitialEventsEnd: fl&flagInitialEnd != 0, Timed: fl&flagTimed != 0,
		Status: tl.status[i],
	}
	e.File = tl.Sessions[e.Session].File
	e.RV = tl.rvString(i)
	e.BodyOffset, e.Encoded = tl.body[i]
	e.StampedLate = tl.late[i]
	return e
}

func (tl *Timeline) rvString(i int) string {
	return rvString(tl.oddRV, i, tl.tab.flags.at(i), tl.tab.rv.at(i))
}

// Head returns the head estimate at instant t: the highest RV known to
// exist at or before t (ok false before anything is known).
func (tl *Timeline) Head(t int64) (rv uint64, ok bool) {
	h := &tl.head
	k := sort.Search(h.Len(), func(i int) bool { return h.T(i) > t })
	if k == 0 {
		return 0, false
	}
	return h.RV(k - 1), true
}

// HeadSteps returns the head estimate's steps, in order.
func (tl *Timeline) HeadSteps() *Steps { return &tl.head }

// HeadPassed returns the first instant the head estimate exceeded rv.
// A fleet's cursor passes ask it for every step of every client: the
// search runs first over every headStride-th step's value, kept apart
// (headIndex), then decodes at most headStride steps.
func (tl *Timeline) HeadPassed(rv uint64) (int64, bool) {
	h := &tl.head
	idx := tl.headIndex()
	// The first sampled step above rv; the answer lies after the one
	// before it.
	lo, hi := 0, len(idx)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); idx[m] > rv {
			hi = m
		} else {
			lo = m + 1
		}
	}
	from, to := max(lo-1, 0)*headStride, min(lo*headStride, h.Len()-1)+1
	for lo, hi = from, to; lo < hi; {
		if m := int(uint(lo+hi) >> 1); h.RV(m) > rv {
			hi = m
		} else {
			lo = m + 1
		}
	}
	if lo == h.Len() {
		return 0, false
	}
	return h.T(lo), true
}

// headStride is the sampling of headIndex.
const headStride = 64

// headIndex is the value of every headStride-th head step, made once: an
// eighth of a bit per step, which the binary search reads without
// decoding steps.
func (tl *Timeline) headIndex() []uint64 {
	tl.headIdxOnce.Do(func() {
		h := &tl.head
		tl.headIdx = make([]uint64, 0, h.Len()/headStride+1)
		for k := 0; k < h.Len(); k += headStride {
			tl.headIdx = append(tl.headIdx, h.RV(k))
		}
	})
	return tl.headIdx
}

// floorSteps are the rising Ys of one kind's too-old errors.
type floorSteps struct {
	t  []int64
	y  []uint64
	ev []int32 // the ERROR event
}

// floorKey names the floors of one kind on one server.
type floorKey struct {
	kind   string
	server int
}

// rise adds a step when y is above the last.
func (f *floorSteps) rise(t int64, y uint64, ev int) {
	if len(f.y) == 0 || y > f.y[len(f.y)-1] {
		f.t, f.y, f.ev = append(f.t, t), append(f.y, y), append(f.ev, int32(ev))
	}
}

// refusedFrom is the instant of the first step refusing rv among errors
// observed before the instant before, never when none (or f is nil).
func (f *floorSteps) refusedFrom(rv uint64, before int64) int64 {
	if k := f.floor(rv, before); k >= 0 {
		return f.t[k]
	}
	return never
}

// floor returns the first step refusing rv among errors observed before
// the instant before, or -1 (also when f is nil).
func (f *floorSteps) floor(rv uint64, before int64) int {
	if f == nil {
		return -1
	}
	for k, y := range f.y {
		if f.t[k] >= before {
			break
		}
		if rv < y {
			return k
		}
	}
	return -1
}

// calibrationFloors returns the floors of a kind that refuse a reconnect
// to server (-1: not known), and those that only put it at risk. With one
// server, or none known (no audit logs), every too-old error is that
// server's, and refuses. With several, a server's own errors refuse; a
// reconnect whose server is not known is refused below what every server
// refuses, and at risk below what any refuses: it may land on that one.
// Another server's error says nothing of a known server's cache.
func (tl *Timeline) calibrationFloors(kind string, server int) (refuse, risk *floorSteps) {
	if len(tl.Servers) <= 1 {
		return tl.floors[kind], nil
	}
	if server >= 0 {
		return tl.serverFloors[floorKey{kind, server}], nil
	}
	return tl.serverFloors[floorKey{kind, -1}], tl.floors[kind]
}

// serverFloorBuilder follows, for one kind, the floor of each server,
// and the lowest of them once every server has one.
type serverFloorBuilder struct {
	y   []uint64 // per server, 0 before its first error
	ev  []int
	got int // servers with a floor
}

func (tl *Timeline) buildHead(pace *pacer) {
	tl.floors = map[string]*floorSteps{}
	tl.serverFloors = map[floorKey]*floorSteps{}
	perServer := map[string]*serverFloorBuilder{}
	floorOf := func(k floorKey) *floorSteps {
		f := tl.serverFloors[k]
		if f == nil {
			f = &floorSteps{}
			tl.serverFloors[k] = f
		}
		return f
	}
	// addServerFloor keeps a server's own floor and, once every server
	// has one, the lowest: the RVs all of them refuse.
	addServerFloor := func(kind string, server int, t int64, y uint64, i int) {
		floorOf(floorKey{kind, server}).rise(t, y, i)
		sb := perServer[kind]
		if sb == nil {
			sb = &serverFloorBuilder{y: make([]uint64, len(tl.Servers)), ev: make([]int, len(tl.Servers))}
			perServer[kind] = sb
		}
		if y <= sb.y[server] {
			return
		}
		if sb.y[server] == 0 {
			sb.got++
		}
		sb.y[server], sb.ev[server] = y, i
		if sb.got < len(sb.y) {
			return
		}
		low := 0
		for s := range sb.y {
			if sb.y[s] < sb.y[low] {
				low = s
			}
		}
		floorOf(floorKey{kind, -1}).rise(t, sb.y[low], sb.ev[low])
	}
	n := tl.tab.len()
	head := newStepBuilder(tl, &tl.head)
	defer head.finish()
	// An event's raise is a step at the event; an error's (by its Y, not
	// its RV) is kept apart: pass i < 0.
	raise := func(t int64, rv uint64, i int) {
		if (head.len() == 0 || rv > head.lastRV) && (i < 0 || !head.trySet(t, rv, i)) {
			head.set(t, rv, i)
		}
	}
	// A LIST's RV existed when the list was sent.
	nextList := 0
	raiseLists := func(t int64) {
		for _, l := range tl.listsUpTo(&nextList, t) {
			if l.rvOK {
				raise(l.end, l.rv, -1)
			}
		}
	}
	// A request's resourceVersion, answered with 200, existed when the
	// request was sent: in an audit log, whose records carry no object,
	// the RVs that clients watch and list from are all there is of the
	// head.
	requested := tl.requestedRVs()
	if tl.Metrics != nil {
		requested = tl.Metrics.raiseHead(tl, requested)
	}
	raiseRequested := func(t int64) {
		for len(requested) > 0 && requested[0].t <= t {
			raise(requested[0].t, requested[0].rv, -1)
			requested = requested[1:]
		}
	}
	// tooOld takes a too-old 410 of session s at t, whose oldest RV kept
	// was y: the head was at y at least, and its kind's floors (and its
	// server's) rise to y; ev names it (an ERROR event, or sessionFloor).
	tooOld := func(s *Session, t int64, y uint64, ev int) {
		raise(t, y, -1)
		kind := tl.Files[s.File].Kind
		f := tl.floors[kind]
		if f == nil {
			f = &floorSteps{}
			tl.floors[kind] = f
		}
		f.rise(t, y, ev)
		if s.Server >= 0 && len(tl.Servers) > 1 {
			addServerFloor(kind, s.Server, t, y, ev)
		}
	}
	// A too-old 410 that a client's own log tells, with no event of it,
	// says what a captured one says, at the session's end.
	logged := tl.loggedTooOld()
	raiseLogged := func(t int64) {
		for len(logged) > 0 && tl.Sessions[logged[0]].End <= t {
			s := &tl.Sessions[logged[0]]
			tooOld(s, s.End, s.Error.Y, sessionFloor(logged[0]))
			logged = logged[1:]
		}
	}
	tl.timeOrdered = true
	last := int64(math.MinInt64)
	for lo := 0; lo < n; lo += pauseEvery {
		pace.tick(min(pauseEvery, n-lo))
		for i := lo; i < min(lo+pauseEvery, n); i++ {
			due := int64(math.MaxInt64)
			if nextList < len(tl.lists) {
				due = tl.lists[nextList].end
			}
			if len(requested) > 0 {
				due = min(due, requested[0].t)
			}
			if len(logged) > 0 {
				due = min(due, tl.Sessions[logged[0]].End)
			}
			if i, last = tl.raiseRun(head, i, min(lo+pauseEvery, n), last, due); i == min(lo+pauseEvery, n) {
				break
			}
			typ := parser.EventType(tl.tab.typ.at(i))
			t := tl.tab.t.at(i)
			if t < last {
				tl.timeOrdered = false
			}
			last = t
			raiseLists(t)
			raiseRequested(t)
			raiseLogged(t)
			if typ == parser.Error {
				if st := tl.status[i]; st != nil && st.TooOld {
					tooOld(&tl.Sessions[tl.tab.sess.at(i)], t, st.Y, i)
				}
				continue
			}
			if tl.tab.flags.at(i)&flagRVValid != 0 {
				rv := tl.tab.rv.at(i)
				raise(t, rv, i)
				if !tl.hasRV || rv < tl.minRV {
					tl.minRV, tl.hasRV = rv, true
				}
			}
		}
	}
	raiseLists(math.MaxInt64)
	raiseRequested(math.MaxInt64)
	raiseLogged(math.MaxInt64)
}

// loggedTooOld are the sessions whose too-old 410 (with the oldest RV
// the server kept) a client's own log tells, no event holding it, in
// the order they ended.
func (tl *Timeline) loggedTooOld() []int {
	var out []int
	for g := range tl.Sessions {
		if s := &tl.Sessions[g]; s.ErrorEvent < 0 && s.Error != nil && s.Error.TooOld && s.Error.Y > 0 {
			out = append(out, g)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return tl.Sessions[out[i]].End < tl.Sessions[out[j]].End })
	return out
}

// sessionFloor is how a floor step names session g's logged 410, where
// one from a capture names its ERROR event (0 and up): below -1, which
// no event is.
func sessionFloor(g int) int { return -2 - g }

// floorError is the 410 behind a floor step's ev: its instant, its
// Status and its session, from the ERROR event or the session's log.
func (tl *Timeline) floorError(ev int32) (t int64, st *parser.Status, session int) {
	if ev <= -2 {
		g := int(-2 - ev)
		s := &tl.Sessions[g]
		return s.End, s.Error, g
	}
	e := tl.Event(int(ev))
	return e.T, e.Status, e.Session
}

// raiseRun raises the head over the events from i, up to end
// (exclusive), as buildHead's loop does an event that is no error, in
// time order from last on, before the instant due (of the next LIST's
// end or request) and whose step trySet takes. It stops at the first
// event that is otherwise, and returns it and the instant of the last
// event it took (last when none). It makes no call (see clearWalk.walk):
// most events of a capture are such.
func (tl *Timeline) raiseRun(head *stepBuilder, i, end int, last, due int64) (int, int64) {
	// The columns are copied to locals: the loop's stores (the steps')
	// might be to the table as far as the compiler knows, and it would
	// read each column's list of blocks again at every read.
	ts, typs, flags, rvs := tl.tab.t, tl.tab.typ, tl.tab.flags, tl.tab.rv
	for ; i < end; i++ {
		t := ts.at(i)
		if t < last || t >= due || parser.EventType(typs.at(i)) == parser.Error {
			break
		}
		if flags.at(i)&flagRVValid != 0 {
			rv := rvs.at(i)
			if (head.len() == 0 || rv > head.lastRV) && !head.trySet(t, rv, i) {
				break
			}
			if !tl.hasRV || rv < tl.minRV {
				tl.minRV, tl.hasRV = rv, true
			}
		}
		last = t
	}
	return i, last
}

// requestedRV is a resourceVersion a request asked for, and when.
type requestedRV struct {
	t  int64
	rv uint64
}

// requestedRVs lists, in time order, the resourceVersions of the
// requests answered with 200 of the audit logs' clients.
func (tl *Timeline) requestedRVs() []requestedRV {
	var out []requestedRV
	for _, s := range tl.Sessions {
		if !tl.Files[s.File].Audit || s.Request == nil || s.HTTPStatus != 200 {
			continue
		}
		if rv, err := strconv.ParseUint(s.Request.ResourceVersion, 10, 64); err == nil && rv > 0 {
			out = append(out, requestedRV{s.Start, rv})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].t < out[j].t })
	return out
}

// MinRV is the least resourceVersion of an event (bookmarks included,
// errors not: the first event of RVRange), found while building, where
// RVRange would sort every event to answer.
func (tl *Timeline) MinRV() (rv uint64, ok bool) { return tl.minRV, tl.hasRV }

// buildCursors walks each file's sessions and events in order, applying
// client-go's cursor rules (watch-protocol.md §3):
//   - a session whose request names a resourceVersion starts from it (the
//     bookmark-ignoring cursor only on a file's first session: on a resume
//     it keeps its own, older value, which is the point of the contrast);
//     resourceVersion "" or "0" starts with no cursor;
//   - bookmark-aware: every event and bookmark moves it, except the
//     initial burst of a sendInitialEvents stream (unordered), which ends
//     with the initial-events-end bookmark;
//   - bookmark-ignoring: ADDED, MODIFIED, DELETED (and bare objects) only,
//     in the order received;
//   - a LIST sets both to its RV at the end of its response (its last
//     page's), once read whole; its items move neither.
func (tl *Timeline) buildCursors(pace *pacer) {
	tl.Cursors = make([]Cursor, 2*len(tl.Files))
	steps := make([]*stepBuilder, len(tl.Cursors))
	next := make([]int, len(tl.Files)) // next session (position in File.Sessions) to open
	for k := range tl.Cursors {
		c := &tl.Cursors[k]
		c.File, c.Kind = k/2, CursorKind(k%2)
		c.End = tl.Files[c.File].End
		steps[k] = newStepBuilder(tl, &c.Steps)
	}
	// listEnd sets the cursors of the file as the LIST ending with the
	// file's session at pos leaves them.
	listEnd := func(file, pos int) {
		if l := tl.listEnds[tl.Files[file].Sessions[pos]]; l != nil {
			steps[2*file].set(l.end, l.rv, -1)
			steps[2*file+1].set(l.end, l.rv, -1)
		}
	}
	open := func(file, upTo int) {
		f := &tl.Files[file]
		for next[file] < len(f.Sessions) && f.Sessions[next[file]] <= upTo {
			if next[file] > 0 {
				listEnd(file, next[file]-1)
			}
			tl.openSession(steps[2*file], steps[2*file+1], file, next[file])
			next[file]++
		}
	}
	tl.unchangedSince = make([]uint64, len(tl.special))
	n, sp := tl.tab.len(), 0
	for lo := 0; lo < n; lo += pauseEvery {
		pace.tick(min(pauseEvery, n-lo))
		for i := lo; i < min(lo+pauseEvery, n); i++ {
			if i = tl.cursorsRun(steps, next, sp, i, min(lo+pauseEvery, n)); i == min(lo+pauseEvery, n) {
				break
			}
			g := int(tl.tab.sess.at(i))
			file := tl.Sessions[g].File
			open(file, g)
			typ := parser.EventType(tl.tab.typ.at(i))
			if sp < len(tl.special) && int(tl.special[sp]) == i {
				// What the stream carried before a bookmark is the
				// bookmark-aware cursor's value as the bookmark arrives.
				tl.unchangedSince[sp] = unsetRV
				if aware := steps[2*file]; typ == parser.Bookmark && aware.len() > 0 {
					tl.unchangedSince[sp] = aware.lastRV
				}
				sp++
			}
			fl := tl.tab.flags.at(i)
			if typ == parser.Error || typ == parser.Listed || fl&flagRVValid == 0 {
				continue
			}
			t, rv := tl.tab.t.at(i), tl.tab.rv.at(i)
			if aware := steps[2*file]; fl&flagInitial == 0 && !aware.trySet(t, rv, i) {
				aware.set(t, rv, i)
			}
			if ignoring := steps[2*file+1]; tl.movesIgnoring(typ, fl, g) && !ignoring.trySet(t, rv, i) {
				ignoring.set(t, rv, i)
			}
		}
	}
	for file, f := range tl.Files {
		open(file, len(tl.Sessions))
		if len(f.Sessions) > 0 {
			listEnd(file, len(f.Sessions)-1)
		}
	}
	for _, b := range steps {
		b.finish()
	}
}

// cursorsRun sets the cursors over the events from i, up to end
// (exclusive), as buildCursors' loop does while no session is to open
// (next), the event is not the special sp and trySet takes its steps.
// It stops at the first event that is otherwise, and returns it. It
// makes no call (see clearWalk.walk): most events of a capture are such.
func (tl *Timeline) cursorsRun(steps []*stepBuilder, next []int, sp, i, end int) int {
	// The columns are copied to locals: the loop's stores (the steps')
	// might be to the table as far as the compiler knows, and it would
	// read each column's list of blocks again at every read.
	sess, typs, flags, ts, rvs := tl.tab.sess, tl.tab.typ, tl.tab.flags, tl.tab.t, tl.tab.rv
	// The run ends at the special sp (which is i or later), and at the
	// first event of a session to open: which session it is, and its
	// file's cursors, are looked up when it changes (lastG), not at every
	// event, where as wasm they were a large part of the run.
	if sp < len(tl.special) {
		end = min(end, int(tl.special[sp]))
	}
	lastG := -1
	var aware, ignoring *stepBuilder
	for ; i < end; i++ {
		if g := int(sess.at(i)); g != lastG {
			file := tl.Sessions[g].File
			if ss := tl.Files[file].Sessions; next[file] < len(ss) && ss[next[file]] <= g {
				break
			}
			lastG, aware, ignoring = g, steps[2*file], steps[2*file+1]
		}
		typ := parser.EventType(typs.at(i))
		fl := flags.at(i)
		if fl&flagRVValid != stepFlags[typ] {
			continue // an error, a list's item or no RV
		}
		t, rv := ts.at(i), rvs.at(i)
		setAware, setIgnoring := fl&flagInitial == 0, tl.movesIgnoring(typ, fl, lastG)
		if setAware && !aware.takes(t) || setIgnoring && !ignoring.takes(t) {
			break
		}
		if setAware {
			aware.trySet(t, rv, i)
		}
		if setIgnoring {
			ignoring.trySet(t, rv, i)
		}
	}
	return i
}

// movesIgnoring says an event of session g moves the bookmark-ignoring
// cursor: any but a bookmark, and none of the initial events of a
// WatchList that never ended its sync (unsynced), which leave its client
// with nothing to resume from whether or not it heeds bookmarks.
func (tl *Timeline) movesIgnoring(typ parser.EventType, fl uint8, g int) bool {
	return typ != parser.Bookmark && (fl&flagInitial == 0 || !tl.unsynced(&tl.Sessions[g]))
}

// openSession sets the cursors as the session's request does: steps of no
// event.
func (tl *Timeline) openSession(aware, ignoring *stepBuilder, file, pos int) {
	s := &tl.Sessions[tl.Files[file].Sessions[pos]]
	if !s.watchStream() || s.Request == nil {
		return
	}
	rv := s.Request.ResourceVersion
	// A WatchList of a client whose records hold no events (an audit
	// log's, its own log's) ends its sync at an RV they do not show: the
	// cursor is not known from then, as after a LIST of theirs.
	if s.IsWatchList() && tl.Files[file].Audit {
		rv = ""
	}
	if rv == "" || rv == "0" {
		// A cursor already unset stays so with no step of its own: a
		// later request that names the RV (a client log's 410) is then
		// current since its Since, not since this one.
		if aware.len() == 0 || aware.lastRV != unsetRV {
			aware.set(s.Start, unsetRV, -1)
		}
		if ignoring.len() == 0 || ignoring.lastRV != unsetRV {
			ignoring.set(s.Start, unsetRV, -1)
		}
		return
	}
	v, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return
	}
	// Resuming from the value the cursor already holds is no news about
	// its freshness: keep the instant it was last confirmed. A request of
	// an audit log is the client's cursor itself, current since s.Since,
	// whatever kind of client it is.
	at := s.Start
	if s.Since != 0 {
		// The most its age can be, no older than the RV itself: a
		// client cannot have had it before etcd's revision reached it.
		at = min(max(s.Since, aware.lastT, tl.Metrics.EtcdBelow(v)+1), s.Start)
	}
	if aware.len() == 0 || aware.lastRV != v {
		aware.set(at, v, -1)
	}
	if pos == 0 || ignoring.len() == 0 || ignoring.lastRV == unsetRV || tl.Files[file].Audit && ignoring.lastRV != v {
		ignoring.set(at, v, -1)
	}
}

// At returns the cursor's value at instant t and the instant it was last
// set or confirmed (ok false when there is no cursor at t).
func (c *Cursor) At(t int64) (rv uint64, since int64, step int, ok bool) {
	k := sort.Search(c.Len(), func(i int) bool { return c.T(i) > t }) - 1
	if k < 0 {
		return 0, 0, k, false
	}
	if rv = c.RV(k); rv == unsetRV {
		return 0, 0, k, false
	}
	return rv, c.T(k), k, true
}

// kindSeries is, for one object kind, every distinct change (ADDED,
// MODIFIED, DELETED, bare object) seen in any file, in time order, with the
// running maximum RV: what the watch cache's ring buffer would hold. The
// changes are kept as their events (packed indices), whose instants the
// table holds.
type kindSeries struct {
	tab   *table
	ev    packed[int32]
	maxRV packed[uint64]
	exact bool // a file of the kind watched the whole type
	// seen are the merged intervals [from, to) during which a watch of
	// the whole type was open: there, silence means no change.
	seenFrom, seenTo []int64
}

// staleFrom returns when a cursor at rv, current at since, became stale
// for the watch cache, and from when the cache may no longer hold what a
// watch from it needs, given that it keeps every change of the last
// window: at since and window after it, unless a watch of the whole type
// was open then. In that case the cursor is stale from the first change
// past it, or when that coverage ended, whichever came first; and the
// server refuses rv once its oldest change held is past rv+1 (r <
// oldest-1), so it may once the change rv+1, where there is one, is
// older than window and a change comes to push it out: the cache evicts
// only as a change of its own type is added, so the cursor is at risk
// from the first change past rv+1 that comes once the window has passed,
// or from the coverage's end where none came before it (after which a
// change may have come unseen).
func (s *kindSeries) staleFrom(rv uint64, since, window int64, hint *searchHint, times *timeReader) (stale, risk int64) {
	k := sort.Search(len(s.seenTo), func(i int) bool { return s.seenTo[i] > since })
	if k == len(s.seenTo) || s.seenFrom[k] > since {
		return since, since + window
	}
	end := s.seenTo[k]
	stale = end
	j := hint.firstAbove(&s.maxRV, rv)
	if j < s.len() {
		stale = min(stale, times.at(s, j))
		// The change rv+1 is the one before it: every change after it
		// is past rv+1.
		if j > 0 && s.maxRV.at(j-1) == rv+1 {
			stale = min(stale, times.at(s, j-1))
		}
	}
	stale = max(stale, since)
	risk = max(stale+window, end)
	if c := s.firstAt(times, j, stale+window); c < s.len() {
		risk = min(risk, times.at(s, c))
	}
	return stale, risk
}

// firstAt returns the first change k at or after start whose instant is
// at or after t, or s.len(). It gallops forward from start: the window's
// end is mostly a few changes past the first change past the cursor.
func (s *kindSeries) firstAt(times *timeReader, start int, t int64) int {
	n := s.len()
	if start >= n || times.at(s, start) >= t {
		return start
	}
	lo, step := start, 1 // times.at(s, lo) < t
	for lo+step < n && times.at(s, lo+step) < t {
		lo += step
		step *= 2
	}
	hi := min(lo+step, n)
	lo++
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); times.at(s, m) >= t {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

func (s *kindSeries) len() int { return s.ev.len() }

// t is change k's instant.
func (s *kindSeries) t(k int) int64 { return s.tab.t.at(int(s.ev.at(k))) }

// seriesBuilder collects a kindSeries in sealed columns: a capture of
// millions of changes held 12 bytes a change in plain ones, the most the
// build held at once.
type seriesBuilder struct {
	ev    sealed[int32]
	maxRV sealed[uint64]
	last  uint64 // maxRV's last value
}

func (tl *Timeline) buildSeries(pace *pacer) {
	tl.series = map[string]*kindSeries{}
	build := map[string]*seriesBuilder{}
	files := map[string]int{}
	for _, f := range tl.Files {
		files[f.Kind]++
		s := tl.series[f.Kind]
		if s == nil {
			s = &kindSeries{tab: &tl.tab}
			tl.series[f.Kind] = s
			build[f.Kind] = &seriesBuilder{}
		}
		s.exact = s.exact || f.Broad
	}
	for _, f := range tl.Files {
		if !f.Broad {
			continue
		}
		ks := tl.series[f.Kind]
		for _, g := range f.Sessions {
			if ss := &tl.Sessions[g]; ss.watchStream() {
				ks.seenFrom = append(ks.seenFrom, ss.Start)
				ks.seenTo = append(ks.seenTo, ss.End)
			}
		}
	}
	for _, ks := range tl.series {
		ks.mergeSeen()
	}
	// Each session's series and, when several captures share its kind,
	// the RVs seen of that kind, looked up once per session rather than
	// by kind name per event.
	seen := map[string]map[uint64]struct{}{}
	sinks := make([]seriesSink, len(tl.Sessions))
	for g := range tl.Sessions {
		if !tl.Sessions[g].watchStream() {
			continue // a LIST's items are state, not changes
		}
		kind := tl.Files[tl.Sessions[g].File].Kind
		sinks[g].s = build[kind]
		if files[kind] > 1 {
			if seen[kind] == nil {
				seen[kind] = map[uint64]struct{}{}
			}
			sinks[g].seen = seen[kind]
		}
	}
	n := tl.tab.len()
	for lo := 0; lo < n; lo += pauseEvery {
		pace.tick(min(pauseEvery, n-lo))
		for i := lo; i < min(lo+pauseEvery, n); i++ {
			if i = tl.seriesRun(sinks, i, min(lo+pauseEvery, n)); i == min(lo+pauseEvery, n) {
				break
			}
			fl := tl.tab.flags.at(i)
			typ := parser.EventType(tl.tab.typ.at(i))
			if !isChange(fl, typ) {
				continue
			}
			sk := &sinks[tl.tab.sess.at(i)]
			s := sk.s
			if s == nil {
				continue
			}
			rv := tl.tab.rv.at(i)
			if sk.seen != nil {
				// The same change seen by several captures is one buffer entry.
				if _, dup := sk.seen[rv]; dup {
					continue
				}
				sk.seen[rv] = struct{}{}
			}
			rv = max(rv, s.last)
			if !s.ev.tryAdd(int32(i)) {
				s.ev.add(int32(i))
			}
			if !s.maxRV.tryAdd(rv) {
				s.maxRV.add(rv)
			}
			s.last = rv
		}
	}
	for kind, s := range build {
		ks := tl.series[kind]
		ks.ev, ks.maxRV = s.ev.seal(), s.maxRV.seal()
	}
}

// seriesSink is where buildSeries adds a session's changes: its kind's
// series and, when several captures share the kind, the RVs seen of it.
type seriesSink struct {
	s    *seriesBuilder
	seen map[uint64]struct{} // nil: the kind's only capture
}

// isChange says an event of flags fl and type typ is a change that a
// kind's series holds, when its session is a watch's stream.
//
// It is one comparison, through changeFlags: as wasm each condition of
// a chain is a branch, and the loops over every event that ask it pay
// for each.
func isChange(fl uint8, typ parser.EventType) bool {
	return fl&(flagRVValid|flagInitial) == changeFlags[typ]
}

// changeFlags is, by event type, what the flagRVValid and flagInitial
// bits of a change of that type are (flagRVValid alone), and a value
// they never are for a type that is no change.
var changeFlags = typeTable(flagRVValid, parser.Bookmark, parser.Error, parser.Listed)

// stepFlags is, by event type, what the flagRVValid bit of an event that
// steps the cursors is, and a value it never is for errors and a list's
// items (see cursorsRun).
var stepFlags = typeTable(flagRVValid, parser.Error, parser.Listed)

// typeTable is a table by event type of v, except for the types not,
// whose entry is 0xff.
func typeTable(v uint8, not ...parser.EventType) (tab [256]uint8) {
	for t := range tab {
		tab[t] = v
	}
	for _, t := range not {
		tab[t] = 0xff
	}
	return tab
}

// seriesRun adds the changes of the events from i, up to end
// (exclusive), as buildSeries' loop does while each event is no change,
// or a change of its kind's only capture that both columns' tails have
// room for. It stops at the first event that is otherwise, and returns
// it. It makes no call (see clearWalk.walk): most events of a capture
// are such.
func (tl *Timeline) seriesRun(sinks []seriesSink, i, end int) int {
	// The columns are copied to locals: the loop's stores (the series')
	// might be to the table as far as the compiler knows, and it would
	// read each column's list of blocks again at every read.
	flags, typs, sess, rvs := tl.tab.flags, tl.tab.typ, tl.tab.sess, tl.tab.rv
	// The session's sink, looked up when the session changes.
	lastG := int32(-1)
	var s *seriesBuilder
	for ; i < end; i++ {
		if !isChange(flags.at(i), parser.EventType(typs.at(i))) {
			continue
		}
		if g := sess.at(i); g != lastG {
			if sk := &sinks[g]; sk.s != nil && sk.seen != nil {
				break
			}
			lastG, s = g, sinks[g].s
		}
		if s == nil {
			continue
		}
		if len(s.ev.tail)+1 >= cap(s.ev.tail) || len(s.maxRV.tail)+1 >= cap(s.maxRV.tail) {
			break
		}
		rv := max(rvs.at(i), s.last)
		s.ev.tryAdd(int32(i))
		s.maxRV.tryAdd(rv)
		s.last = rv
	}
	return i
}

// isWatch: the session is a watch request, or, recorded without its
// request, a watch's stream.
func (s *Session) isWatch() bool {
	return s.Request != nil && s.Request.Watch || s.Request == nil && s.watchStream()
}

// watchStream: the session is a watch's stream (not a LIST, not an error
// response), as far as the capture shows.
func (s *Session) watchStream() bool {
	return (s.HTTPStatus == 0 || s.HTTPStatus == 200) && (s.Request == nil || s.Request.Watch) && s.List == nil && !s.Unanswered()
}

// Unanswered says the capture holds the request and no response: it
// never reached a server (a refused connection, a TLS handshake timeout:
// what a client retries with its backoff while a load balancer is down).
func (s *Session) Unanswered() bool {
	return s.Request != nil && s.HTTPStatus == 0 && s.List == nil && s.Events+s.Bookmarks+s.Errors == 0
}

// HeadRange is Range for the head estimate's steps (HeadSteps).
func (tl *Timeline) HeadRange(from, to int64) (lo, hi int) { return tl.head.Range(from, to) }

// LaneEvents returns the table indices of lane l's events, in order. The
// slice is the timeline's own: do not modify it.
func (tl *Timeline) LaneEvents(l int) []int32 {
	return tl.laneEv[tl.laneStart[l]:tl.laneStart[l+1]]
}

// LaneSpan returns the instants of lane l's first and last events.
func (tl *Timeline) LaneSpan(l int) (first, last int64) {
	evs := tl.LaneEvents(l)
	return tl.tab.t.at(int(evs[0])), tl.tab.t.at(int(evs[len(evs)-1]))
}

// UnchangedSince returns, for the bookmark at table index i, the
// resourceVersion its stream had carried before it: the bookmark says
// nothing the watch selects changed in (rv, the bookmark's RV]. That is
// the last RV of an event or bookmark of its watch (the initial events of
// a sendInitialEvents stream excepted: they come in no order), else the
// RV its request resumed from or its LIST ended at. ok is false when the
// stream had carried none, or i is no bookmark.
func (tl *Timeline) UnchangedSince(i int) (rv uint64, ok bool) {
	k, found := slices.BinarySearch(tl.special, int32(i))
	if !found || tl.unchangedSince[k] == unsetRV {
		return 0, false
	}
	return tl.unchangedSince[k], true
}

// Specials returns the table indices of the events that have no lane
// (bookmarks, errors), in time order. Do not modify the slice.
func (tl *Timeline) Specials() []int32 { return tl.special }

// mergeSeen sorts and merges the coverage intervals.
func (s *kindSeries) mergeSeen() {
	idx := make([]int, len(s.seenFrom))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return s.seenFrom[idx[a]] < s.seenFrom[idx[b]] })
	var from, to []int64
	for _, i := range idx {
		if n := len(to); n > 0 && s.seenFrom[i] <= to[n-1] {
			to[n-1] = max(to[n-1], s.seenTo[i])
			continue
		}
		from, to = append(from, s.seenFrom[i]), append(to, s.seenTo[i])
	}
	s.seenFrom, s.seenTo = from, to
}

// Point is the part of an event a drawing needs.
type Point struct {
	T       int64
	RV      uint64 // valid when RVValid
	RVValid bool
	Type    parser.EventType
	Lane    int32 // -1 for bookmarks and errors
	Session int32
}

// Point decodes event i without allocating (Event formats the RV string
// and looks up the Status): for loops over many events.
func (tl *Timeline) Point(i int) Point {
	t := &tl.tab
	return Point{T: t.t.at(i), RV: t.rv.at(i), RVValid: t.flags.at(i)&flagRVValid != 0,
		Type: parser.EventType(t.typ.at(i)), Lane: t.lane.at(i), Session: t.sess.at(i)}
}
