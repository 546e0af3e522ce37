package parser

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
)

// Audit logs.
//
// The record most clusters keep of an incident is the API server's audit
// log (`--audit-log-format=json`): one JSON line per request stage, with
// the request's URI, user, user agent, source IPs and the instants it was
// received and each stage was written (watch-protocol.md §7). A watch
// shows as its ResponseStarted and ResponseComplete stages; its events
// never show, nor the 410 a stale one got in its stream (the status
// logged is the first header written, 200). The reader merges each
// request's stages by auditID and keeps every verb: the timeline groups
// the requests by client.

// AuditRequest is one API request as an audit log records it, its stages
// merged.
type AuditRequest struct {
	// Offset and Line locate the request's last record read (its
	// ResponseComplete when logged) in the decompressed log.
	Offset int64
	Line   int

	AuditID string
	Verb    string // "watch", "list", "get", "create", ...
	// Request is the requestURI read as a captured request line is, with
	// Method the verb's HTTP method; nil for verbs other than list and
	// watch, which the timeline counts but does not model.
	Request *Request

	UserAgent, User, SourceIP string
	// Resource, Subresource, Namespace and Name are the objectRef's.
	Resource, Subresource, Namespace, Name string

	// Code and Message are responseStatus's: for a watch, the first
	// header written (200, even when its stream then carried a 410).
	Code    int
	Message string

	// Received is requestReceivedTimestamp; Started the ResponseStarted
	// stage's stageTimestamp (0 when not logged: only long-running
	// requests have it); Completed the ResponseComplete (or Panic)
	// stage's, 0 when the log ends before the request did. Unix ns,
	// microsecond resolution.
	Received, Started, Completed int64
}

// AuditLog is what ReadAudit read of one audit log.
type AuditLog struct {
	// Requests are in the order they completed, unfinished ones last.
	Requests []AuditRequest
	// First and Last are the earliest and latest stageTimestamp in the
	// log (0 when it has no record): the span the process logged.
	First, Last int64
	// Process is the uid of the API server's own loopback user
	// (system:apiserver), new at every start of the process: two logs of
	// one process share it. "" when the log has no loopback request.
	Process     string
	Records     int
	Diagnostics []Diagnostic
	// Stopped says the log was read only up to ReadAuditClients' limit.
	Stopped bool
}

// auditSniffLen is how much decoded text IsAuditLog looks at: a few
// records, whose envelope fields come first in every audit line.
const auditSniffLen = 16 << 10

// IsAuditLog says whether the decoded start of a file is an audit log in
// JSON lines: its first whole record is an object of kind Event in the
// audit.k8s.io group. A first line that is no JSON (a log cut inside a
// record, as tail -c cuts it) is passed over for the next. head may end
// inside a line.
func IsAuditLog(head []byte) bool {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	for skipped := 0; skipped < 2; skipped++ {
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			break
		}
		ln := bytes.TrimSpace(head[:i])
		if len(ln) > 0 && ln[0] == '{' && gjson.ValidBytes(ln) {
			// An EventList (a webhook's batch) is of the audit group too:
			// read as one, it says that it holds no line of an event.
			v := gjson.GetManyBytes(ln, "kind", "apiVersion")
			return (v[0].String() == "Event" || v[0].String() == "EventList") && strings.HasPrefix(v[1].String(), "audit.k8s.io/")
		}
		if !cutRecord(ln) {
			return false
		}
		head = head[i+1:]
	}
	return len(head) > 0 && head[0] == '{' && bytes.Contains(head, []byte(`"audit.k8s.io/`)) && bytes.Contains(head, []byte(`"auditID"`))
}

// cutRecord says whether a line can be the end of a JSON record cut
// inside: text, with a quote of its strings, and no control byte.
func cutRecord(ln []byte) bool {
	if !utf8.Valid(ln) || bytes.IndexByte(ln, '"') < 0 {
		return false
	}
	for _, c := range ln {
		if c < 0x20 && c != '\t' {
			return false
		}
	}
	return true
}

// auditReader holds ReadAudit's state.
type auditReader struct {
	log     AuditLog
	pending map[string]int // auditID -> index in open
	open    []AuditRequest
	intern  interner
	// clients are the lists' and watches' clients seen, up to
	// maxClients (0: no limit); past it the rest of the log is passed
	// over (stopped).
	clients    map[auditClient]struct{}
	maxClients int
	stopped    bool
}

// auditClient is who made a list or watch, as far as one record says:
// what the timeline tells informers apart by, before it looks at when
// their requests ran.
type auditClient struct {
	userAgent, user, sourceIP, resource, namespace, labels, fields string
}

// ReadAudit reads an audit log in JSON lines (compressed or not). Lines
// that are not audit records are diagnosed with their offsets and the
// rest is read. The error is the source's read error only; what was read
// before it is returned with it.
func ReadAudit(r io.Reader, opts Options) (*AuditLog, error) {
	return ReadAuditClients(r, opts, 0)
}

// ReadAuditClients is ReadAudit that keeps the lists and watches of at
// most maxClients clients (0: no limit): the requests of the log's next
// client and every record after it are passed over, and a "too-many-
// events" Diagnostic says where. A client's requests keep far more than
// its records do, so this is what bounds the memory a log of a million
// clients takes.
func ReadAuditClients(r io.Reader, opts Options, maxClients int) (*AuditLog, error) {
	ar := &auditReader{pending: map[string]int{}, intern: interner{}, clients: map[auditClient]struct{}{}, maxClients: maxClients}
	err := readLogLines(r, opts, "audit", ar.diag, ar.record)
	ar.finish()
	if err != nil {
		return &ar.log, err
	}
	if ar.log.Records == 0 && len(ar.log.Diagnostics) == 0 {
		ar.diag(Diagnostic{Kind: DiagEmpty, Msg: "the audit log holds no record"})
	}
	return &ar.log, nil
}

func (ar *auditReader) diag(d Diagnostic) { ar.log.Diagnostics = addDiagnostic(ar.log.Diagnostics, d) }

// auditFields are the record's fields ReadAudit reads, as gjson's paths,
// in auditValues' order.
var auditFields = [...]string{"kind", "apiVersion", "auditID", "stage", "verb", "requestURI",
	"userAgent", "user.username", "user.uid", "sourceIPs.0", "objectRef.resource", "objectRef.subresource",
	"objectRef.namespace", "objectRef.name", "responseStatus.code", "responseStatus.message",
	"requestReceivedTimestamp", "stageTimestamp"}

// auditValues are the values of auditFields in rec, a record, as
// gjson.GetMany finds them (a key's first member; a nested field's first
// parent that holds it), in one walk over its members: GetMany walks the
// record from its start for each, most of them past its annotations and
// any request or response objects. They share rec's bytes.
func auditValues(rec string) (v [len(auditFields)]gjson.Result) {
	first := func(i int, r gjson.Result) {
		if !v[i].Exists() {
			v[i] = r
		}
	}
	nested := func(i int, parent gjson.Result, path string) {
		if !v[i].Exists() {
			v[i] = parent.Get(path)
		}
	}
	gjson.Parse(rec).ForEach(func(k, r gjson.Result) bool {
		switch k.String() {
		case "kind":
			first(0, r)
		case "apiVersion":
			first(1, r)
		case "auditID":
			first(2, r)
		case "stage":
			first(3, r)
		case "verb":
			first(4, r)
		case "requestURI":
			first(5, r)
		case "userAgent":
			first(6, r)
		case "user":
			nested(7, r, "username")
			nested(8, r, "uid")
		case "sourceIPs":
			nested(9, r, "0")
		case "objectRef":
			nested(10, r, "resource")
			nested(11, r, "subresource")
			nested(12, r, "namespace")
			nested(13, r, "name")
		case "responseStatus":
			nested(14, r, "code")
			nested(15, r, "message")
		case "requestReceivedTimestamp":
			first(16, r)
		case "stageTimestamp":
			first(17, r)
		}
		return true
	})
	return v
}

// record reads one line: a stage of a request.
func (ar *auditReader) record(ln line) {
	b := bytes.TrimSpace(ln.b)
	if len(b) == 0 || ar.stopped {
		return
	}
	bad := func(kind DiagnosticKind, msg string) {
		ar.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: kind, Msg: msg})
	}
	if b[0] != '{' || !gjson.ValidBytes(b) {
		if !bytes.HasSuffix(ln.b, []byte("\n")) {
			bad(DiagTruncated, "the log ends inside a record; the record is skipped")
			return
		}
		bad(DiagBadJSON, fmt.Sprintf("not a JSON audit record (%s); skipped", clipString(string(b))))
		return
	}
	// The values share the line's buffer, read into again: what the
	// request keeps of them is copied (interner.keep, strings.Clone).
	v := auditValues(unsafe.String(unsafe.SliceData(b), len(b)))
	if v[0].String() != "Event" || !strings.HasPrefix(v[1].String(), "audit.k8s.io/") {
		bad(DiagNotAudit, fmt.Sprintf("a JSON object of kind %q, apiVersion %q, not an audit event; skipped", clipString(v[0].String()), clipString(v[1].String())))
		return
	}
	id, stage := v[2].String(), v[3].String()
	stageAt, err := time.Parse(time.RFC3339Nano, v[17].String())
	if id == "" || err != nil {
		bad(DiagBadAudit, fmt.Sprintf("an audit record without an auditID or a stageTimestamp (%q); skipped", clipString(v[17].String())))
		return
	}
	t, ok := UnixNano(stageAt)
	if !ok {
		bad(DiagBadTime, fmt.Sprintf("an audit record whose stageTimestamp %q is %s; skipped", clipString(v[17].String()), TimeRange))
		return
	}
	ar.log.Records++
	if ar.log.First == 0 || t < ar.log.First {
		ar.log.First = t
	}
	ar.log.Last = max(ar.log.Last, t)
	if ar.log.Process == "" && v[7].String() == "system:apiserver" {
		ar.log.Process = strings.Clone(v[8].String())
	}
	k, seen := ar.pending[id]
	var one AuditRequest // a request whose only record is this one
	req := &one
	if seen {
		req = &ar.open[k]
	} else {
		id = strings.Clone(id)
		*req = AuditRequest{AuditID: id, Verb: ar.intern.keep(v[4].String()),
			UserAgent: ar.intern.keep(v[6].String()), User: ar.intern.keep(v[7].String()), SourceIP: ar.intern.keep(v[9].String()),
			Resource: ar.intern.keep(v[10].String()), Subresource: ar.intern.keep(v[11].String()), Namespace: ar.intern.keep(v[12].String()),
			Name: strings.Clone(v[13].String())}
		req.Received = t
		if rt, err := time.Parse(time.RFC3339Nano, v[16].String()); err == nil {
			if ns, ok := UnixNano(rt); ok {
				req.Received = ns
			} else {
				bad(DiagBadTime, fmt.Sprintf("an audit record whose requestReceivedTimestamp %q is %s; its stageTimestamp stands for it", clipString(v[16].String()), TimeRange))
			}
		}
		if req.Verb == "watch" || req.Verb == "list" {
			req.Request = auditRequestLine(req.Verb, strings.Clone(v[5].String()))
			c := auditClient{req.UserAgent, req.User, req.SourceIP, req.Resource, req.Namespace, req.Request.LabelSelector, req.Request.FieldSelector}
			if _, known := ar.clients[c]; !known && ar.maxClients > 0 && len(ar.clients) >= ar.maxClients {
				ar.stopped, ar.log.Stopped = true, true
				bad(DiagTooManyEvents, fmt.Sprintf("stopped here: the analysis keeps the lists and watches of at most %d clients of this log; the records after it are not read", ar.maxClients))
				return
			}
			ar.clients[c] = struct{}{}
		}
	}
	req.Offset, req.Line = ln.raw, ln.no
	if c := v[14].Int(); c != 0 {
		req.Code, req.Message = int(c), strings.Clone(v[15].String())
	}
	switch stage {
	case "ResponseStarted":
		req.Started = t
	case "ResponseComplete", "Panic":
		req.Completed = t
		ar.log.Requests = append(ar.log.Requests, *req)
		if seen {
			delete(ar.pending, id)
			ar.open[k] = AuditRequest{}
			if len(ar.pending) == 0 {
				ar.open = ar.open[:0]
			}
		}
		return
	}
	if !seen {
		ar.open = append(ar.open, one)
		ar.pending[id] = len(ar.open) - 1
	}
}

// finish hands on the requests the log ends before: a watch still open
// when the log stopped (the process was killed, or the log was cut). A
// stage written after its request's ResponseComplete (stages out of
// order, as a log merged from several writers has them) is that
// request's, not one of its own.
func (ar *auditReader) finish() {
	if len(ar.pending) > 0 {
		late := 0
		for k := range ar.log.Requests {
			req := &ar.log.Requests[k]
			i, ok := ar.pending[req.AuditID]
			if !ok {
				continue
			}
			open := &ar.open[i]
			if open.Started != 0 && (req.Started == 0 || open.Started < req.Started) {
				req.Started = open.Started
			}
			req.Received = min(req.Received, open.Received)
			delete(ar.pending, req.AuditID)
			open.AuditID = ""
			late++
		}
		if late > 0 {
			ar.diag(Diagnostic{Kind: DiagStageOrder, Msg: fmt.Sprintf("%d requests had a stage written after their ResponseComplete; each was read as one request", late)})
		}
	}
	for _, req := range ar.open {
		if req.AuditID != "" {
			ar.log.Requests = append(ar.log.Requests, req)
		}
	}
	ar.open, ar.pending = nil, nil
}

// auditRequestLine reads a requestURI as parseRequest reads a request
// line. A watch verb is a watch whatever its query says: the old
// /watch/ paths carry no watch=true.
func auditRequestLine(verb, uri string) *Request {
	req := parseRequestURI("GET", uri)
	req.Watch = req.Watch || verb == "watch"
	return req
}
