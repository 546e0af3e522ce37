package timeline

import (
	"container/heap"
	"math"
	"sort"
	"strings"

	"watchlens/parser"
)

// Builder collects the events of one or more captures (streamed, one
// event at a time, so a 1 M event file never exists as []parser.Event)
// and builds a Timeline with all files on one clock.
type Builder struct {
	tab      eventTable
	arrival  sealed[int64] // staging: parser Event.Arrival
	est      holed[int64]  // staging: parser Event.Estimated
	status   map[int]*parser.Status
	body     map[int]int64 // BodyOffset of the events read from an encoded body
	late     map[int]int64 // how much later than its first bytes an event's last are stamped, where more than LateStamp
	oddRV    map[int]string
	files    []*FileBuilder
	sessions []Session
	lanes    Lanes
	anoms    []Anomaly
	pace     pacer // set while Finish and Build run

	// anomCounts counts the anomalies found by kind, kept or not.
	anomCounts map[string]int

	// MaxEvents bounds the events kept over all files (NewBuilder sets
	// DefaultMaxEvents): Add refuses the ones past it, and stopped says
	// it did.
	MaxEvents int
	// MaxObjects bounds the distinct objects (lanes) of the captures
	// added (NewBuilder sets DefaultMaxObjects): Add refuses the event of
	// an object past it, and stoppedObjects says it did.
	MaxObjects     int
	stoppedObjects bool
	// Pause, when set, is called every 64 events AddReader reads, and
	// every few thousand items by Finish, Build and the analyses of the
	// timeline built: over a million events each takes a few hundred ms
	// as wasm, which a caller on a browser's main thread spends in slices
	// so the page can paint and take input.
	Pause func()
	// Progress, when set, hears how far AddReader has read, every 256
	// events and once it has read all it will of a capture.
	Progress func(ReadProgress)
	// Cancel, when set, is asked every 64 events AddReader reads whether
	// the caller still wants the capture: once it says so, AddReader stops
	// and returns ErrCancelled.
	Cancel  func() bool
	stopped bool

	// audit holds the list and watch requests of the audit logs added,
	// grouped into files by Build; auditLog maps a session of such a
	// file to its log.
	audit     []auditReq
	auditLogs []AuditLog
	auditLog  map[int]int
	// serverLogs are the API servers' own logs among the klogs added
	// (Timeline.ServerLogs).
	serverLogs []ServerLog
	// auditSeen finds a request of the audit logs added by its auditID:
	// its index in audit, -1 for one that is no list or watch.
	auditSeen map[string]int
	// auditKeys are the clients (groups) of those requests, which
	// MaxEvents bounds too.
	auditKeys map[groupKey]struct{}
	// auditShared is what every client of the audit logs shares.
	auditShared AuditShared
	// auditCaptured counts the audit logs' requests that a capture
	// holds too (Timeline.AuditCaptured).
	auditCaptured int
	// auditIDs finds the log of every request of the audit logs added,
	// to say which server answered a capture's (see servers.go).
	auditIDs auditIndex
	// ServerOf names the server of an audit log (by the name it was added
	// under, or its file name) where the names cannot tell: logs given one
	// name are one server's.
	ServerOf map[string]string
	// MetricsServerOf names, by an audit logs' server's name, its name in
	// the Prometheus exports, where neither the names nor the restarts
	// tell (see matchMetricServers).
	MetricsServerOf map[string]string

	// metrics are the Prometheus exports added (see AddMetrics), and
	// ServerLabel the label that names a server in them ("" picks
	// `server` when the API servers' series have one, else `instance`).
	metrics     []metricsExport
	ServerLabel string
	// klogs holds the client logs added, made files of their clients by
	// Build; LogDate is the date of their lines that write less than
	// theirs: its year that of klog's lines, which have none, and the
	// whole date that of lines that give a time of day only (zero: what
	// the log names, else the other files', else the clock's; see
	// log_date.go).
	klogs   []klogLog
	LogDate LogDate
}

// pacer calls pause, when not nil, every pauseEvery items of the loops
// that building and analysing walk: over a million events a Finish, a
// Build or an Analyze takes a few hundred ms as wasm, which a page must
// not spend in one task.
type pacer struct {
	pause func()
	n     int
}

// tick counts k items done; a nil pacer never pauses. It is small
// enough to be inlined, where a call with the pause in it is not: the
// loops of building and analysing tick at every event or step, and as
// wasm the call cost as much as many an item's own work.
func (p *pacer) tick(k int) {
	if p != nil {
		if p.n += k; p.n >= pauseEvery {
			p.due()
		}
	}
}

// due starts the count again, and pauses when the pacer has a pause. It
// is kept out of tick, whose inlining it would otherwise prevent.
//
//go:noinline
func (p *pacer) due() {
	p.n = 0
	if p.pause != nil {
		p.pause()
	}
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{status: map[int]*parser.Status{}, oddRV: map[int]string{}, body: map[int]int64{}, late: map[int]int64{}, MaxEvents: DefaultMaxEvents,
		MaxObjects: DefaultMaxObjects, auditLog: map[int]int{}}
}

// FileBuilder receives one capture's events in capture order.
type FileBuilder struct {
	b      *Builder
	idx    int
	file   File
	lo, hi int // staging index range
	// looksLike is what the file's start looks like when it is a known
	// format that is no watch record (parser.LooksLike).
	looksLike string
	// The open lane of each object: by uid (the file's lanes, from
	// laneLo), else by kind, namespace and name. Keyed by the parser's
	// (interned) strings themselves: a key built per event would be a
	// large part of Add as wasm.
	laneOfUID  uidIndex
	laneOfName map[nameKey]int32
	// laneOfIdentity finds a lane first by the parser's number for the
	// event's object (parser.Event.Identity), as index: as wasm a map
	// lookup over many objects is slow, whether keyed by the 36-byte uid
	// or by the address of its interned bytes, and a large part of adding
	// events. It holds lane+1, 0 for none; an
	// event the parser did not number goes on to laneOfUID.
	laneOfIdentity []int32
	// oneReader: the events come from one parser.Reader (readEvents),
	// whose Identity never numbers two objects alike, so that a lane
	// found by it needs no check of its uid.
	oneReader bool
	// packPlaced: the file's instants are placed in event order, and
	// packed a chunk at a time as they are (setInstant).
	packPlaced bool
	// arrived and estimated: some event has an arrival time, some an
	// estimated time (the file's clock, see place).
	arrived, estimated bool
	counts             [numTypes]int // events by type
	// spans are each session's first and last event, as add notes them
	// (first -1 for none; as long as the highest session an event
	// names), and initialEnd says an event is an initial-events-end
	// bookmark: Finish reads them rather than walk every event for them.
	spans      []sessionSpan
	initialEnd bool
	kinds      map[string]*kindCounts
	lastKind   *kindCounts // of the last event with a kind
	finished   bool

	// stopped: an event was refused for Builder.MaxEvents, the first at
	// stoppedAt (its offset).
	stopped   bool
	stoppedAt int64
	// stoppedObjects: that event was of an object past MaxObjects.
	stoppedObjects bool
	// stoppedInput: the bytes of its input AddReader had read by then.
	stoppedInput int64
	// kindHint is the file's kind when no event names one (a client
	// from audit logs).
	kindHint string
	// laneLo is the first lane the file can make: the lanes of earlier
	// files come before it.
	laneLo int
	// lateStamps tallies the events placed at their first bytes' time.
	lateStamps lateStamps
}

// sessionSpan is a session's first and last event.
type sessionSpan struct{ first, last int32 }

// noteSession notes that event i is of the file's session k, and says
// whether it did: a session past the spans noted so far is newSpans's.
// It is small enough to be inlined in add.
func (f *FileBuilder) noteSession(k int32, i int) bool {
	if uint32(k) >= uint32(len(f.spans)) {
		return false
	}
	sp := &f.spans[k]
	if sp.first < 0 {
		sp.first = int32(i)
	}
	sp.last = int32(i)
	return true
}

// newSpans notes that event i is of the file's session k, past the
// spans noted so far. add calls it once a session, and inlined it would
// only make add larger.
//
//go:noinline
func (f *FileBuilder) newSpans(k int32, i int) {
	if k < 0 {
		return
	}
	for len(f.spans) < int(k) {
		f.spans = append(f.spans, sessionSpan{first: -1, last: -1})
	}
	f.spans = append(f.spans, sessionSpan{first: int32(i), last: int32(i)})
}

// numTypes bounds parser.EventType's values.
const numTypes = int(parser.Listed) + 1

// kindCounts counts the events of one kind by type.
type kindCounts struct {
	kind   string
	counts [numTypes]int
}

// AddFile starts a new capture named name (shown in reports).
func (b *Builder) AddFile(name string) *FileBuilder {
	f := &FileBuilder{b: b, idx: len(b.files), lo: b.tab.len(), laneLo: b.lanes.Len(),
		laneOfName: map[nameKey]int32{}, kinds: map[string]*kindCounts{},
		file: File{Name: name, Counts: map[string]int{}, CountsKind: map[string]map[string]int{}}}
	b.files = append(b.files, f)
	return f
}

// AddCapture adds a whole parsed capture as one file.
func (b *Builder) AddCapture(name string, c *parser.Capture) {
	f := b.AddFile(name)
	for _, ev := range c.Events {
		f.Add(ev)
	}
	f.Finish(c.Sessions, c.Diagnostics)
}

// Add appends the next event of the file and says whether it did: once
// the Builder holds MaxEvents, or MaxObjects and the event is of a new
// object, it keeps no more, and the caller stops reading. Events of one file must come in capture order, and no other
// file may be added to in between.
func (f *FileBuilder) Add(ev parser.Event) bool { return f.add(&ev) }

// add is Add of an event in place: readEvents passes the Reader's own
// (parser.Reader.Current), which as wasm saves copying its 216 bytes
// several times an event.
func (f *FileBuilder) add(ev *parser.Event) bool {
	b := f.b
	i := b.tab.len()
	if i >= b.MaxEvents {
		f.stop(ev)
		return false
	}
	lane := int32(-1)
	switch ev.Type {
	case parser.Added, parser.Modified, parser.Deleted, parser.Observed, parser.Listed, parser.TypeUnknown:
		// Most events are of an object seen already, which the parser's
		// number finds, and whose lane lane would leave as it is: open,
		// of the event's labels (interned: the same string), and the
		// event no DELETED. Such a lane is found here, with one read of
		// its record: as wasm the call of lane, with all it keeps for a
		// new object, costs more. (laneOfIdentity[0] is 0: the parser
		// numbers objects from 1.)
		if k := int(ev.Identity); k < len(f.laneOfIdentity) && f.oneReader && ev.UID != "" && ev.Type != parser.Deleted {
			if id := f.laneOfIdentity[k] - 1; id >= 0 {
				if r := b.lanes.recs.at(int(id)); !r.deleted() && (ev.Labels == "" || sameAddress(b.lanes.labels[r.labels], ev.Labels)) {
					lane = id
					break
				}
			}
		}
		var kept bool
		if lane, kept = f.lane(ev, i); !kept {
			if !f.stopped {
				b.stoppedObjects, f.stoppedObjects = true, true
			}
			f.stop(ev)
			return false
		}
	}
	var flags uint8
	if ev.RVValid {
		flags |= flagRVValid
	}
	if ev.InitialEventsEnd {
		flags |= flagInitialEnd
		f.initialEnd = true
	}
	length := uint32(math.MaxUint32)
	if ev.Length >= 0 && ev.Length < math.MaxUint32 {
		length = uint32(ev.Length)
	}
	b.tab.addRow(ev.RVNum, lane, int32(ev.Session), ev.Offset, length, uint8(ev.Type), flags)
	if !f.noteSession(int32(ev.Session), i) {
		f.newSpans(int32(ev.Session), i)
	}
	at := ev.Arrival
	if ev.Began != 0 && ev.Arrival-ev.Began > int64(LateStamp) {
		// Placed when its first bytes came (LateStamp).
		at = ev.Began
		b.late[i] = ev.Arrival - ev.Began
		f.lateStamps.note(ev)
	}
	if !b.arrival.tryAdd(at) {
		b.arrival.add(at)
	}
	if !b.est.tryAdd(ev.Estimated) {
		b.est.add(ev.Estimated)
	}
	f.arrived = f.arrived || ev.Arrival != 0
	f.estimated = f.estimated || ev.Estimated != 0
	if ev.Status != nil {
		b.status[i] = ev.Status
	}
	if ev.Encoded {
		b.body[i] = ev.BodyOffset
	}
	// An RV the parser read as a number is decimal digits only
	// (strconv.ParseUint), so it reads back as sent unless it has a
	// leading zero; formatting it again to compare would cost every Add.
	if ev.RV != "" && (!ev.RVValid || ev.RV[0] == '0' && len(ev.RV) > 1) {
		b.oddRV[i] = ev.RV
	}
	// Counted in arrays, made maps by Finish: four map updates by name
	// per event are slow as wasm. Events of one kind come in
	// runs, and the parser interns kinds, so the comparison is cheap.
	typ := ev.Type
	if int(typ) >= numTypes {
		typ = parser.TypeUnknown // as String names it
	}
	f.counts[typ]++
	if ev.Kind != "" {
		if f.lastKind == nil || !sameString(ev.Kind, f.lastKind.kind) {
			f.lastKind = f.kinds[ev.Kind]
			if f.lastKind == nil {
				f.lastKind = &kindCounts{kind: ev.Kind}
				f.kinds[ev.Kind] = f.lastKind
			}
		}
		f.lastKind.counts[typ]++
	}
	f.file.Events++
	f.hi = i + 1
	return true
}

// lane returns the lane of an object event, opening a new one for a new
// object or a re-created name; kept is false when that would be past
// MaxObjects.
func (f *FileBuilder) lane(ev *parser.Event, i int) (lane int32, kept bool) {
	if ev.UID == "" && ev.Name == "" {
		return -1, true
	}
	var id int32
	var ok, byIdentity bool // byIdentity: found by the parser's number, which holds it already
	var uidHash uint64      // of ev.UID's key, once looked up in laneOfUID
	var keyBuf [uuidBytes]byte
	var uuid []byte // the 16 bytes of ev.UID, once looked up, when it is a UUID
	if ev.UID != "" {
		if k := int(ev.Identity); k > 0 && k < len(f.laneOfIdentity) && f.laneOfIdentity[k] > 0 {
			id, ok = f.laneOfIdentity[k]-1, true
			// Events added one by one may come from several Readers,
			// whose numbers are unrelated.
			ok = f.oneReader || f.b.lanes.hasUID(id, ev.UID)
			byIdentity = ok
		}
		if !ok {
			key, packed := uidKey(keyBuf[:], ev.UID)
			var k int32
			k, ok, uidHash = f.laneOfUID.find(&f.b.lanes, f.laneLo, key, packed)
			id = int32(f.laneLo) + k
			if packed {
				uuid = key
			}
		}
	} else {
		id, ok = f.laneOfName[nameKey{ev.Kind, ev.Namespace, ev.Name}]
	}
	b := f.b
	if ok && b.lanes.deleted(id) {
		// A uid never comes back; a name may, but only as a creation.
		if ev.UID == "" && (ev.Type == parser.Added || ev.Type == parser.Observed || ev.Type == parser.Listed) {
			ok = false
		} else if b.noteAnomaly("after-delete") {
			b.anoms = append(b.anoms, Anomaly{Kind: "after-delete", File: f.idx, Event: i,
				Msg: ev.Type.String() + " for " + objName(ev.Namespace, ev.Name) + " after its DELETED"})
		}
	}
	if !ok {
		if b.lanes.Len() >= b.MaxObjects {
			return -1, false
		}
		id = b.lanes.add(f.idx, ev.Kind, ev.Namespace, ev.Name, ev.UID, uuid, ev.Labels)
		f.laneOfUID.add(id-int32(f.laneLo), ev.UID, uidHash)
		if ev.UID == "" {
			f.laneOfName[nameKey{ev.Kind, ev.Namespace, ev.Name}] = id
		}
	}
	if ev.UID != "" && ev.Identity > 0 && !byIdentity {
		f.setIdentityLane(ev.Identity, id)
	}
	if ev.Type == parser.Deleted {
		b.lanes.setDeleted(id)
	}
	if ev.Labels != "" && !b.lanes.hasLabels(id, ev.Labels) {
		b.lanes.setLabels(id, ev.Labels)
	}
	return id, true
}

func (f *FileBuilder) setIdentityLane(identity uint32, lane int32) {
	k := int(identity)
	if k >= len(f.laneOfIdentity) {
		// Grown by doubling, not to k: most events of a busy capture are
		// of a new object, the next number, and writing the grown slice
		// at each (a pointer) costs a write barrier as wasm.
		grown := make([]int32, max(k+1, 2*len(f.laneOfIdentity), 1024))
		copy(grown, f.laneOfIdentity)
		f.laneOfIdentity = grown
	}
	f.laneOfIdentity[k] = lane + 1
}

// nameKey names an object without a uid.
type nameKey struct{ kind, ns, name string }

func objName(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

// Finish ends the file with the reader's sessions and diagnostics, and
// places its events on the clock.
func (f *FileBuilder) Finish(sessions []parser.Session, diags []parser.Diagnostic) {
	if f.finished {
		return
	}
	f.finished = true
	f.laneOfUID, f.laneOfName, f.laneOfIdentity = uidIndex{}, nil, nil
	b := f.b
	b.pace = pacer{pause: b.Pause}
	defer func() { b.pace = pacer{} }()
	f.file.Diagnostics = f.withStop(diags)
	if d, ok := f.lateStamps.doubt(); ok {
		f.file.Diagnostics = append(f.file.Diagnostics, d)
	}
	for typ, n := range f.counts {
		if n > 0 {
			f.file.Counts[parser.EventType(typ).String()] += n
		}
	}
	// The file's kind is the one most of its events carry, a LIST
	// response (ConfigMapList) counting for its items' kind.
	votes := map[string]int{}
	for k, kc := range f.kinds {
		byType := map[string]int{}
		n := 0
		for typ, c := range kc.counts {
			if c > 0 {
				byType[parser.EventType(typ).String()] += c
				if parser.EventType(typ) != parser.Error {
					n += c
				}
			}
		}
		f.file.CountsKind[k] = byType
		if item, ok := strings.CutSuffix(k, "List"); ok && item != "" {
			k = item
		}
		votes[k] += n
	}
	best := 0
	for k, n := range votes {
		if n > best || (n == best && k < f.file.Kind) {
			f.file.Kind, best = k, n
		}
	}
	if f.file.Kind == "" {
		f.file.Kind = f.kindHint
	}
	// Events may name sessions the reader did not report (a reader that
	// stopped early): give them empty records so every index resolves.
	nsess := max(len(sessions), len(f.spans))
	base := len(b.sessions)
	for k := 0; k < nsess; k++ {
		s := Session{File: f.idx, Index: k, ErrorEvent: -1, Gap: -1, firstEv: -1, lastEv: -1}
		if k < len(f.spans) {
			s.firstEv, s.lastEv = int(f.spans[k].first), int(f.spans[k].last)
		}
		if k < len(sessions) {
			ps := sessions[k]
			s.Request, s.HTTPStatus, s.StatusText, s.Status, s.TransportError = ps.Request, ps.HTTPStatus, ps.StatusText, ps.Status, ps.TransportError
			s.Truncated, s.Offset, s.EndOffset, s.List = ps.Truncated, ps.Offset, ps.End, ps.List
			s.Start, s.End = ps.StartArrival, ps.EndArrival
			s.Date = dateHeader(ps.Headers)
			s.auditID = ps.AuditID
		}
		f.file.Sessions = append(f.file.Sessions, base+k)
		b.sessions = append(b.sessions, s)
	}
	f.spans = nil
	b.tab.sess.shift(f.lo, f.hi, int32(base))
	b.tab.sess.pack(f.lo, f.hi)
	f.file.Filtered = filterScope(b.sessions[base:])
	f.markInitial(base)
	f.place(base)
	b.tab.flags.pack(f.lo, f.hi) // markInitial and place set some
	f.sessionFacts(base)
	if !f.file.Audit { // a client from audit logs shows no events to judge
		f.anomalies(base)
	}
}

// inferBroad sets each file's Broad (see File.Broad).
func (tl *Timeline) inferBroad() {
	first := make([]string, len(tl.Files))
	several := make([]bool, len(tl.Files))
	// A lane of a scope with a namespace, once one of its lanes is
	// checked, changes nothing: its file's first namespace is set by
	// then, and compares as it did. Those are skipped, which spares most
	// lanes a comparison of strings (a call, as wasm).
	done := make([]bool, len(tl.Lanes.scopes))
	for l := range tl.Lanes.Len() {
		id := tl.Lanes.recs.at(l).scope
		if done[id] {
			continue
		}
		sc := &tl.Lanes.scopes[id]
		done[id] = sc.namespace != ""
		switch {
		case first[sc.file] == "":
			first[sc.file] = sc.namespace
		case sc.namespace != first[sc.file]:
			several[sc.file] = true
		}
	}
	for i := range tl.Files {
		f := &tl.Files[i]
		f.BroadInferred = f.Filtered == "unknown" && several[i]
		// A client from audit logs saw every change but shows none.
		f.Broad = (f.Filtered == "unfiltered" || f.BroadInferred) && !f.Audit
	}
}

// filterScope says whether the file's watch saw the whole resource type.
func filterScope(ss []Session) string {
	scope := "unknown"
	for _, s := range ss {
		r := s.Request
		if r == nil {
			continue
		}
		if r.LabelSelector != "" || r.FieldSelector != "" || containsSeg(r.Path, "namespaces") {
			return "filtered"
		}
		scope = "unfiltered"
	}
	return scope
}

func containsSeg(path, seg string) bool {
	for i := 0; i+len(seg) <= len(path); i++ {
		if path[i:i+len(seg)] == seg && (i == 0 || path[i-1] == '/') && (i+len(seg) == len(path) || path[i+len(seg)] == '/') {
			return true
		}
	}
	return false
}

// markInitial flags the initial burst of sendInitialEvents streams: the
// events before the initial-events-end bookmark, which are not in RV order
// and must not move the resume cursor (watch-protocol.md §1 BOOKMARK).
func (f *FileBuilder) markInitial(base int) {
	b := f.b
	for g := base; g < len(b.sessions); g++ {
		s := &b.sessions[g]
		if s.firstEv < 0 {
			continue
		}
		end := -1
		for i := s.firstEv; f.initialEnd && i <= s.lastEv; i++ {
			if b.tab.flags.at(i)&flagInitialEnd != 0 {
				end = i
				break
			}
			b.pace.tick(1)
		}
		asked := s.Request != nil && s.Request.SendInitialEvents
		if end < 0 && !asked {
			continue
		}
		// Without the bookmark that ends them, the initial events run on
		// into the live changes after them, and the client never takes
		// either for its state: every event is of the burst, but the
		// state it streamed is its leading ADDED events (the server sends
		// the initial state as ADDED), not the MODIFIED ones after.
		state := true
		if end < 0 {
			end = s.lastEv + 1
			state = false
		}
		leading := true
		for i := s.firstEv; i < end; i++ {
			typ := parser.EventType(b.tab.typ.at(i))
			if typ != parser.Bookmark && typ != parser.Error {
				b.tab.flags.set(i, b.tab.flags.at(i)|flagInitial)
				leading = leading && typ == parser.Added
				if state || leading {
					s.InitialEvents++
					s.InitialBytes += int64(b.tab.length.at(i))
				}
			}
			b.pace.tick(1)
		}
	}
}

// sessionFacts fills counts, first/last RV and how each session ended.
func (f *FileBuilder) sessionFacts(base int) {
	b := f.b
	ss := b.sessions[base:]
	for k := range ss {
		s := &ss[k]
		if k > 0 {
			s.Gap = s.Start - ss[k-1].End
		}
		if s.List != nil {
			// A list's items come in no RV order: its own RV is the one
			// seen.
			s.FirstRV, s.LastRV = s.List.RV, s.List.RV
		}
		if s.firstEv < 0 {
			continue
		}
		// Only the first and last RVs are kept: formatting every event's
		// costs more than the rest of the loop.
		firstRV, lastRV := -1, -1
		for i := s.firstEv; i <= s.lastEv; i++ {
			var j int
			j, firstRV, lastRV = b.tab.factsRun(s, i, min(s.lastEv+1, i+pauseEvery), firstRV, lastRV, len(b.oddRV) > 0)
			b.pace.tick(j - i)
			if i = j; i > s.lastEv {
				break
			}
			b.pace.tick(1)
			switch parser.EventType(b.tab.typ.at(i)) {
			case parser.Bookmark:
				s.Bookmarks++
				if b.tab.flags.at(i)&flagInitialEnd != 0 && s.InitialEventsEnd == 0 {
					s.InitialEventsEnd = b.tab.t.at(i)
				}
			case parser.Error:
				s.Errors++
				continue
			case parser.Listed:
				s.Events++
				continue
			default:
				s.Events++
			}
			if b.hasRV(i) {
				if firstRV < 0 {
					firstRV = i
				}
				lastRV = i
			}
		}
		if firstRV >= 0 {
			s.FirstRV, s.LastRV = b.rvString(firstRV), b.rvString(lastRV)
		}
		if parser.EventType(b.tab.typ.at(s.lastEv)) == parser.Error {
			s.Error = b.status[s.lastEv]
			s.ErrorEvent = s.lastEv
		}
	}
	for k := range ss {
		s := &ss[k]
		switch {
		case s.HTTPStatus != 0 && s.HTTPStatus != 200:
			s.EndReason = EndHTTPError
		case s.Error != nil:
			s.EndReason = EndError
		case s.Truncated && k+1 < len(ss):
			s.EndReason = EndNewResponse
		case s.Truncated:
			s.EndReason = EndCutOff
		case s.Request != nil && s.Request.TimeoutSeconds > 0 && atDeadline(s, f.file.Clock):
			s.EndReason = EndDeadline
		default:
			s.EndReason = EndEOF
		}
	}
	for _, s := range ss {
		if s.FirstRV != "" && f.file.FirstRV == "" {
			f.file.FirstRV = s.FirstRV
		}
		if s.LastRV != "" {
			f.file.LastRV = s.LastRV
		}
	}
	if len(ss) > 0 {
		f.file.Start, f.file.End = ss[0].Start, ss[len(ss)-1].End
	}
}

// factsRun counts the events of session s from i up to end (exclusive)
// as sessionFacts's loop does, and notes its first and last events with
// an RV, while each is a watch event or a bookmark with an RV that is a
// number (or, with no odd RV in the capture, none) and no
// initial-events-end bookmark; it returns the first event that is
// otherwise (end for none), which sessionFacts's loop takes. It makes
// no call: as wasm a loop that makes any, even on a branch rarely taken,
// is several times slower (see clearWalk.walk).
func (e *eventTable) factsRun(s *Session, i, end, firstRV, lastRV int, odd bool) (int, int, int) {
	events, bookmarks := s.Events, s.Bookmarks
	for ; i < end; i++ {
		typ, fl := parser.EventType(e.typ.at(i)), e.flags.at(i)
		if typ == parser.Error || typ == parser.Listed || fl&flagRVValid == 0 && odd ||
			typ == parser.Bookmark && fl&flagInitialEnd != 0 {
			break
		}
		if typ == parser.Bookmark {
			bookmarks++
		} else {
			events++
		}
		if fl&flagRVValid != 0 {
			if firstRV < 0 {
				firstRV = i
			}
			lastRV = i
		}
	}
	s.Events, s.Bookmarks = events, bookmarks
	return i, firstRV, lastRV
}

// atDeadline: a clean end from 10 ms before timeoutSeconds to 2 s after
// it is the server deadline. The server's timer starts once it serves the watch, after
// the client sent it, so a clean end before it is something else: the
// samples' earlier ones, 0.5-1.7 s before it, are the server shutting
// down and ending every watch (samples-watchlist's c035 at c's
// "Terminating all watchers"). A few milliseconds before it are the
// clock's grain.
func atDeadline(s *Session, c Clock) bool {
	if c != ClockArrival {
		// Estimated clocks placed the end at the deadline (clock.go).
		return s.End-s.Start == int64(s.Request.TimeoutSeconds)*1e9
	}
	d := s.End - s.Start - int64(s.Request.TimeoutSeconds)*1e9
	return d > -deadlineGrain && d < 2e9
}

// deadlineGrain is how far before its deadline a watch's clean end still
// counts as the deadline's.
const deadlineGrain = 10e6

// hasRV says whether rvString(i) is not empty.
func (b *Builder) hasRV(i int) bool {
	if b.tab.flags.at(i)&flagRVValid != 0 {
		return true
	}
	_, odd := b.oddRV[i]
	return odd
}

func (b *Builder) rvString(i int) string {
	return rvString(b.oddRV, i, b.tab.flags.at(i), b.tab.rv.at(i))
}

// Build merges the files on one clock and computes lanes, head, cursors
// and the series the window models need. The Builder must not be used
// afterwards.
func (b *Builder) Build() *Timeline {
	b.groupAudit()
	b.addKlogClients()
	for _, f := range b.files {
		f.Finish(nil, nil)
	}
	b.pace = pacer{pause: b.Pause}
	pace := &b.pace
	tl := &Timeline{pause: b.Pause, Sessions: b.sessions, status: b.status, oddRV: b.oddRV, body: b.body, late: b.late, AuditLogs: b.auditLogs, auditLog: b.auditLog}
	tl.Metrics = b.buildMetrics()
	b.arrival, b.est = sealed[int64]{}, holed[int64]{}
	if len(b.files) > 1 {
		order := b.mergeOrder(pace)
		inv := make([]int32, len(order))
		for n, i := range order {
			inv[i] = int32(n)
		}
		b.tab = b.tab.permute(order, pace)
		remap := func(i int) int {
			if i < 0 {
				return i
			}
			return int(inv[i])
		}
		tl.status = map[int]*parser.Status{}
		for i, s := range b.status {
			tl.status[remap(i)] = s
		}
		tl.oddRV = map[int]string{}
		for i, s := range b.oddRV {
			tl.oddRV[remap(i)] = s
		}
		tl.body = map[int]int64{}
		for i, off := range b.body {
			tl.body[remap(i)] = off
		}
		tl.late = map[int]int64{}
		for i, d := range b.late {
			tl.late[remap(i)] = d
		}
		for k := range b.anoms {
			b.anoms[k].Event = remap(b.anoms[k].Event)
		}
		for k := range tl.Sessions {
			tl.Sessions[k].ErrorEvent = remap(tl.Sessions[k].ErrorEvent)
		}
	}
	for i, f := range b.files {
		tl.Files = append(tl.Files, f.file)
		if f.looksLike != "" {
			if tl.looksLike == nil {
				tl.looksLike = map[int]string{}
			}
			tl.looksLike[i] = f.looksLike
		}
	}
	b.groupServers(tl)
	b.matchMetricServers(tl)
	tl.AuditCaptured, tl.AuditShared, tl.ServerLogs = b.auditCaptured, b.auditShared, b.serverLogs
	tl.setClosings()
	tl.renumberLanes(&b.tab, &b.lanes, len(b.files) == 1, pace)
	tl.inferBroad()
	tl.noteCopies()
	// The Audit-Ids have said which server answered each session
	// (groupServers) and which captures hold one response (noteCopies).
	for k := range tl.Sessions {
		tl.Sessions[k].auditID = ""
	}
	tl.tab = b.tab.pack(pace)
	tl.buildLists()
	sort.SliceStable(b.anoms, func(i, j int) bool { return b.anoms[i].T < b.anoms[j].T })
	tl.Anomalies = b.anoms
	tl.AnomalyCounts = b.anomCounts
	tl.buildHead(pace)
	tl.buildCursors(pace)
	tl.buildSeries(pace)
	b.pace = pacer{}
	return tl
}

// mergeOrder k-way merges the files' (time-ordered) events by instant.
func (b *Builder) mergeOrder(pace *pacer) []int32 {
	// A heap of the files' next events, by instant, ties to the earlier
	// file: a fleet or a split capture merges thousands of files, where
	// scanning every file for each event was quadratic.
	var h mergeHeap
	for k, f := range b.files {
		if f.lo < f.hi {
			h.heads = append(h.heads, mergeHead{file: k, pos: f.lo, t: b.tab.t.at(f.lo)})
		}
	}
	heap.Init(&h)
	order := make([]int32, 0, b.tab.len())
	for len(h.heads) > 0 {
		top := &h.heads[0]
		order = append(order, int32(top.pos))
		if top.pos++; top.pos < b.files[top.file].hi {
			top.t = b.tab.t.at(top.pos)
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
		pace.tick(1)
	}
	return order
}

// mergeHead is a file's next event in the merge.
type mergeHead struct {
	file, pos int
	t         int64
}

// mergeHeap orders the files' next events by instant, then file.
type mergeHeap struct{ heads []mergeHead }

func (h *mergeHeap) Len() int { return len(h.heads) }
func (h *mergeHeap) Less(i, j int) bool {
	a, c := &h.heads[i], &h.heads[j]
	return a.t < c.t || a.t == c.t && a.file < c.file
}
func (h *mergeHeap) Swap(i, j int) { h.heads[i], h.heads[j] = h.heads[j], h.heads[i] }
func (h *mergeHeap) Push(x any)    { h.heads = append(h.heads, x.(mergeHead)) }
func (h *mergeHeap) Pop() any {
	x := h.heads[len(h.heads)-1]
	h.heads = h.heads[:len(h.heads)-1]
	return x
}

// renumbered returns the lane column with each lane l as newID[l],
// releasing the old column's chunks as it goes.
func renumbered(lane *staged[int32], newID []int32, pace *pacer) staged[int32] {
	var out staged[int32]
	for i := range lane.len() {
		l := lane.at(i)
		if l >= 0 {
			l = newID[l]
		}
		out.add(l)
		if i&chunkMask == chunkMask {
			lane.drop(i >> chunkBits)
		}
		pace.tick(1)
	}
	return out
}

// renumberLanes orders lanes by first appearance on the shared clock, so
// a contiguous range of lane numbers is a band of the drawing. inOrder
// says they are in that order already: a lane is made at its first
// event, so one file's, whose events are not merged with another's,
// are numbered as they first appear, each with an event.
func (tl *Timeline) renumberLanes(tab *eventTable, old *Lanes, inOrder bool, pace *pacer) {
	n := tab.len()
	if inOrder {
		// laneStart[l+1] counts lane l's events first, then is summed.
		tl.laneStart = make([]int32, old.Len()+1)
		for lo := 0; lo < n; lo += pauseEvery {
			for i := lo; i < min(lo+pauseEvery, n); i++ {
				if l := tab.lane.at(i); l >= 0 {
					tl.laneStart[l+1]++
				}
			}
			pace.tick(min(pauseEvery, n-lo))
		}
		tl.Lanes = old.renumber(nil, pace)
		tl.indexLanes(tab, old.Len(), pace)
		return
	}
	newID := make([]int32, old.Len())
	for i := range newID {
		newID[i] = -1
	}
	// Every lane appears: order has room for them all, and the loops
	// below, over every event, make no call but to pause between runs of
	// them (as wasm, a loop with a call in it keeps its values in
	// memory).
	order := make([]int32, 0, old.Len())
	// laneStart[id+1] counts lane id's events first, then is summed.
	tl.laneStart = make([]int32, old.Len()+1)
	for lo := 0; lo < n; lo += pauseEvery {
		for i := lo; i < min(lo+pauseEvery, n); i++ {
			l := tab.lane.at(i)
			if l < 0 {
				continue
			}
			id := newID[l]
			if id < 0 {
				id = int32(len(order))
				newID[l] = id
				order = order[:id+1]
				order[id] = l
			}
			tl.laneStart[id+1]++
		}
		pace.tick(min(pauseEvery, n-lo))
	}
	// One file's lanes are numbered as they first appear already: the
	// event table and the lanes then stay as they are.
	same := len(order) == old.Len()
	for k, l := range order {
		if !same || l != int32(k) {
			same = false
			break
		}
	}
	if same {
		tl.Lanes = old.renumber(nil, pace)
	} else {
		tab.lane = renumbered(&tab.lane, newID, pace)
		tl.Lanes = old.renumber(order, pace)
	}
	tl.indexLanes(tab, len(order), pace)
}

// indexLanes indexes each lane's events (4 bytes per event), whose
// counts laneStart holds (lane l's at l+1), and keeps bookmarks and
// errors apart: drawing a band of lanes then touches only their events.
func (tl *Timeline) indexLanes(tab *eventTable, lanes int, pace *pacer) {
	n := tab.len()
	tl.laneStart = tl.laneStart[:lanes+1]
	for k := range lanes {
		tl.laneStart[k+1] += tl.laneStart[k]
	}
	tl.laneEv = make([]int32, tl.laneStart[lanes])
	tl.special = make([]int32, n-len(tl.laneEv))
	fill := append([]int32(nil), tl.laneStart[:lanes]...)
	sp := 0
	for lo := 0; lo < n; lo += pauseEvery {
		for i := lo; i < min(lo+pauseEvery, n); i++ {
			if l := tab.lane.at(i); l >= 0 {
				tl.laneEv[fill[l]] = int32(i)
				fill[l]++
			} else {
				tl.special[sp] = int32(i)
				sp++
			}
		}
		pace.tick(min(pauseEvery, n-lo))
	}
}
