package timeline

import (
	"strconv"
	"time"

	"watchlens/parser"
)

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

// Session is one watch connection, placed on the shared clock.
type Session struct {
	File  int
	Index int // index inside its file (parser Session.Index)

	Request    *parser.Request // nil when the capture has no request line
	HTTPStatus int
	StatusText string
	Status     *parser.Status // bare Status body (a LIST's 410, a 504, ...)
	// TransportError is why the request reached no server, as the
	// capture noted it (parser.Session.TransportError), "" otherwise.
	TransportError string
	Truncated      bool
	Offset         int64
	EndOffset      int64

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
	// stream sent before that bookmark (when none came, its leading ADDED
	// events, before the live changes): the state it listed, and its size
	// on the wire.
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
	// startIsOutcome: Start is the line of a client's own log that
	// tells the request's outcome, not when it was sent: a retry after
	// a backoff, refused or failed at once, which the log does not date
	// otherwise.
	startIsOutcome bool
	// Server and Incarnation say which API server, and which of its
	// processes, answered (indices in Timeline.Servers and its
	// Incarnations; see servers.go), -1 when unknown: the audit log that
	// holds the response's Audit-Id, or for a client from audit logs the
	// log it came from.
	Server, Incarnation int
	// auditID is the response's Audit-Id, until Build joins it.
	auditID string
	// auditStarted is, for a request read from an audit log, when the
	// server started its response (the ResponseStarted stage), 0 when
	// the log does not say.
	auditStarted int64
	// serverReceived is, for a captured request an audit log holds too
	// (its Audit-Id), when the server received it, 0 when no log does:
	// a request sent while the way to the servers was down reaches one
	// later than the capture shows it sent.
	serverReceived int64

	// firstEv and lastEv are staging indices (before files are merged on
	// one clock), -1 when empty; meaningless after Build.
	firstEv, lastEv int
}

// RVRange is the first and last resourceVersions the session carried, as
// numbers; ok is false when it carried none, or one that is not a number.
func (s Session) RVRange() (first, last uint64, ok bool) {
	first, errFirst := strconv.ParseUint(s.FirstRV, 10, 64)
	last, errLast := strconv.ParseUint(s.LastRV, 10, 64)
	return first, last, errFirst == nil && errLast == nil
}

// GoneArrival is when session g's 410 reached its client: its ERROR
// event's arrival in a stream, else the response's end (a 410 answered
// as a status). known is false for a 410 an audit log implies (its end is
// the server's, which records no ERROR in a stream) and for a capture
// without a clock of arrival.
func (tl *Timeline) GoneArrival(g int) (t int64, known bool) {
	s := &tl.Sessions[g]
	t = s.End
	if s.ErrorEvent >= 0 {
		t = tl.tab.t.at(s.ErrorEvent)
	}
	return t, !s.inferredGone && tl.Files[s.File].Clock == ClockArrival
}

// lastRequestedRV is the resourceVersion the file's last request begun
// before t asked for, false when there is none or it asked for none.
func (tl *Timeline) lastRequestedRV(fi int, t int64) (string, bool) {
	rv, ok := "", false
	for _, g := range tl.Files[fi].Sessions {
		s := &tl.Sessions[g]
		if s.Start >= t {
			break
		}
		if s.Request != nil {
			rv, ok = s.Request.ResourceVersion, s.Request.ResourceVersion != ""
		}
	}
	return rv, ok
}

// nextStart is when the session after g in its file began, g's end when
// none did.
func (tl *Timeline) nextStart(g int) int64 {
	s := &tl.Sessions[g]
	if f := &tl.Files[s.File]; s.Index+1 < len(f.Sessions) {
		return tl.Sessions[f.Sessions[s.Index+1]].Start
	}
	return s.End
}

// SentWords says when session g's request went out, in a sentence: "sent
// at T", or, where its client's log tells only its outcome, "answered at
// T, as its client's log tells it (it does not date the send)".
func (tl *Timeline) SentWords(g int, instant func(int64) string) string {
	s := &tl.Sessions[g]
	if s.startIsOutcome {
		return "answered at " + instant(s.Start) + ", as its client's log tells it (it does not date the send)"
	}
	return "sent at " + instant(s.Start)
}

// ServerReceived is when the server received session g's request, and
// when the client sent it: the server's instant where an audit log holds
// the request and shows it received a second or more after the capture
// has it sent (the way to the servers was down or slow), else the
// capture's, twice. The files share one clock, as everywhere on the
// timeline; a capture that dates its lines by the Date header alone
// knows its instants to the second only, and keeps its own.
func (tl *Timeline) ServerReceived(g int) (received, sent int64) {
	s := &tl.Sessions[g]
	if tl.Files[s.File].Clock == ClockArrival && s.serverReceived-s.Start >= int64(time.Second) {
		return s.serverReceived, s.Start
	}
	return s.Start, s.Start
}
