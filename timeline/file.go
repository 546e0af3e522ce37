package timeline

import (
	"fmt"
	"net/http"
	"path"
	"slices"

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
	// WatchListGate is the WatchListClient feature gate's state that the
	// client-go log of Log or LogJoined gives ("Feature gate default
	// state" feature="WatchListClient" enabled=true, as client-go logs it
	// as it starts), WatchListUnknown when it gives none.
	WatchListGate WatchListDefault
	// AskedNoBookmarks says, for a file read from a client's log, that
	// the log gives every watch's URL (urllib3's debug lines do) and none
	// asked for bookmarks: the client received none, and its cursor is
	// the one without them. Where a watch asked, the bookmarks it
	// received stay unseen.
	AskedNoBookmarks bool
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

// BookmarksUnseen says the file's records show neither the bookmarks its
// client asked for nor those it received: it was read from the client's
// own log, which names lists, watches and their ends, never a BOOKMARK,
// unless every watch's URL shows that none asked (AskedNoBookmarks). Its
// cursor is the last RV the log names.
func (f *File) BookmarksUnseen() bool { return f.Audit && f.Log != "" && !f.AskedNoBookmarks }

// clientLog says the file is a client read from its own log.
func (f *File) clientLog() bool { return f.Audit && f.Log != "" }

// ownLog names the client log that holds the file's client: the one it
// was read from or joined with (Log), else the one it was joined with as
// a client of the audit logs (LogJoined); "" for none.
func (f *File) ownLog() string {
	if f.Log != "" {
		return f.Log
	}
	return f.LogJoined
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

// ServerRecorded says the file's requests are what API servers recorded
// in their audit logs: each reached a server, and none shows the
// client's own view (a client's log or capture does).
func (f *File) ServerRecorded() bool { return f.Audit && f.Log == "" }

// HoldsSameWatch says the file is a capture of the same watch as one
// given before it (DiagSameWatch): most likely that recording again.
func (f *File) HoldsSameWatch() bool { return f.hasDiagnostic(DiagSameWatch) }

// MayMix says the file is an audit-log client whose requests may, from
// some request on, be another informer's: clients of one User-Agent,
// user, address and selector that the audit log alone cannot tell
// apart (a doubt, DiagUnsureSplit, says where).
func (f *File) MayMix() bool { return f.hasDiagnostic(DiagUnsureSplit) }

// hasDiagnostic says one of the file's diagnostics is of kind k.
func (f *File) hasDiagnostic(k parser.DiagnosticKind) bool {
	return slices.ContainsFunc(f.Diagnostics, func(d parser.Diagnostic) bool { return d.Kind == k })
}

// startsAfter says the file's recording begins after instant t, where
// nothing of it is known (never, for a file with no clock).
func (f *File) startsAfter(t int64) bool { return f.Clock != ClockNone && t < f.Start }

// EndsBefore says the file's recording ended before instant t (never,
// for a file with no clock): its client, one of a fleet, is not counted
// then (Fleet's curves, FleetReconnect), though a reconnect of its cursor
// as it was left is still judged (ResumeAt).
func (f *File) EndsBefore(t int64) bool { return f.Clock != ClockNone && t > f.End }

// heldNoWatch says what file's records hold where none of them is a
// watch's stream, "" where one is: a capture of a LIST's 410 alone holds
// no cursor a reconnect would carry, and no watch that started without
// one either.
func (tl *Timeline) heldNoWatch(file int) string {
	if tl.watches(file) {
		return ""
	}
	var refused *Session
	list, unanswered := false, false
	for _, g := range tl.Files[file].Sessions {
		s := &tl.Sessions[g]
		switch {
		case s.HTTPStatus >= 400 && refused == nil:
			refused = s
		case s.Unanswered():
			unanswered = true
		case s.List != nil || s.isList():
			list = true
		}
	}
	records := "the capture holds"
	if tl.Files[file].Audit {
		records = "its records hold"
	}
	switch {
	case refused != nil:
		text := refused.StatusText
		if text == "" {
			text = http.StatusText(refused.HTTPStatus)
		}
		return fmt.Sprintf("%s no watch, only a request the server refused (HTTP %d %s)", records, refused.HTTPStatus, text)
	case list:
		return records + " no watch, only a LIST"
	case unanswered:
		return records + " no watch, only requests no server answered"
	}
	return records + " no watch"
}
