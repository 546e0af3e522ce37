package parser

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Client logs.
//
// After an incident the client's own log is often the one record its
// users have. client-go's Reflector logs each list it starts ("Listing
// and watching", V(3)), each sync it finishes ("Caches populated", V(2);
// with the WatchList client, "Exiting watch because received the
// bookmark that marks the end of initial events stream" first), each
// watch stream's end ("Watch close" with totalItems, V(4)), each 410
// ("Watch closed" with err="too old resource version: RV (OLDEST)", V(4);
// before 1.16 a warning "watch of *v1.Pod ended with: too old resource
// version: RV (OLDEST)") and each failed watch ("Watch failed - backing
// off"). It writes them as klog text (`I1201 19:06:04.690123 ...`) or,
// through logr (controller-runtime's zap, klog's JSON format), as JSON
// lines with the same message and keys (evidence.md §2); a stream that
// breaks off shows as "Unexpected EOF during watch stream event decoding"
// just before its "Watch close". ReadKlog reads
// both into the reflector's lines; the timeline makes each client's
// lists, watches and 410s of them.

// KlogKind is what a reflector line says happened.
type KlogKind uint8

const (
	// KlogStart and KlogStop: "Starting reflector", "Stopping reflector".
	KlogStart KlogKind = iota
	KlogStop
	// KlogList: "Listing and watching": a list (or a WatchList) begins.
	KlogList
	// KlogInitialEventsEnd: the WatchList's initial-events-end bookmark
	// came: the list part of the stream is complete.
	KlogInitialEventsEnd
	// KlogSynced: "Caches populated": the list is in the store.
	KlogSynced
	// KlogWatchEnd: "Watch close ... totalItems": a watch stream ended.
	KlogWatchEnd
	// KlogGone: a watch ended in 410 (too old resource version).
	KlogGone
	// KlogWatchFailed: a watch request failed and is retried from the same
	// RV after a backoff ("Watch failed - backing off", "returned 429").
	KlogWatchFailed
	// KlogWatchError: a watch or list ended with another error; the
	// reflector lists again after its backoff.
	KlogWatchError
	// KlogBookmarkExpired: a WatchList stream still had no
	// initial-events-end bookmark ("Warning: event bookmark expired").
	KlogBookmarkExpired
	// KlogWatchListGate: the WatchListClient feature gate's state
	// (KlogLine.WatchList), for every reflector of the process.
	KlogWatchListGate
	// KlogStreamCut: a watch stream broke off inside an event
	// ("Unexpected EOF during watch stream event decoding"); the line
	// names no client: its watch's "Watch close" follows.
	KlogStreamCut

	// The API server's own lines (its log is a klog too):
	//
	// KlogServerFlags: the first "FLAG: --..." line of a flag dump, which
	// a kube-apiserver process writes as it starts.
	KlogServerFlags
	// KlogCacheInitialized: "cacher initialized": a watch cache filled
	// from its LIST (Type names the resource: "configmaps",
	// "leases.coordination.k8s.io").
	KlogCacheInitialized
	// KlogCacheTerminated: "Terminating all watchers from cacher R": the
	// cache ended every watch of R, at shutdown or to re-initialise.
	KlogCacheTerminated
	// KlogShutdown: "[graceful-termination] shutdown event"
	// name="ShutdownInitiated": the process got SIGTERM.
	KlogShutdown
	// KlogExiting: "[graceful-termination] apiserver is exiting".
	KlogExiting
	// KlogNotAccepting: "[graceful-termination] shutdown event"
	// name="NotAcceptingNewRequest": the process takes no new request
	// (it stops listening, and its connections take no new stream),
	// though it serves its open watches on until it exits.
	KlogNotAccepting
)

var klogKindNames = [...]string{"start", "stop", "list", "initial-events-end", "synced", "watch-end", "gone",
	"watch-failed", "watch-error", "bookmark-expired", "watchlist-gate", "stream-cut",
	"server-flags", "cache-initialized", "cache-terminated", "shutdown", "exiting", "not-accepting"}

func (k KlogKind) String() string {
	if int(k) < len(klogKindNames) {
		return klogKindNames[k]
	}
	return fmt.Sprintf("KlogKind(%d)", k)
}

// KlogLine is one reflector line of a client log.
type KlogLine struct {
	// Offset and Line locate the line in the decompressed log.
	Offset int64
	Line   int
	// Time is the line's own instant (Unix ns); a klog header has no year
	// (see KlogLog.Year).
	Time int64
	// Severity is 'I', 'W', 'E' or 'F' (a JSON line's level mapped to
	// them: debug and logr's V levels are 'I').
	Severity byte
	Kind     KlogKind
	// Client is the line's client="..." key, "" when it has none.
	Client string
	// Reflector is the reflector's name (where it was created, e.g.
	// "k8s.io/client-go/informers/factory.go:160"), Type what it lists
	// and watches ("*v1.ConfigMap"); "" when the line does not say.
	Reflector, Type string
	// Items is the line's totalItems, -1 when it has none.
	Items int
	// Err is the line's error text, "" when none.
	Err string
	// RV and OldestRV are a KlogGone's two numbers: the RV the watch
	// asked for and the oldest the server still had ("too old resource
	// version: RV (OLDEST)"); "" when its text does not name them.
	RV, OldestRV string
	// WatchList is, for KlogWatchListGate, whether the gate is on.
	WatchList bool
	// LastEvent is, for a KlogBookmarkExpired, how long before the line
	// its stream's last event came ("received last event 10.0s ago"),
	// in ns; 0 when its text does not say.
	LastEvent int64
	// Request is the request a failed watch's error names (Go's
	// url.Error: `Get "https://host/path?query": dial tcp ...`), the one
	// reflector line that shows a client's selector; nil when it names
	// none.
	Request *Request
	// noYear: Time was read from a klog header, without a year, and is
	// placed in the year finish chooses.
	noYear bool
}

// KlogLog is what ReadKlog read of one client log.
type KlogLog struct {
	// Lines are the reflector's lines, in log order.
	Lines []KlogLine
	// Records counts the log lines read (klog headers and JSON lines),
	// the reflector's and others.
	Records int
	// First and Last are the earliest and latest line instants (0 when
	// none).
	First, Last int64
	// Year is the year given to the klog headers' times, which have none;
	// YearFrom says where it came from: "option" (KlogOptions.Year),
	// "log" (a line of the log that names its year: a Go log line, a
	// trace, a JSON time, a time prefix) or "clock" (the reader's clock:
	// the latest year that does not put the log's first line in the
	// future). 0 and "" when no header needed one.
	Year     int
	YearFrom string
	// Continued counts the further lines of multi-line klog messages (a
	// health check's report, a stack), which are skipped.
	Continued int
	// JSON says the log is in JSON lines (logr/zap), not klog text.
	JSON        bool
	Diagnostics []Diagnostic
}

// KlogOptions are ReadKlog's options beyond the parser's.
type KlogOptions struct {
	// Year is the year of the klog headers' times, which carry month and
	// day only; 0 takes it from the log, else from the clock (see
	// KlogLog.YearFrom).
	Year int
	// Now is the clock's instant for that last resort; zero means
	// time.Now().
	Now time.Time
}

// klogSniffLen is how much decoded text IsKlog looks at.
const klogSniffLen = 8 << 10

// IsKlog says whether the decoded start of a file is a client log: among
// its first complete lines, one is a klog header line or a JSON log
// line (an object with "msg" and a time or a level, not a watch event or
// an audit record), and none is a watch event or an HTTP message.
func IsKlog(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	found := false
	for n := 0; n < 40 && len(head) > 0; n++ {
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			break // the last line may be cut off: judge whole lines only
		}
		ln := bytes.TrimSpace(head[:i])
		head = head[i+1:]
		ln = trimTimePrefix(ln)
		switch {
		case len(ln) == 0:
		case ln[0] == '{':
			if !isJSONLogLine(ln) {
				return false
			}
			found = true
		case isKlogHeader(ln):
			found = true
		case bytes.HasPrefix(ln, []byte("HTTP/")) || bytes.Contains(ln, []byte(" HTTP/1.")):
			return false
		}
	}
	return found
}

// isJSONLogLine says whether ln is a JSON log record.
func isJSONLogLine(ln []byte) bool {
	if !gjson.ValidBytes(ln) {
		return false
	}
	v := gjson.GetManyBytes(ln, "msg", "ts", "time", "level", "type", "object", "kind")
	if v[4].Exists() && v[5].Exists() || v[6].String() == "Event" {
		return false // a watch event, an audit record
	}
	return v[0].Exists() && (v[1].Exists() || v[2].Exists() || v[3].Exists())
}

// klogReader holds ReadKlog's state.
type klogReader struct {
	log    KlogLog
	intern interner
	// sawHeader: a klog header line was read, so a line that is not one
	// continues a multi-line message.
	sawHeader bool
	// yearAt is the first instant read with its year (Unix ns), 0 when
	// none yet.
	yearAt int64
	// inFlags: the last line was of an API server's flag dump.
	inFlags bool
}

// ReadKlog reads a client log, klog text or JSON lines (compressed or
// not). Lines that are neither are diagnosed with their offsets, and the
// rest is read; a trace's or a multi-line value's continuation lines
// are skipped without a word. The error is the source's read error only;
// what was read before it is returned with it.
func ReadKlog(r io.Reader, opts Options, ko KlogOptions) (*KlogLog, error) {
	kr := &klogReader{intern: interner{}}
	err := readLogLines(r, opts, "client", kr.diag, kr.line)
	kr.finish(ko)
	if err != nil {
		return &kr.log, err
	}
	if kr.log.Records == 0 && len(kr.log.Diagnostics) == 0 {
		kr.diag(Diagnostic{Kind: DiagEmpty, Msg: "the log holds no klog or JSON log line"})
	}
	return &kr.log, nil
}

func (kr *klogReader) diag(d Diagnostic) { kr.log.Diagnostics = addDiagnostic(kr.log.Diagnostics, d) }

// sawYear notes an instant whose text named its year.
func (kr *klogReader) sawYear(t int64) {
	if kr.yearAt == 0 && t != 0 {
		kr.yearAt = t
	}
}

// line reads one line of the log.
func (kr *klogReader) line(ln line) {
	b := bytes.TrimRight(ln.b, "\r\n")
	if len(bytes.TrimSpace(b)) == 0 {
		return
	}
	if ln.arrival != 0 {
		kr.sawYear(ln.arrival) // a recorder's time prefix, stripped by the line reader
	}
	var kl KlogLine
	var ok bool
	switch {
	case b[0] == '{':
		kl, ok = kr.jsonLine(ln, bytes.TrimSpace(b))
		if ok {
			kr.log.JSON = true
		}
	case isKlogHeader(b):
		kr.sawHeader = true
		kl, ok = kr.textLine(ln, b)
	case b[0] == ' ' || b[0] == '\t' || bytes.HasPrefix(b, []byte("Trace[")) || bytes.HasPrefix(b, []byte(">")):
		// A trace's further lines and a multi-line value's: part of the
		// line before.
		return
	default:
		if t, ok := goLogTime(b); ok {
			kr.sawYear(t) // a Go log line ("2026/12/01 18:09:29 ..."), often the program's own
			kr.log.Records++
			return
		}
		whole := bytes.HasSuffix(ln.b, []byte("\n"))
		switch {
		case whole && kr.sawHeader && !kr.log.JSON && !severityDate(b):
			// A multi-line message's further lines (a health check's
			// report, a stack): part of the klog line before.
			kr.log.Continued++
		case !whole:
			kr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagTruncated, Msg: fmt.Sprintf("the log ends inside a line; the line is skipped (%s)", clipString(string(b)))})
		case severityDate(b):
			kr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagBadHeader, Msg: fmt.Sprintf("a klog header (severity, month and day, time, thread, file:line]) that does not read; the line is skipped (%s)", clipString(string(b)))})
		default:
			kr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagNotKlog, Msg: fmt.Sprintf("not a klog or JSON log line; skipped (%s)", clipString(string(b)))})
		}
		return
	}
	if !ok {
		return
	}
	kl.Offset, kl.Line = ln.raw, ln.no
	if ln.arrival != 0 && kl.noYear {
		// A recorder's time prefix is the line's time, with its year.
		kl.Time, kl.noYear = ln.arrival, false
	}
	kr.log.Lines = append(kr.log.Lines, kl)
}

// finish places the klog headers' times in their year and sets First
// and Last.
func (kr *klogReader) finish(ko KlogOptions) {
	l := &kr.log
	firstNoYear := -1
	for k := range l.Lines {
		if l.Lines[k].noYear {
			firstNoYear = k
			break
		}
	}
	if firstNoYear >= 0 {
		// The headers' times were read in headerYear, as
		// an instant of month, day and time; the year is placed so that
		// the first of them is in it, and a month that goes backwards
		// (December, then January) starts the next.
		first := time.Unix(0, l.Lines[firstNoYear].Time).UTC()
		switch {
		case ko.Year != 0:
			l.Year, l.YearFrom = ko.Year, "option"
		case kr.yearAt != 0:
			at := time.Unix(0, kr.yearAt).UTC()
			l.Year, l.YearFrom = at.Year(), "log"
			if first.Month() > at.Month() {
				l.Year-- // the log began in the year before the line that named it
			}
		default:
			now := ko.Now
			if now.IsZero() {
				now = time.Now()
			}
			now = now.UTC()
			l.Year, l.YearFrom = now.Year(), "clock"
			if first.Month() > now.Month() || first.Month() == now.Month() && first.Day() > now.Day() {
				l.Year--
			}
		}
		year, lastMonth := l.Year, first.Month()
		for k := range l.Lines {
			kl := &l.Lines[k]
			if !kl.noYear {
				continue
			}
			t := time.Unix(0, kl.Time).UTC()
			if t.Month() < lastMonth && lastMonth-t.Month() > 6 {
				year++
			}
			lastMonth = t.Month()
			kl.Time = time.Date(year, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC).UnixNano()
			kl.noYear = false
		}
	}
	l.span()
}

// MoveToYear places a log whose times came without a year (YearFrom
// "clock") in another year, which from says the origin of ("files":
// the other files given with it); a log whose lines named their year is
// left as it is.
func (l *KlogLog) MoveToYear(year int, from string) {
	if l.YearFrom != "clock" || year == l.Year {
		return
	}
	delta := year - l.Year
	l.First, l.Last = 0, 0
	for k := range l.Lines {
		t := time.Unix(0, l.Lines[k].Time).UTC()
		l.Lines[k].Time = time.Date(t.Year()+delta, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC).UnixNano()
	}
	l.Year, l.YearFrom = year, from
	l.span()
}

// span sets First and Last from the lines.
func (l *KlogLog) span() {
	for _, kl := range l.Lines {
		if l.First == 0 || kl.Time < l.First {
			l.First = kl.Time
		}
		l.Last = max(l.Last, kl.Time)
	}
}

// trimTimePrefix drops a recorder's RFC 3339 time prefix and the blank
// after it.
func trimTimePrefix(b []byte) []byte {
	if len(b) > 20 && b[4] == '-' && b[7] == '-' && b[10] == 'T' {
		if i := bytes.IndexByte(b, ' '); i > 0 {
			if _, err := time.Parse(time.RFC3339Nano, string(b[:i])); err == nil {
				return bytes.TrimLeft(b[i:], " \t")
			}
		}
	}
	return b
}

// severityDate says whether b begins as a klog header does: a severity
// letter and four digits.
func severityDate(b []byte) bool {
	return len(b) >= 5 && strings.IndexByte("IWEF", b[0]) >= 0 && isDigit(b[1]) && isDigit(b[2]) && isDigit(b[3]) && isDigit(b[4])
}

// isKlogHeader says whether b begins with a klog header:
// "Lmmdd hh:mm:ss.uuuuuu threadid file:line] ".
func isKlogHeader(b []byte) bool {
	_, _, ok := klogHeader(b)
	return ok
}

// klogHeader reads a klog header: its time (in headerYear) and the
// message after it.
func klogHeader(b []byte) (t int64, msg []byte, ok bool) {
	if len(b) < 22 || !strings.ContainsRune("IWEF", rune(b[0])) || b[5] != ' ' || b[8] != ':' || b[11] != ':' {
		return 0, nil, false
	}
	t, ok = klogHeaderTime(b[1:5], b[6:14])
	if !ok {
		return 0, nil, false
	}
	i := 14
	if b[i] == '.' {
		i++
		frac, digits := int64(0), 0
		for i < len(b) && isDigit(b[i]) {
			if digits < 9 {
				frac = frac*10 + int64(b[i]-'0')
				digits++
			}
			i++
		}
		for ; digits < 9; digits++ {
			frac *= 10
		}
		t += frac
	}
	// The thread id, then file:line].
	j := i
	for j < len(b) && b[j] == ' ' {
		j++
	}
	if j == i {
		return 0, nil, false
	}
	k := j
	for k < len(b) && isDigit(b[k]) {
		k++
	}
	if k == j || k >= len(b) || b[k] != ' ' {
		return 0, nil, false
	}
	end := bytes.Index(b[k:], []byte("] "))
	if end < 0 {
		if !bytes.HasSuffix(b, []byte("]")) {
			return 0, nil, false
		}
		end = len(b) - k
	}
	src := b[k+1 : k+end]
	if bytes.IndexByte(src, ':') < 0 || bytes.IndexByte(src, ' ') >= 0 {
		return 0, nil, false
	}
	msg = b[min(len(b), k+end+2):]
	return t, msg, true
}

// klogHeaderTime reads "mmdd" and "hh:mm:ss" as an instant of
// headerYear (Unix ns; finish moves it to its year).
func klogHeaderTime(md, hms []byte) (int64, bool) {
	num := func(b []byte) (int, bool) {
		n := 0
		for _, c := range b {
			if !isDigit(c) {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	mo, ok1 := num(md[:2])
	day, ok2 := num(md[2:4])
	h, ok3 := num(hms[0:2])
	mi, ok4 := num(hms[3:5])
	s, ok5 := num(hms[6:8])
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || mo < 1 || mo > 12 || day < 1 || day > 31 || h > 23 || mi > 59 || s > 60 {
		return 0, false
	}
	return time.Date(headerYear, time.Month(mo), day, h, mi, s, 0, time.UTC).UnixNano(), true
}

// headerYear is the year a klog header's time is first read in: a leap
// year, so that 29 February reads, inside Unix nanoseconds' range.
const headerYear = 2000

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// goLogTime reads the time of a line of Go's log package:
// "2026/12/01 18:09:29 ...".
func goLogTime(b []byte) (int64, bool) {
	if len(b) < 19 || b[4] != '/' || b[7] != '/' || b[10] != ' ' {
		return 0, false
	}
	t, err := time.Parse("2006/01/02 15:04:05", string(b[:19]))
	if err != nil {
		return 0, false
	}
	return t.UnixNano(), true
}

// textLine reads a klog text line: its header and its message, either
// structured ("msg" key=value ...) or, from older releases, printf text.
func (kr *klogReader) textLine(ln line, b []byte) (KlogLine, bool) {
	t, msg, _ := klogHeader(b)
	kr.log.Records++
	kr.inFlags = kr.inFlags && bytes.HasPrefix(msg, []byte("FLAG: --"))
	kl := KlogLine{Time: t, Severity: b[0], Items: -1, noYear: true}
	if len(msg) > 0 && msg[0] == '"' {
		text, rest := quoted(msg)
		return kr.structured(kl, text, keyValues(rest))
	}
	// A trace's first line names its start with the year
	// ("(01-Dec-2026 19:12:01.104)").
	if i := bytes.Index(msg, []byte("Trace[")); i == 0 {
		if j := bytes.Index(msg, []byte("\" name:")); j > 0 {
			if k := bytes.IndexByte(msg[j:], '('); k > 0 {
				if at, err := time.Parse("02-Jan-2006 15:04:05.000", string(msg[j+k+1:min(len(msg), j+k+25)])); err == nil {
					kr.sawYear(at.UnixNano())
				}
			}
		}
		return kl, false
	}
	return kr.printf(kl, string(msg))
}

// quoted reads the Go-quoted string at the start of b and returns it and
// what follows it.
func quoted(b []byte) (string, []byte) {
	i := 1
	for i < len(b) && b[i] != '"' {
		if b[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(b) {
		return string(b[1:]), nil
	}
	return unquote(b[:i+1]), b[i+1:]
}

// unquote undoes Go quoting; text that does not unquote is kept as
// written, without its quotes.
func unquote(q []byte) string {
	if bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1])
	}
	var s string
	if err := jsonUnquote(q, &s); err != nil {
		return string(q[1 : len(q)-1])
	}
	return s
}

// jsonUnquote unquotes q the way Go's %q writes it for the common
// escapes (\" \\ \n \t, which JSON shares).
func jsonUnquote(q []byte, out *string) error {
	r := gjson.ParseBytes(q)
	if r.Type != gjson.String {
		return fmt.Errorf("not a string")
	}
	*out = r.String()
	return nil
}

// keyValues reads klog's key=value pairs; a value is Go-quoted or runs to
// the next blank.
func keyValues(b []byte) map[string]string {
	kv := map[string]string{}
	for {
		b = bytes.TrimLeft(b, " ")
		eq := bytes.IndexByte(b, '=')
		if eq <= 0 {
			return kv
		}
		key := string(b[:eq])
		if bytes.IndexByte(b[:eq], ' ') >= 0 {
			return kv
		}
		b = b[eq+1:]
		if len(b) > 0 && b[0] == '"' {
			var v string
			v, b = quoted(b)
			kv[key] = v
			continue
		}
		end := bytes.IndexByte(b, ' ')
		if end < 0 {
			end = len(b)
		}
		kv[key] = string(b[:end])
		b = b[end:]
	}
}

// lastEventAgo reads client-go's "received last event 10.001s ago" at
// the end of a bookmark-expired error: how long before the line the
// stream's last event came; 0 when the text does not say.
func lastEventAgo(err string) int64 {
	const before, after = "received last event ", " ago"
	i := strings.LastIndex(err, before)
	if i < 0 {
		return 0
	}
	d, ok := strings.CutSuffix(err[i+len(before):], after)
	if !ok {
		return 0
	}
	ago, e := time.ParseDuration(d)
	if e != nil || ago < 0 {
		return 0
	}
	return int64(ago)
}

// structured reads a structured message: the reflector's messages of
// client-go 1.27 and later, the same in klog text and in JSON.
func (kr *klogReader) structured(kl KlogLine, msg string, kv map[string]string) (KlogLine, bool) {
	kl.Client, kl.Reflector, kl.Type = kr.intern.str(kv["client"]), kr.intern.str(kv["reflector"]), kr.intern.str(kv["type"])
	kl.Err = kv["err"]
	if kl.Err == "" {
		kl.Err = kv["error"]
	}
	if n, ok := atoiOK(kv["totalItems"]); ok {
		kl.Items = n
	}
	switch msg {
	case "Starting reflector":
		kl.Kind = KlogStart
	case "Stopping reflector":
		kl.Kind = KlogStop
	case "Listing and watching":
		kl.Kind = KlogList
	case "Caches populated":
		kl.Kind = KlogSynced
	case "Exiting watch because received the bookmark that marks the end of initial events stream":
		kl.Kind = KlogInitialEventsEnd
	case "Watch close":
		kl.Kind = KlogWatchEnd
	case "Watch closed":
		kl.Kind = KlogGone
	case "Watch failed - backing off", "Watch returned 429 - backing off":
		kl.Kind = KlogWatchFailed
	case "Warning: watch ended with error":
		kl.Kind = KlogWatchError
	case "Warning: event bookmark expired":
		kl.Kind = KlogBookmarkExpired
		if kl.Reflector == "" {
			// Its err names the reflector: "NAME: hasn't received ...",
			// "NAME: awaiting required bookmark ...".
			if name, _, ok := strings.Cut(kl.Err, ": "); ok && !strings.Contains(name, " ") {
				kl.Reflector = kr.intern.str(name)
			}
		}
		kl.LastEvent = lastEventAgo(kl.Err)
	case "Unexpected EOF during watch stream event decoding":
		kl.Kind = KlogStreamCut
		return kl, true
	case "cacher initialized":
		kl.Kind, kl.Type = KlogCacheInitialized, kr.intern.str(groupResource(kv["resource"], kv["group"]))
		return kl, true
	case "[graceful-termination] shutdown event":
		switch kv["name"] {
		case "ShutdownInitiated":
			kl.Kind = KlogShutdown
		case "NotAcceptingNewRequest":
			kl.Kind = KlogNotAccepting
		default:
			return kl, false
		}
		return kl, true
	case "Feature gate default state", "Feature gate updated state":
		if kv["feature"] != "WatchListClient" {
			return kl, false
		}
		kl.Kind, kl.WatchList = KlogWatchListGate, kv["enabled"] == "true"
		return kl, true
	default:
		return kl, false
	}
	if kl.Kind == KlogWatchFailed || kl.Kind == KlogWatchError {
		kl.Request = errRequest(kl.Err)
	}
	if kl.Kind == KlogGone || kl.Kind == KlogWatchError {
		kl.RV, kl.OldestRV = tooOld(kl.Err)
		if kl.RV != "" || strings.Contains(kl.Err, "too old resource version") {
			kl.Kind = KlogGone
		}
	}
	return kl, true
}

// printf reads the unstructured messages of client-go before 1.27:
//
//	Listing and watching *v1.Pod from k8s.io/client-go/informers/factory.go:134
//	Caches populated for *v1.Pod from k8s.io/client-go/informers/factory.go:134
//	k8s.io/client-go/informers/factory.go:134: Watch close - *v1.Pod total 5 items received
//	k8s.io/client-go/informers/factory.go:134: watch of *v1.Pod closed with: too old resource version: 329 (803)
//	k8s.io/client-go/informers/factory.go:134: watch of *v1.Pod ended with: too old resource version: 329 (803)
//
// (the last is pre-1.16's warning for a 410, later releases' for other
// errors).
func (kr *klogReader) printf(kl KlogLine, msg string) (KlogLine, bool) {
	switch {
	case strings.HasPrefix(msg, "FLAG: --"):
		if kr.inFlags {
			return kl, false // the dump's further lines
		}
		kr.inFlags = true
		kl.Kind = KlogServerFlags
		return kl, true
	case strings.HasPrefix(msg, "Terminating all watchers from cacher "):
		kl.Kind, kl.Type = KlogCacheTerminated, kr.intern.str(strings.TrimSpace(strings.TrimPrefix(msg, "Terminating all watchers from cacher ")))
		return kl, true
	case msg == "[graceful-termination] apiserver is exiting":
		kl.Kind = KlogExiting
		return kl, true
	}
	for _, p := range [...]struct {
		prefix string
		kind   KlogKind
	}{{"Listing and watching ", KlogList}, {"Caches populated for ", KlogSynced}} {
		if rest, ok := strings.CutPrefix(msg, p.prefix); ok {
			typ, name, ok := strings.Cut(rest, " from ")
			if !ok {
				return kl, false
			}
			kl.Kind, kl.Type, kl.Reflector = p.kind, kr.intern.str(typ), kr.intern.str(strings.TrimSpace(name))
			return kl, true
		}
	}
	// NAME: rest, where NAME is file:line and itself holds a colon.
	i := strings.Index(msg, ": ")
	if i < 0 {
		return kl, false
	}
	name, rest := msg[:i], msg[i+2:]
	if strings.IndexByte(name, ' ') >= 0 {
		return kl, false
	}
	kl.Reflector = kr.intern.str(name)
	if r, ok := strings.CutPrefix(rest, "Watch close - "); ok {
		typ, items, _ := strings.Cut(r, " total ")
		kl.Kind, kl.Type = KlogWatchEnd, kr.intern.str(typ)
		if n, ok := atoiOK(strings.TrimSuffix(items, " items received")); ok {
			kl.Items = n
		}
		return kl, true
	}
	r, ok := strings.CutPrefix(rest, "watch of ")
	if !ok {
		return kl, false
	}
	typ, err, ok := strings.Cut(r, " ended with: ")
	if !ok {
		typ, err, ok = strings.Cut(r, " closed with: ")
	}
	if !ok {
		if typ, ok = strings.CutSuffix(r, " returned 429 - backing off"); !ok {
			return kl, false
		}
		kl.Kind, kl.Type = KlogWatchFailed, kr.intern.str(typ)
		return kl, true
	}
	kl.Type, kl.Err = kr.intern.str(typ), err
	kl.RV, kl.OldestRV = tooOld(err)
	kl.Kind = KlogWatchError
	if kl.RV != "" || strings.Contains(err, "too old resource version") {
		kl.Kind = KlogGone
	}
	return kl, true
}

// groupResource names a resource as the API server's cacher does:
// "configmaps", "leases.coordination.k8s.io".
func groupResource(resource, group string) string {
	if group == "" {
		return resource
	}
	return resource + "." + group
}

// errRequest reads the request a Go url.Error names: its method, then
// its URL quoted (`Get "https://h/api/v1/pods?watch=true": EOF`); nil
// when err is not one.
func errRequest(err string) *Request {
	method, rest, ok := strings.Cut(err, " \"")
	if !ok || method == "" || len(method) > 7 || strings.Trim(method, "ACDEGHILNOPSTUacdeghilnopstu") != "" {
		return nil // not an HTTP method as url.Error writes it ("Get", "Post")
	}
	uri, _, ok := strings.Cut(rest, "\"")
	if !ok || !strings.Contains(uri, "://") {
		return nil
	}
	return parseRequestURI(strings.ToUpper(method), uri)
}

// tooOld reads "too old resource version: RV (OLDEST)" out of an error
// text; oldest is "" when the text names no oldest.
func tooOld(err string) (rv, oldest string) {
	return versionPair(err, tooOldMark, " (", ")")
}

// GoneStatus is a KlogGone's 410 as a captured one reads: its message,
// and, where it names both ("too old resource version: 329 (803)"), the
// RV asked for (X) and the oldest the server still had (Y).
func (kl *KlogLine) GoneStatus() *Status {
	st := &Status{Code: 410, Reason: "Expired", Message: kl.Err}
	if x, y, ok := versionsOf(kl.RV, kl.OldestRV); ok && y > 0 {
		st.TooOld, st.X, st.Y = true, x, y
	}
	return st
}

func atoiOK(s string) (int, bool) {
	if s == "" || len(s) > 12 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// jsonFields are the JSON log record's fields ReadKlog reads, in
// GetManyBytes order: logr's zap (controller-runtime) and klog's JSON
// format name them alike.
var jsonFields = []string{"msg", "ts", "time", "level", "v", "client", "reflector", "type", "totalItems",
	"err", "error", "feature", "enabled"}

// jsonLine reads a JSON log record.
func (kr *klogReader) jsonLine(ln line, b []byte) (KlogLine, bool) {
	bad := func(kind DiagnosticKind, msg string) (KlogLine, bool) {
		kr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: kind, Msg: msg})
		return KlogLine{}, false
	}
	if !gjson.ValidBytes(b) {
		if !bytes.HasSuffix(ln.b, []byte("\n")) {
			return bad(DiagTruncated, "the log ends inside a JSON record; the record is skipped")
		}
		return bad(DiagBadJSON, fmt.Sprintf("not a JSON log record (%s); skipped", clipString(string(b))))
	}
	v := gjson.GetManyBytes(b, jsonFields...)
	if !v[0].Exists() {
		return bad(DiagNotLog, fmt.Sprintf("a JSON object without a msg (%s); skipped", clipString(string(b))))
	}
	t, ok := jsonTime(v[1])
	if !ok {
		t, ok = jsonTime(v[2])
	}
	if !ok {
		return bad(DiagBadTime, fmt.Sprintf("a JSON log record without a time it can read (ts %s, time %s); skipped",
			clipString(v[1].Raw), clipString(v[2].Raw)))
	}
	kr.log.Records++
	kr.sawYear(t)
	kl := KlogLine{Time: t, Severity: levelSeverity(v[3].String()), Items: -1}
	kv := map[string]string{}
	for k, name := range jsonFields[5:] {
		if r := v[5+k]; r.Exists() {
			kv[name] = r.String()
		}
	}
	if !v[3].Exists() && (v[9].Exists() || v[10].Exists()) && !v[4].Exists() {
		kl.Severity = 'E' // klog's JSON format: an error record has err and no v
	}
	return kr.structured(kl, v[0].String(), kv)
}

// jsonTime reads a record's time: a number of Unix seconds (zap's epoch
// encoder), milliseconds (klog's JSON format), micro- or nanoseconds, by
// its size; or a text in RFC 3339 or zap's ISO 8601 form.
func jsonTime(r gjson.Result) (int64, bool) {
	switch r.Type {
	case gjson.Number:
		f := r.Float()
		switch {
		case f <= 0:
			return 0, false
		case f < 1e11:
			return int64(f * 1e9), true
		case f < 1e14:
			return int64(f * 1e6), true
		case f < 1e17:
			return int64(f * 1e3), true
		}
		return r.Int(), true
	case gjson.String:
		s := r.String()
		for _, layout := range [...]string{time.RFC3339Nano, "2006-01-02T15:04:05.000Z0700", "2006-01-02T15:04:05Z0700"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UnixNano(), true
			}
		}
	}
	return 0, false
}

// levelSeverity maps a zap level to klog's severity letter; logr's V
// levels ("debug", "Level(-4)") are infos.
func levelSeverity(level string) byte {
	switch strings.ToLower(level) {
	case "warn", "warning":
		return 'W'
	case "error", "dpanic":
		return 'E'
	case "panic", "fatal":
		return 'F'
	}
	return 'I'
}
