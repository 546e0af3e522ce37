package parser

// Session is one watch connection (one HTTP response, or the whole body when
// the capture has no HTTP framing).
type Session struct {
	Index int
	// Offset and End bound the session in the decompressed stream: from its
	// request or status line (or first byte) to the byte after its last one.
	Offset, End int64
	// StartArrival and EndArrival are the arrival times (Unix ns) of the
	// session's first and last lines; 0 when the capture has no times.
	StartArrival, EndArrival int64

	// Request is set when the capture holds the request line.
	Request *Request
	// HTTPStatus is the response's status code (0 when there was no HTTP head).
	HTTPStatus int
	StatusText string   // e.g. "OK", "Gone"
	Headers    []Header // response headers in order
	// TransportError is why the request got no response, as the capture's
	// recorder noted it on the line after the request (`# transport
	// error: dial tcp 10.0.0.1:443: connect: connection refused`): it
	// reached no server. "" otherwise.
	TransportError string
	// AuditID is the response's Audit-Id header: the id under which the
	// API server that answered logged the request in its audit log
	// (evidence.md §4), "" when the capture has none.
	AuditID string

	// Status is set when the whole response body is a bare metav1.Status
	// (an HTTP 410 from a LIST, a 504, ...).
	Status *Status
	// Truncated is set when the stream was cut off inside this session
	// (no terminating zero chunk, or a partial event at EOF).
	Truncated bool
	// Events is the number of events read in this session.
	Events int
	// List is set when the response body is a list (a LIST's answer, or
	// `kubectl get -o json`): its items are the session's Listed events.
	// Were there several, it is the last.
	List *List
}

// List is what a list response says besides its items.
type List struct {
	Kind string // the list's kind, e.g. "ConfigMapList"
	// RV is the list's metadata.resourceVersion as sent: the items are the
	// state at it, and client-go watches on from it.
	RV string
	// Continue is the list's metadata.continue: the list goes on in another
	// page, asked for with this token ("" for the last page).
	Continue string
	Items    int // the Listed events read from it
	// Complete is set when the list closed and its JSON was read to its
	// end; a list cut off or broken keeps the items read before the break.
	Complete bool
}

// Header is one HTTP header line, kept in capture order.
type Header struct{ Name, Value string }

// Request is a captured request line and the watch options of its query.
type Request struct {
	Method string
	Path   string // without the query
	Query  string // raw query, as sent

	Watch                bool
	ResourceVersion      string
	ResourceVersionMatch string
	AllowWatchBookmarks  bool
	SendInitialEvents    bool
	LabelSelector        string
	FieldSelector        string
	TimeoutSeconds       int // 0 when absent
	// Timeout is the timeout parameter as sent ("8m14s"), "" when absent:
	// client-go's REST client sends the request's own timeout so, beside
	// timeoutSeconds (see timeline.FileProfile).
	Timeout string
	// UserAgent is the request's User-Agent header, "" when not captured.
	UserAgent string
}
