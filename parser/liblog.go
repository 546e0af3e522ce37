package parser

import (
	"bytes"
	"fmt"
	"io"
	"time"
)

// Logs of the other client libraries.
//
// Besides client-go (ReadKlog), evidence.md §2 names what kube-rs,
// fabric8 and the Python client log about their watches. Each logs
// differently, and none of them logs as much as client-go's Reflector:
// kube-rs at debug level logs every request it sends, with its URL, and
// its watcher each watch error (a 410 among them); fabric8's Reflector
// logs each list it finished, each watch it starts and each 410; the
// Python informer warns on a 410 and on other errors, and urllib3 below
// it logs every request at debug level. ReadLibLog reads one such log
// into the lines that tell of lists, watches and 410s; the timeline
// makes each client's sessions of them.

// Library names a client library whose log ReadLibLog reads.
type LibLogLibrary uint8

const (
	LibKubeRS LibLogLibrary = iota + 1
	LibFabric8
	LibPython
)

var libLogNames = [...]string{"", "kube-rs", "fabric8", "python"}

func (l LibLogLibrary) String() string {
	if int(l) < len(libLogNames) {
		return libLogNames[l]
	}
	return fmt.Sprintf("LibLogLibrary(%d)", l)
}

// LibKind is what a library's log line says happened.
type LibKind uint8

const (
	// LibRequest: a list or watch request went out (Request).
	LibRequest LibKind = iota
	// LibListed: a list completed with Items objects at RV, its request
	// not logged (fabric8's "Listing items").
	LibListed
	// LibWatchStart: the informer starts a watch at RV, its request not
	// logged yet (fabric8's "Starting watcher").
	LibWatchStart
	// LibStreamEnd: a response's stream ended (kube-rs "stream closed").
	LibStreamEnd
	// LibGone: a watch got a 410 (Err, and RV, OldestRV when its text
	// names them).
	LibGone
	// LibError: a list or watch failed otherwise; the library tries
	// again.
	LibError
	// LibStop: the informer stopped its watch.
	LibStop
)

var libKindNames = [...]string{"request", "listed", "watch-start", "stream-end", "gone", "error", "stop"}

func (k LibKind) String() string {
	if int(k) < len(libKindNames) {
		return libKindNames[k]
	}
	return fmt.Sprintf("LibKind(%d)", k)
}

// LibLine is one line of a library's log that tells of a list or a
// watch.
type LibLine struct {
	// Offset and Line locate the line in the decompressed log.
	Offset int64
	Line   int
	// Time is the line's own instant (Unix ns).
	Time int64
	// Severity is 'D' (debug, trace), 'I', 'W' or 'E'.
	Severity byte
	Kind     LibKind
	// Client names the informer the line is of: the collection it lists
	// and watches, with its selectors ("/api/v1/namespaces/lab/configmaps
	// labelSelector=shard=s00"); "" when the line does not say (a kube-rs
	// or Python 410).
	Client string
	// Thread is the thread the line names in brackets, as logback's
	// %thread writes it ("pool-2-thread-1"), "" when it names none:
	// fabric8 lists and watches for an informer on one executor thread.
	Thread string
	// Request is a LibRequest's request, as its URL says.
	Request *Request
	// HTTPStatus is the response's status when the line gives it, else 0.
	HTTPStatus int
	// Items is a LibListed's object count, -1 when none.
	Items int
	// RV is the resourceVersion the line names (a LibListed's or a
	// LibWatchStart's), or a LibGone's refused one; OldestRV a LibGone's
	// oldest one still kept ("too old resource version: RV (OLDEST)").
	RV, OldestRV string
	// Err is a LibGone's or a LibError's text.
	Err string
	// noDate: Time is a time of day read on the reader's day count, to
	// be placed on its date (see placeDays).
	noDate bool
}

// LibLog is what ReadLibLog read of one library's log.
type LibLog struct {
	Library LibLogLibrary
	// Lines are the lines that tell of lists and watches, in log order.
	Lines []LibLine
	// Records counts the log lines read with a time, the library's and
	// others.
	Records int
	// First and Last are the earliest and latest line instants.
	First, Last int64
	// Date is, when lines gave a time of day only, the date they were
	// placed on (their first line's), and DateFrom where it came from:
	// "option" (LibLogOptions.Date), "clock" (the clock's, a guess the
	// timeline may replace with MoveToDate) or "files"; "" when every
	// line named its date.
	Date     time.Time
	DateFrom string
	// Untimed counts the lines that tell of a list, a watch or a 410 but
	// have no time at all: their events are not among Lines.
	Untimed     int
	Diagnostics []Diagnostic
}

// libSniffLen is how much decoded text Head.LibLog looks at.
const libSniffLen = 16 << 10

// IsLibLog says which library's log the decoded start of a file is, 0
// when none: among its first complete lines, one is a timed line that
// only that library writes (kube-rs's tracing targets, fabric8's
// Reflector and watch manager messages, the Python informer's logger or
// urllib3's request line), and none is an HTTP message or a JSON record
// (a capture, an audit log).
func IsLibLog(head []byte) LibLogLibrary {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	found := LibLogLibrary(0)
	for n := 0; n < 200 && len(head) > 0; n++ {
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			break // the last line may be cut off: judge whole lines only
		}
		ln := bytes.TrimSpace(head[:i])
		head = head[i+1:]
		t, rest, ok := logLineTime(ln)
		if !ok {
			if _, r, isTOD := timeOfDay(ln); isTOD {
				t, rest, ok = 1, r, true // a time of day: a time, without its date
			}
		}
		switch {
		case len(ln) == 0:
			continue
		case !ok:
			rest = ln
			if msg, basic := basicFormat(ln); basic && found == 0 && bytes.Contains(msg, []byte(pythonInformerLogger+":")) {
				found = LibPython // Python's BASIC_FORMAT, without a time
			}
		}
		rest = bytes.TrimLeft(rest, " \t")
		if len(rest) > 0 && rest[0] == '{' {
			if event, kubeRS := tracingJSON(rest); event {
				if kubeRS && found == 0 {
					found = LibKubeRS
				}
				continue
			}
		}
		if len(rest) > 0 && rest[0] == '{' || bytes.HasPrefix(rest, []byte("HTTP/")) || httpRequestLine(rest) {
			return 0 // a capture, an audit log, a JSON log of another kind
		}
		if t == 0 || found != 0 {
			continue
		}
		switch {
		case kubeRSTarget(rest) >= 0:
			found = LibKubeRS
		case fabric8Message(rest):
			found = LibFabric8
		case bytes.Contains(rest, []byte(pythonInformerLogger)) || bytes.Contains(rest, []byte(urllib3Logger)) && urllib3Request.Match(rest):
			found = LibPython
		}
	}
	return found
}

// httpRequestLine says whether b is an HTTP request line, as a capture
// holds: "GET /api/v1/pods?watch=1 HTTP/1.1".
func httpRequestLine(b []byte) bool {
	f := bytes.Fields(b)
	return len(f) == 3 && bytes.HasPrefix(f[2], []byte("HTTP/")) && len(f[0]) > 0 && f[0][0] >= 'A' && f[0][0] <= 'Z'
}

// libReader holds ReadLibLog's state.
type libReader struct {
	log    LibLog
	intern interner
	// zoneless: a line's time named no zone and was read as UTC (said
	// once).
	zoneless bool
	// Lines with a time of day only: whether one was read, the last one,
	// and how many midnights the log crossed (see onDay).
	sawTimeOfDay  bool
	lastTimeOfDay int64
	days          int64
}

// ReadLibLog reads a log of lib (compressed or not). A line without a
// time is part of the line before (a stack trace, a wrapped message)
// unless it is the log's first; a line cut off at the end is
// diagnosed. The error is the source's read error only; what was read
// before it is returned with it.
func ReadLibLog(r io.Reader, opts Options, lib LibLogLibrary, lo LibLogOptions) (*LibLog, error) {
	lr := &libReader{log: LibLog{Library: lib}, intern: interner{}}
	timed := false
	err := readLogLines(r, opts, lib.String(), lr.diag, func(ln line) {
		b := bytes.TrimRight(ln.b, "\r\n")
		if len(bytes.TrimSpace(b)) == 0 {
			return
		}
		if !bytes.HasSuffix(ln.b, []byte("\n")) {
			lr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagTruncated, Msg: fmt.Sprintf("the log ends inside a line; the line is skipped (%s)", clipString(string(b)))})
			return
		}
		if b[0] == '{' && lib == LibKubeRS {
			// tracing-subscriber's JSON layout: its time is a field.
			t, l, ok := lr.kubeRSJSON(b)
			if t == 0 {
				lr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagBadJSON, Msg: fmt.Sprintf("not a tracing JSON record with a time and a message; skipped (%s)", clipString(string(b)))})
				return
			}
			lr.log.Records++
			timed = true
			if ok {
				lr.add(ln, t, l)
			}
			return
		}
		t, rest, ok := logLineTime(b)
		noDate := false
		if !ok {
			if tod, r, isTOD := timeOfDay(b); isTOD {
				t, rest, ok, noDate = -lr.onDay(tod), r, true, true
			}
		}
		if !ok && lib == LibPython && (ln.arrival == 0 || ln.raw == ln.lineStart) {
			if msg, basic := basicFormat(b); basic {
				if l, event := lr.python(msg); event {
					lr.untimed(ln, l, b)
				}
				return
			}
		}
		switch {
		case !ok && ln.arrival != 0 && ln.raw > ln.lineStart:
			// The line reader took the time off as a prefix.
			t, rest, ok = ln.arrival, b, true
		case !ok && timed:
			return // a stack trace's or a wrapped message's further line
		case !ok:
			lr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagNoTime, Msg: fmt.Sprintf("a %s log line without a time it can read; skipped (%s)", lib, clipString(string(b)))})
			return
		}
		if t < 0 {
			t = -t
			if !lr.zoneless {
				lr.zoneless = true
				lr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagNoZone, Msg: "the log's times name no time zone: they are read as UTC"})
			}
		}
		timed = true
		lr.log.Records++
		rest = bytes.TrimLeft(rest, " \t")
		var l LibLine
		switch lib {
		case LibKubeRS:
			l, ok = lr.kubeRS(rest)
		case LibFabric8:
			l, ok = lr.fabric8(rest)
		case LibPython:
			l, ok = lr.python(rest)
		}
		if !ok {
			return
		}
		l.noDate = noDate
		lr.add(ln, t, l)
	})
	lr.placeDays(lo)
	lr.log.span()
	if err != nil {
		return &lr.log, err
	}
	if lr.log.Untimed > 0 {
		lr.diag(Diagnostic{Kind: DiagNoTime, Msg: fmt.Sprintf("%d lines of this log tell of lists, watches or 410s but have no time at all, so its events have no time: they are not drawn (log with a time: logging.basicConfig(format=\"%%(asctime)s %%(levelname)s %%(name)s: %%(message)s\"))", lr.log.Untimed)})
	}
	if lr.log.Records == 0 && len(lr.log.Diagnostics) == 0 {
		lr.diag(Diagnostic{Kind: DiagEmpty, Msg: "the log holds no line with a time"})
	}
	return &lr.log, nil
}

// span sets First and Last from the lines.
func (l *LibLog) span() {
	l.First, l.Last = 0, 0
	for k, ln := range l.Lines {
		if k == 0 || ln.Time < l.First {
			l.First = ln.Time
		}
		l.Last = max(l.Last, ln.Time)
	}
}

// add keeps a line read at t.
func (lr *libReader) add(ln line, t int64, l LibLine) {
	l.Offset, l.Line, l.Time = ln.raw, ln.no, t
	if l.Request != nil && l.Client == "" {
		l.Client = lr.intern.str(RequestClient(l.Request))
	}
	lr.log.Lines = append(lr.log.Lines, l)
}

func (lr *libReader) diag(d Diagnostic) { lr.log.Diagnostics = addDiagnostic(lr.log.Diagnostics, d) }

// RequestClient names the informer a request is of: its collection and
// selectors, without what changes from one request to the next (the
// resourceVersion, watch, timeout, page).
func RequestClient(r *Request) string {
	s := r.Path
	if r.LabelSelector != "" {
		s += " labelSelector=" + r.LabelSelector
	}
	if r.FieldSelector != "" {
		s += " fieldSelector=" + r.FieldSelector
	}
	return s
}

// logLineTime reads the time a log line begins with: RFC 3339
// ("2026-12-01T18:09:29.123456Z", tracing's and many Java layouts'), or
// a date and a time with a comma or a dot before the fraction and no
// zone ("2026-12-01 18:13:29,501": Python's asctime, logback's ISO8601),
// which is returned negated to say it named no zone (read as UTC).
func logLineTime(b []byte) (int64, []byte, bool) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || b[13] != ':' || b[16] != ':' {
		return 0, nil, false
	}
	if b[10] == 'T' {
		if t, end, ok := parseRFC3339Time(b); ok {
			if ns, ok := UnixNano(t); ok {
				return ns, b[end:], true
			}
			return 0, nil, false
		}
	}
	if b[10] != ' ' && b[10] != 'T' {
		return 0, nil, false
	}
	t, err := time.Parse("2006-01-02 15:04:05", string(b[:10])+" "+string(b[11:19]))
	if err != nil {
		return 0, nil, false
	}
	end := 19
	if end < len(b) && (b[end] == ',' || b[end] == '.') {
		frac, digits := 0, 0
		for end++; end < len(b) && isDigit(b[end]); end++ {
			if digits < 9 {
				frac, digits = frac*10+int(b[end]-'0'), digits+1
			}
		}
		for ; digits < 9; digits++ {
			frac *= 10
		}
		t = t.Add(time.Duration(frac))
	}
	ns, ok := UnixNano(t)
	if !ok || ns == 0 {
		return 0, nil, false
	}
	return -ns, b[end:], true
}

// logLevel reads a level word at the start of b ("DEBUG", "INFO",
// "WARN", "WARNING", "ERROR", "TRACE", and a bracketed or padded form)
// as a severity, and returns what follows it.
func logLevel(b []byte) (byte, []byte, bool) {
	b = bytes.TrimLeft(b, " \t[")
	for _, lv := range [...]struct {
		word string
		sev  byte
	}{{"TRACE", 'D'}, {"DEBUG", 'D'}, {"INFO", 'I'}, {"WARNING", 'W'}, {"WARN", 'W'}, {"ERROR", 'E'}, {"CRITICAL", 'E'}, {"FATAL", 'E'}} {
		if rest, ok := bytes.CutPrefix(b, []byte(lv.word)); ok && (len(rest) == 0 || rest[0] == ' ' || rest[0] == ']' || rest[0] == ':' || rest[0] == '\t') {
			return lv.sev, bytes.TrimLeft(rest, " \t]:"), true
		}
	}
	return 0, b, false
}

// levelAnywhere finds a level word among the first fields of b, for
// layouts that put a thread or a process id before it.
func levelAnywhere(b []byte) byte {
	for k, f := range bytes.Fields(b) {
		if k > 6 {
			break
		}
		if sev, _, ok := logLevel(f); ok {
			return sev
		}
	}
	return 'I'
}
