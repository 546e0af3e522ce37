package timeline

import (
	"path"
	"strconv"

	"watchlens/parser"
)

// Clock says how a file's instants were obtained.
type Clock uint8

const (
	// ClockNone: the capture carries no time at all; instants are event
	// ordinals (1 ns apart) and every time-based model answers "unknown".
	ClockNone Clock = iota
	// ClockEstimated: no arrival times; instants come from each response's
	// HTTP Date header (1 s resolution), the objects' managedFields times
	// (1 s), the request's timeoutSeconds (server deadline), and for
	// bookmarks the cacher's 60 s cadence (see clock.go).
	ClockEstimated
	// ClockArrival: the capture recorded each line's arrival time.
	ClockArrival
)

var clockNames = [...]string{"none", "estimated", "arrival"}

func (c Clock) String() string { return clockNames[c] }

// CursorKind names the two client behaviours the timeline contrasts.
type CursorKind uint8

const (
	// BookmarkAware is client-go's lastSyncResourceVersion: moved by every
	// event and bookmark, frozen during a sendInitialEvents burst.
	BookmarkAware CursorKind = iota
	// BookmarkIgnoring keeps the RV of the last ADDED/MODIFIED/DELETED seen.
	BookmarkIgnoring
	// HadBookmarks is the counterfactual: the bookmark-aware cursor of a
	// client that asked for bookmarks where the recorded one did not
	// (Analysis.HadBookmarks).
	HadBookmarks
)

// CursorKinds lists the two recorded kinds in report order (each file has
// both in Timeline.Cursors).
var CursorKinds = [...]CursorKind{BookmarkAware, BookmarkIgnoring}

var cursorKindNames = [...]string{"bookmark-aware", "bookmark-ignoring", "had-bookmarks"}

func (k CursorKind) String() string { return cursorKindNames[k] }

var cursorKindWords = [...]string{"with the bookmarks it received", "ignoring bookmarks", "had it asked for bookmarks"}

// Words names the cursor as the summary and the page say it, beside a
// verdict: "with the bookmarks it received", "ignoring bookmarks", "had it asked for
// bookmarks".
func (k CursorKind) Words() string { return cursorKindWords[k] }

// EndReason is how a watch connection ended.
type EndReason uint8

const (
	EndEOF         EndReason = iota // clean end of stream (zero chunk, or end of a body without HTTP framing)
	EndDeadline                     // clean end at the request's timeoutSeconds (the server deadline)
	EndError                        // an ERROR event was the last thing sent
	EndCutOff                       // the capture stops mid-stream
	EndNewResponse                  // cut off mid-stream and a new response follows
	EndHTTPError                    // the response was not a 200 (a Status body, e.g. a LIST's 410)
)

var endNames = [...]string{"eof", "deadline", "error", "cut-off", "new-response", "http-error"}

func (r EndReason) String() string { return endNames[r] }

// File is one loaded capture.
type File struct {
	Name  string
	Clock Clock
	// Kind is the object kind the file's watch carries (most frequent).
	Kind string
	// Filtered is "unfiltered" (whole resource type, cluster-wide),
	// "filtered" (namespace, label or field selector) or "unknown" (no
	// request line): the count model is exact only for unfiltered captures.
	Filtered string
	// Broad says the capture saw every change of its resource type: its
	// request had no selector and no namespace, or (BroadInferred) it has
	// no request line and holds objects of several namespaces, as a watch
	// of the whole type does and a namespaced or narrow one cannot.
	Broad, BroadInferred bool
	Sessions             []int // global session indices, in order
	Events               int
	Counts               map[string]int            // by event type
	CountsKind           map[string]map[string]int // by kind, then event type
	Diagnostics          []parser.Diagnostic
	Start, End           int64
	FirstRV              string
	LastRV               string
	// Audit says the file is a client's requests read from audit logs,
	// or (Log) from its own log: sessions without events. Client names
	// the client: the User-Agent of its requests ("" when none was
	// captured), or its name in its log.
	Audit  bool
	Client string
	// Loopback says the client is an API server's own (its audit user is
	// system:apiserver): its informers feed that server, and the fleet
	// leaves them out of the clients it counts.
	Loopback bool
	// Log names the client log that holds the file's client (see
	// Builder.AddKlog): the file was read from it (Audit is set), or it
	// is the client's capture, joined with its log; "" otherwise.
	Log string
	// LogJoined names, for a client of the audit logs, the client log
	// (client-go's klog, kube-rs', fabric8's, Python's) that shows its
	// requests at the same instants: the same client, read from the
	// audit logs, whose Library the log names; "" otherwise. LogClient
	// is its name in a klog (its client="..." key, else its reflector
	// and type).
	LogJoined, LogClient string
	// Library is the client library whose log (not client-go's) the
	// file was read from or joined with: "kube-rs", "fabric8", "python";
	// "" otherwise.
	Library string
	// SplitOf names the capture this file is a virtual client of (see
	// Builder.AddReaderSplit), "" for a capture of its own: its sessions
	// are that capture's connections, not streams of their own.
	SplitOf string
	// SplitKey is, for a virtual client, the selector that made it:
	// "nodeName=node-3", "shard=s10".
	SplitKey string
}

// ShortName is the file's name as a sentence says it: its base name,
// without the folders a command line gave it under. A client of audit
// logs is named after its user agent, which is no path; one of a client
// log by its name there and the log's base name.
func (f *File) ShortName() string {
	switch {
	case f.Audit && f.Log != "" && f.Client != "":
		return f.Client + " (" + path.Base(f.Log) + ")"
	case f.Audit:
		return f.Name
	}
	return path.Base(f.Name)
}

// Session is one watch connection, placed on the shared clock.
type Session struct {
	File  int
	Index int // index inside its file (parser Session.Index)

	Request    *parser.Request // nil when the capture has no request line
	HTTPStatus int
	StatusText string
	Status     *parser.Status // bare Status body (a LIST's 410, a 504, ...)
	Truncated  bool
	Offset     int64
	EndOffset  int64

	// Start and End are instants (Unix ns) on the shared clock. Date is
	// the response's HTTP Date header, 0 when absent.
	Start, End int64
	Date       int64
	EndReason  EndReason
	// Error is the ERROR event that ended the session, if any.
	Error      *parser.Status
	ErrorEvent int // table index of that ERROR, -1

	Events, Bookmarks, Errors int
	FirstRV, LastRV           string
	// Gap is the time from the previous session's end in the same file
	// to this start (the reconnect), -1 for a file's first session.
	Gap int64
	// InitialEventsEnd is the instant of the initial-events-end bookmark, 0 when none.
	InitialEventsEnd int64
	// InitialEvents and InitialBytes are the objects a sendInitialEvents
	// stream sent before that bookmark (all it sent when none came): the
	// state it listed, and its size on the wire.
	InitialEvents int
	InitialBytes  int64
	// List is the parser's, when the response was a list (a LIST's
	// answer, one page of it): the session's events are its items.
	List *parser.List
	// Since, for a request read from an audit log, is when the
	// resourceVersion it asked for was last known current (the client
	// learned it in its previous request); 0 otherwise.
	Since int64
	// inferredGone: the 410 in Error is inferred from an audit log.
	inferredGone bool
	// Server and Incarnation say which API server, and which of its
	// processes, answered (indices in Timeline.Servers and its
	// Incarnations; see servers.go), -1 when unknown: the audit log that
	// holds the response's Audit-Id, or for a client from audit logs the
	// log it came from.
	Server, Incarnation int
	// auditID is the response's Audit-Id, until Build joins it.
	auditID string

	// firstEv and lastEv are staging indices (before files are merged on
	// one clock), -1 when empty; meaningless after Build.
	firstEv, lastEv int
}

// Lane is one object in one file. A DELETED closes it; a re-created
// object (new uid, or same name after a delete when the capture has no
// uids) opens a new lane. Its events are Timeline.LaneEvents, their span
// Timeline.LaneSpan. Lanes.At reads a Lane from the compact table the
// Timeline keeps (see lanes.go); its uid is Lanes.UID.
type Lane struct {
	File                  int
	Kind, Namespace, Name string
	// Labels are the object's labels as its latest event carrying any gave
	// them (parser.Event.Labels form: "k=v" sorted, comma-joined).
	Labels  string
	Deleted bool
}

// Anomaly is something in the capture a correct server and recorder would
// not produce, or a symptom worth a look.
type Anomaly struct {
	// Kind: "rv-backwards", "repeated", "after-delete", "no-bookmarks",
	// "short-watch", "error-not-last".
	Kind    string
	File    int
	Session int // global session index
	Event   int // table index, -1 when the anomaly is about a session
	T       int64
	RV      string
	Msg     string
}

// Event is one event as the timeline keeps it (decoded from the compact
// table on demand).
type Event struct {
	Index   int
	T       int64
	Type    parser.EventType
	RV      string
	RVNum   uint64
	RVValid bool
	Lane    int // -1 for bookmarks and errors
	Session int
	File    int
	Offset  int64
	Length  int64
	// Initial marks an event of a sendInitialEvents initial burst.
	Initial          bool
	InitialEventsEnd bool
	// Timed is true when T is a measured arrival time, false when estimated.
	Timed  bool
	Status *parser.Status
	// Encoded and BodyOffset are parser.Event's: the event came from a
	// Content-Encoding body, and [Offset, Offset+Length) is the encoded
	// span that parser.EncodedEventJSON decodes again.
	Encoded    bool
	BodyOffset int64
}

// unsetRV marks a cursor step with no cursor (a watch from "now"), and
// unknownRV one whose value no capture shows (a counterfactual bookmark
// when nothing watched the head). etcd revisions are int64, so neither
// is a real resourceVersion.
const (
	unsetRV   = ^uint64(0)
	unknownRV = unsetRV - 1
)

// FormatRV renders a cursor's or the head's resourceVersion; empty for a
// step with no cursor or one whose value no capture shows.
func FormatRV(v uint64) string {
	if v == unsetRV || v == unknownRV {
		return ""
	}
	return strconv.FormatUint(v, 10)
}

// NoRV is the resourceVersion of a step with no cursor (Steps.RV), and
// serves as "no resourceVersion" wherever a uint64 stands for one.
const NoRV = unsetRV

// RVRange is the first and last resourceVersions the session carried, as
// numbers; ok is false when it carried none, or one that is not a number.
func (s Session) RVRange() (first, last uint64, ok bool) {
	first, errFirst := strconv.ParseUint(s.FirstRV, 10, 64)
	last, errLast := strconv.ParseUint(s.LastRV, 10, 64)
	return first, last, errFirst == nil && errLast == nil
}
