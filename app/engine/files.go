package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"watchlens/app/canvas"
	"watchlens/parser"
	"watchlens/timeline"
)

// maxDiagnostics is how many of a file's problems in its input a
// FileReport lists: a garbage file must not fill the page.
const maxDiagnostics = 20

// FilesReport is what the Files and sessions tab shows: the files whose
// names hold what the user typed, each with what was read from it, and
// the Prometheus exports read.
type FilesReport struct {
	// Shown are the first of the files matched, in the timeline's order.
	Shown []FileReport
	// Matched counts the files matched, Total the timeline's files,
	// NotCaptures those of them that are no capture (listed last).
	Matched, Total, NotCaptures int
	// Servers says audit logs name the server of a session: the sessions
	// tables have a column for it.
	Servers bool
	// Exports are the Prometheus exports read, none without.
	Exports Exports
	// AuditShared is what every client of the audit logs shares, which
	// their names leave out.
	AuditShared timeline.AuditShared
}

// FileReport is what was read from one file of the timeline.
type FileReport struct {
	// Index is the file's in the timeline (and in Opened.Files).
	Index int
	Name  string
	// Size is the bytes read for it (Opened's File.Size), ReadErr why
	// reading stopped short, "" if it did not.
	Size    int64
	ReadErr string
	Events  int
	Clock   timeline.Clock
	// LooksLike says what a file without watch events is instead, when
	// its start tells; "" otherwise.
	LooksLike string
	// ReadFrom names where a client's requests were read from when the
	// file is no capture but a client of the logs (timeline.File.Audit):
	// its client log, or "the audit logs". Such a file has sessions and
	// no events: the logs record requests, not the events they got.
	ReadFrom string
	// SplitOf names the capture the file is a virtual client of
	// (timeline.File.SplitOf), whose bytes are its: it has none of its
	// own.
	SplitOf string
	// Profile is its client library, as its User-Agent names it or as
	// its log or its requests show it (timeline.FileProfile), and
	// Differences where its requests differ from that library's
	// defaults.
	Profile     timeline.ClientProfile
	Differences []string
	// ByType counts its events by type, in the protocol's order; ByKind
	// its objects' events by kind, most first (an ERROR's Status is no
	// kind of watched object).
	ByType, ByKind  []Count
	FirstRV, LastRV string
	// Filtered says whether its watch saw the whole resource type
	// (timeline.File.Filtered).
	Filtered string
	Sessions []SessionRow
	// Problems counts the problems in its input; Diagnostics are the
	// first of them (at most maxDiagnostics). Notes say how it was read
	// (timeline.IsNote): no problem.
	Problems    int
	Diagnostics []parser.Diagnostic
	Notes       []parser.Diagnostic
	// Doubts are, in plain words, what the records leave unsure about
	// the file (timeline.IsDoubt), at most maxDiagnostics: no problem
	// in its input.
	Doubts []string
}

// Count is a number of events under a name (a type, a kind).
type Count struct {
	Name string
	N    int
}

// SessionRow is one session of a file as its table lists it.
type SessionRow struct {
	// Index is the session's within its file.
	Index int
	// Request is its request line, Status its response's status and the
	// Status body's message, Ended how it ended, each in words.
	Request, Status, Ended string
	Events, Bookmarks      int
	// Gap is the time from the file's previous session's end to its
	// start, -1 for the first.
	Gap int64
	// Server names the server, and its process, that answered it: ""
	// when no audit log holds its request.
	Server string
}

// Exports are the Prometheus exports read.
type Exports struct {
	Files []timeline.MetricsFile
	// Series counts the series read, files merged; ServerLabel is the
	// label that names a server, Servers the servers named.
	Series      int
	ServerLabel string
	Servers     []string
}

// Files answers what was read from the first max files whose names hold
// find, whatever its case (every file for an empty find), the records
// before the files that are no capture.
func (e *Engine) Files(find string, max int) FilesReport {
	tl := e.tl
	out := FilesReport{Total: len(tl.Files), Servers: len(tl.Servers) > 0, AuditShared: tl.AuditShared}
	find = strings.ToLower(find)
	// The records first, then the files that are no capture (the README
	// and the notes selected with an incident's records), which sort
	// first by name.
	for i := range tl.Files {
		if e.opened.Files[i].NotCapture != timeline.IsCapture {
			out.NotCaptures++
		}
	}
	for _, records := range []bool{true, false} {
		for i, f := range tl.Files {
			if (e.opened.Files[i].NotCapture == timeline.IsCapture) != records || find != "" && !strings.Contains(strings.ToLower(f.Name), find) {
				continue
			}
			out.Matched++
			if len(out.Shown) < max {
				out.Shown = append(out.Shown, e.fileReport(i))
			}
		}
	}
	if m := tl.Metrics; m != nil {
		out.Exports = Exports{Files: slices.Clone(m.Files), Series: len(m.Series), ServerLabel: m.ServerLabel, Servers: slices.Clone(m.Servers)}
	}
	return out
}

func (e *Engine) fileReport(i int) FileReport {
	tl := e.tl
	f := tl.Files[i]
	o := e.opened.Files[i]
	r := FileReport{Index: i, Name: f.Name, Size: o.Size, ReadErr: o.ReadErr, Events: f.Events, Clock: f.Clock, LooksLike: o.LooksLike,
		FirstRV: f.FirstRV, LastRV: f.LastRV, Filtered: f.Filtered, ByType: typeCounts(f), ByKind: kindCounts(f)}
	r.SplitOf = f.SplitOf
	if f.Audit {
		r.ReadFrom = "the audit logs"
		if f.Log != "" {
			r.ReadFrom = f.Log
		}
	}
	problems := inputProblems(f.Diagnostics)
	r.Problems, r.Diagnostics = len(problems), slices.Clone(problems[:min(len(problems), maxDiagnostics)])
	r.Notes = inputNotes(f.Diagnostics)
	for _, d := range f.Diagnostics {
		if timeline.IsDoubt(d) && len(r.Doubts) < maxDiagnostics {
			r.Doubts = append(r.Doubts, timeline.DoubtWords(d))
		}
	}
	r.Profile = tl.FileProfile(i)
	r.Differences = tl.ProfileDifferences(i, r.Profile)
	r.Sessions = make([]SessionRow, len(f.Sessions))
	for k, g := range f.Sessions {
		s := tl.Sessions[g]
		req := requestText(s.Request)
		if f.Audit && f.Log != "" && f.Library == "" {
			req = klogRequestText(s.Request)
		}
		r.Sessions[k] = SessionRow{Index: s.Index, Request: req, Status: statusText(s), Ended: endText(s, &f),
			Events: s.Events, Bookmarks: s.Bookmarks, Gap: s.Gap, Server: canvas.SessionServer(tl, g)}
	}
	return r
}

// typeCounts counts a file's events by type, in protocol order.
func typeCounts(f timeline.File) []Count {
	var out []Count
	for t := parser.Added; t <= parser.Listed; t++ {
		if n := f.Counts[t.String()]; n > 0 {
			out = append(out, Count{t.String(), n})
		}
	}
	return out
}

// kindCounts counts a file's objects' events by kind, most frequent
// first. ERROR events carry a Status, which is no kind of watched object.
func kindCounts(f timeline.File) []Count {
	var out []Count
	for kind, byType := range f.CountsKind {
		n := 0
		for typ, k := range byType {
			if typ != parser.Error.String() {
				n += k
			}
		}
		if n > 0 {
			out = append(out, Count{kind, n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func requestText(r *parser.Request) string {
	if r == nil {
		return "(not captured)"
	}
	if r.Query == "" {
		return r.Method + " " + r.Path
	}
	return r.Method + " " + r.Path + "?" + r.Query
}

// klogRequestText says what request a session read from client-go's own
// log was: the log names no URL, so its path, selectors and parameters
// are not the client's own words, and are not shown as a request line.
func klogRequestText(r *parser.Request) string {
	what := "a list"
	switch {
	case r == nil:
		return "(not in the log)"
	case r.SendInitialEvents:
		what = "a WatchList watch"
	case r.Watch:
		what = "a watch"
	}
	if r.ResourceVersion != "" {
		what += " from RV " + r.ResourceVersion
	}
	return what + ", rebuilt from the client's log (it names no URL)"
}

func statusText(s timeline.Session) string {
	if s.HTTPStatus == 0 {
		return "(no HTTP head)"
	}
	out := fmt.Sprintf("%d %s", s.HTTPStatus, s.StatusText)
	if s.Status != nil {
		out += ": " + s.Status.Message
	}
	return out
}

// endText says how a session of file f ended. A stream that ended with
// no error before its deadline is not "a clean end": an API server's
// shutdown, or a cut connection, ends it so (samples-lab's watches of the
// restarts). Before its deadline only where the recorded arrivals show
// it (without them the deadline is not told apart), and of a stream only
// where one was recorded (an audit log records the request's end).
func endText(s timeline.Session, f *timeline.File) string {
	switch s.EndReason {
	case timeline.EndEOF:
		switch {
		case f.Audit:
			return "ended (its log records the request's end, not its stream)"
		case f.Clock == timeline.ClockArrival && s.Request != nil && s.Request.TimeoutSeconds > 0:
			return "no error in its stream, before its deadline (a server shutting down ends a watch so)"
		}
		return "no error in its stream"
	case timeline.EndDeadline:
		return "server deadline"
	case timeline.EndError:
		if s.Error != nil {
			return fmt.Sprintf("ERROR %d: %s", s.Error.Code, s.Error.Message)
		}
		return "ERROR event"
	case timeline.EndCutOff:
		return "cut off mid-stream"
	case timeline.EndNewResponse:
		return "cut off, a new response follows"
	default:
		return "HTTP error"
	}
}

// noteFiles adds to the load's answer what the page says of its files
// before any tab is shown: what each file is when it holds no watch
// record, and why, its problems in its input and the one that explains
// the others, and the Prometheus exports' names.
func noteFiles(tl *timeline.Timeline, o *Opened) {
	for i, f := range tl.Files {
		o.Files[i].LooksLike = tl.LooksLike(i)
		o.Files[i].NotCapture = tl.NotCapture(i)
		problems := inputProblems(f.Diagnostics)
		if o.Files[i].Problems = len(problems); o.Files[i].Problems > 0 {
			o.Files[i].RootCause = rootCause(problems)
		}
		for _, d := range inputNotes(f.Diagnostics) {
			o.Files[i].Notes = append(o.Files[i].Notes, d.Msg)
		}
	}
	if m := tl.Metrics; m != nil {
		for _, f := range m.Files {
			o.Exports = append(o.Exports, f.Name)
		}
	}
}

// inputProblems is a file's diagnostics less its doubts and its notes
// (timeline.IsDoubt, timeline.IsNote): the problems in its input.
func inputProblems(diags []parser.Diagnostic) []parser.Diagnostic {
	other := func(d parser.Diagnostic) bool { return timeline.IsDoubt(d) || timeline.IsNote(d) }
	if !slices.ContainsFunc(diags, other) {
		return diags
	}
	return slices.DeleteFunc(slices.Clone(diags), other)
}

// inputNotes are a file's notes on how it was read (timeline.IsNote), at
// most maxDiagnostics.
func inputNotes(diags []parser.Diagnostic) []parser.Diagnostic {
	var out []parser.Diagnostic
	for _, d := range diags {
		if timeline.IsNote(d) && len(out) < maxDiagnostics {
			out = append(out, d)
		}
	}
	return out
}

// rootCause picks the diagnostic that explains the others: a cut or capped
// decompression truncates everything after it, so it comes before the
// truncated framing it causes, whatever their offsets.
func rootCause(diags []parser.Diagnostic) string {
	for _, d := range diags {
		if d.Kind == parser.DiagBadCompression || d.Kind == parser.DiagTooBig {
			return "above all at " + d.String()
		}
	}
	return "the first at " + diags[0].String()
}
