package timeline

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"watchlens/parser"
)

// Clients from the logs of kube-rs, fabric8 and the Python client.
//
// parser.ReadLibLog reads the lines of such a log that tell of lists,
// watches and 410s. Each informer of the log (the collection and
// selectors its requests name) becomes a file of the timeline whose
// sessions are its lists and watches, without events, as a client-go
// log's clients are: a request line opens a session with the request
// its URL shows, and the informer's next request, the end of its
// response stream, a 410 or an error closes it. Where a library does
// not log its request, the session gets the request that library sends
// (evidence.md §2): fabric8 lists with resourceVersion "0" first and
// with none after, and watches with bookmarks and a 600 s timeout; the
// Python informer lists with no resourceVersion. A line's own time is
// the clock.

// libWatchLag bounds how soon after fabric8's "Starting watcher" its
// watch manager's "Watching URL..." line comes: both are logged as the
// one watch starts.
const libWatchLag = int64(2 * time.Second)

// fabric8Reconnect is fabric8's first reconnect interval, which it
// waits before it lists again after a 410 or an error.
const fabric8Reconnect = int64(time.Second)

// libJoinKey is the collection and selectors of an informer's requests,
// as parser.RequestClient names a capture's or an audit client's: its
// key, or, for fabric8's, whose lines name only the path, the key of the
// first request URL its log shows.
func (c *libClient) libJoinKey() string {
	for _, ln := range c.lines {
		if ln.Kind == parser.LibRequest && ln.Request != nil {
			if k := parser.RequestClient(ln.Request); strings.HasPrefix(k, c.key) {
				return k
			}
		}
	}
	return c.key
}

// firstExchange is when the log shows the informer's first request:
// sent (a request line; urllib3 logs it as its answer's head comes), or
// answered in full (fabric8's first "Listing items", logged as its list
// completes: answered says so); 0 when the log shows none.
func (c *libClient) firstExchange() (t int64, answered bool) {
	for _, ln := range c.lines {
		switch ln.Kind {
		case parser.LibRequest:
			return ln.Time, false
		case parser.LibListed:
			return ln.Time, true
		}
	}
	return 0, false
}

// joinLibFile finds, among the files (captures, or clients of the audit
// logs) whose first request is of the informer's collection and
// selectors, the one whose first request started, or ended when the log
// shows it answered, nearest the instant the log shows it, within
// klogJoinLag (a log line and a recorder's or an API server's time of
// one request); nil when none. A file another log's informer has
// joined already is left out.
func (b *Builder) joinLibFile(c *libClient, files []*FileBuilder) *FileBuilder {
	t, answered := c.firstExchange()
	if t == 0 {
		return nil
	}
	var best *FileBuilder
	bestD := int64(klogJoinLag) + 1
	for _, f := range files {
		if f.file.Log != "" || f.file.LogJoined != "" {
			continue
		}
		s := &b.sessions[f.file.Sessions[0]]
		at := s.Start
		if answered {
			at = s.End
		}
		if d := max(at-t, t-at); d < bestD {
			best, bestD = f, d
		}
	}
	return best
}

// unnamedCollection is the path of an informer whose log names no
// resource (the Python informer's warnings): a collection of a group,
// version and resource the log does not say.
const unnamedCollection = "/apis/-/-/-"

// libClient is one informer of a library's log: its lines.
type libClient struct {
	key   string
	lines []parser.LibLine
}

// libClients groups a log's lines by informer, in the order of their
// first lines (fabric8's named after their informers first, see
// fabric8Informers). A 410 that names no informer (kube-rs's, Python's,
// fabric8's of a path several informers watch) goes to the informer
// whose watch was open then and whose next request is a list: the
// libraries relist after a 410, and after nothing else but an error,
// which fabric8's are then too. A 410 no informer fits, and every line
// when no line names an informer, goes to an informer the log does not
// name (key ""). Other errors that name no informer are left out.
func libClients(l *parser.LibLog) []*libClient {
	var out []*libClient
	byKey := map[string]*libClient{}
	get := func(key string) *libClient {
		c := byKey[key]
		if c == nil {
			c = &libClient{key: key}
			byKey[key] = c
			out = append(out, c)
		}
		return c
	}
	lines := l.Lines
	if l.Library == parser.LibFabric8 {
		lines = fabric8Informers(lines)
	}
	var unnamed []parser.LibLine
	for _, ln := range lines {
		if ln.Client == "" {
			// fabric8 lists again after an error as after a 410; the
			// others' errors name no informer that a list follows.
			if ln.Kind == parser.LibGone || ln.Kind == parser.LibError && l.Library == parser.LibFabric8 {
				unnamed = append(unnamed, ln)
			}
			continue
		}
		c := get(ln.Client)
		c.lines = append(c.lines, ln)
	}
	for _, g := range unnamed {
		var best *libClient
		bestNext := int64(0)
		for _, c := range out {
			if next, ok := c.relistsAfter(g.Time); ok && (best == nil || next < bestNext) {
				best, bestNext = c, next
			}
		}
		if best == nil {
			best = get("")
		}
		best.lines = append(best.lines, g)
		sort.SliceStable(best.lines, func(i, j int) bool { return best.lines[i].Offset < best.lines[j].Offset })
	}
	return out
}

// sentURL says whether the log shows one of the informer's requests with
// its URL.
func (c *libClient) sentURL() bool {
	for _, ln := range c.lines {
		if ln.Kind == parser.LibRequest {
			return true
		}
	}
	return false
}

// relistsAfter says whether c had a watch open at t and lists next after
// it, and when.
func (c *libClient) relistsAfter(t int64) (int64, bool) {
	open := false
	for _, ln := range c.lines {
		if ln.Time > t {
			if !open {
				return 0, false
			}
			switch {
			case ln.Kind == parser.LibListed, ln.Kind == parser.LibRequest && !ln.Request.Watch:
				return ln.Time, true
			case ln.Kind == parser.LibRequest, ln.Kind == parser.LibWatchStart:
				return 0, false
			}
			continue
		}
		switch ln.Kind {
		case parser.LibRequest:
			open = ln.Request.Watch
		case parser.LibWatchStart:
			open = true
		case parser.LibStreamEnd, parser.LibGone, parser.LibError, parser.LibStop, parser.LibListed:
			open = false
		}
	}
	return 0, false
}

// libSession is a session being built from an informer's lines.
type libSession struct {
	s   parser.Session
	err *parser.Status
	// ended: the session's end is known (a stream end, a 410, an error).
	ended bool
	// pending: a watch fabric8's Reflector said it starts, whose request
	// line may follow.
	pending bool
	// shown: the log gives the session's request with its URL, so its
	// parameters (allowWatchBookmarks among them) are the client's own.
	shown bool
}

// libSessions reads an informer's lines as its library runs. path is
// its collection, for the requests the log does not show.
func libSessions(c *libClient, path string, end int64) []libSession {
	var ss []libSession
	open := -1
	prevT, prevOff := int64(0), int64(0)
	lists := 0
	requests := false
	for _, ln := range c.lines {
		requests = requests || ln.Kind == parser.LibRequest || ln.Kind == parser.LibListed
	}
	start := func(t, off int64, r *parser.Request, status int) *libSession {
		if status == 0 {
			status = 200
		}
		if r != nil && !r.Watch {
			lists++
		}
		ss = append(ss, libSession{s: parser.Session{Offset: off, End: off, StartArrival: t, EndArrival: t, HTTPStatus: status, Request: r}})
		open = len(ss) - 1
		return &ss[open]
	}
	stop := func(t, off int64) *libSession {
		if open < 0 {
			return nil
		}
		k := &ss[open]
		if !k.ended {
			k.s.EndArrival, k.s.End, k.ended = t, off, true
		}
		open = -1
		return k
	}
	for _, ln := range c.lines {
		t, off := ln.Time, ln.Offset
		switch ln.Kind {
		case parser.LibRequest:
			if open >= 0 && ss[open].pending && t-ss[open].s.StartArrival <= libWatchLag {
				// The watch the Reflector said it starts: its request.
				ss[open].s.Request, ss[open].pending, ss[open].shown = ln.Request, false, true
				break
			}
			stop(t, off)
			start(t, off, ln.Request, ln.HTTPStatus).shown = true
		case parser.LibListed:
			// fabric8 logs a list as it completes: it began at the
			// informer's line before, or, for its first, when it ended;
			// after a 410 or an error, no sooner than fabric8's first
			// reconnect interval later (1 s, Reflector.java l.218–224,
			// Config.java l.144).
			from, fromOff := t, off
			if prevT != 0 {
				from, fromOff = prevT, prevOff
				if open < 0 || ss[open].ended || ss[open].err != nil {
					from = min(prevT+fabric8Reconnect, t)
				}
			}
			stop(t, off)
			rv := ""
			if lists == 0 {
				rv = "0" // fabric8's first list may come from the watch cache (Reflector.java l.229–255)
			}
			// No parser.List: the log holds the list's item count and RV,
			// not its items, and the session's bytes are the log's.
			k := start(from, fromOff, &parser.Request{Method: "GET", Path: path, ResourceVersion: rv}, 200)
			k.s.Request.Query = requestQuery(k.s.Request)
			stop(t, off)
		case parser.LibWatchStart:
			stop(t, off)
			r := &parser.Request{Method: "GET", Path: path, Watch: true, ResourceVersion: ln.RV, AllowWatchBookmarks: true, TimeoutSeconds: 600}
			r.Query = requestQuery(r) + "&timeoutSeconds=600"
			start(t, off, r, 200).pending = true
		case parser.LibStreamEnd, parser.LibStop:
			stop(t, off)
		case parser.LibGone:
			if open < 0 {
				// The log began inside the refused watch, or shows no
				// watch request: it ran from the informer's line before.
				from, fromOff := t, off
				if prevT != 0 {
					from, fromOff = prevT, prevOff
				}
				start(from, fromOff, &parser.Request{Method: "GET", Path: path, Watch: true}, 200)
			}
			k := stop(t, off)
			k.err = &parser.Status{Code: 410, Reason: "Expired", Message: ln.Err}
			if !requests {
				// A log that shows no request (the Python informer's
				// warnings alone): the informer lists again at once, with
				// no resourceVersion (informer.py l.298–305).
				start(t, off, &parser.Request{Method: "GET", Path: path}, 200)
				stop(t, off)
			}
		case parser.LibError:
			if k := stop(t, off); k != nil {
				k.err = &parser.Status{Message: ln.Err}
				if ln.HTTPStatus == 0 && strings.HasPrefix(ln.Err, "failed with") {
					k.s.HTTPStatus = 0 // no answer: the request failed
				}
			}
		}
		prevT, prevOff = t, off
	}
	if open >= 0 && !ss[open].ended {
		k := &ss[open]
		k.s.EndArrival, k.s.End, k.s.Truncated = max(end, k.s.StartArrival), prevOff, true
	}
	return ss
}

// addLibClients makes a file of each informer of a library's log, but
// for one whose capture or audit-log client is loaded too (see
// joinLibFile): that one is one client, its capture's file, else its
// audit-log client's; given both, the capture and the audit-log client
// each name the log.
func (b *Builder) addLibClients(name string, l *parser.LibLog) {
	diags := l.Diagnostics
	added, joined := false, false
	captures, audits := map[string][]*FileBuilder{}, map[string][]*FileBuilder{}
	for _, f := range b.files {
		if f.file.SplitOf != "" || f.file.Log != "" || f.file.Loopback || len(f.file.Sessions) == 0 {
			continue
		}
		if q := b.sessions[f.file.Sessions[0]].Request; q != nil {
			k := parser.RequestClient(q)
			if f.file.Audit {
				audits[k] = append(audits[k], f)
			} else {
				captures[k] = append(captures[k], f)
			}
		}
	}
	for _, c := range libClients(l) {
		key := c.libJoinKey()
		capture, audit := b.joinLibFile(c, captures[key]), b.joinLibFile(c, audits[key])
		if capture != nil {
			capture.file.Log, capture.file.Library = name, l.Library.String()
		}
		if audit != nil {
			// Its sessions stay the audit log's: Log would say they were
			// read from the client's log.
			audit.file.LogJoined, audit.file.Library = name, l.Library.String()
		}
		if capture != nil || audit != nil {
			joined = true
			continue
		}
		path := c.key
		if p, _, ok := strings.Cut(path, " "); ok {
			path = p
		}
		for _, ln := range c.lines {
			if ln.Request != nil {
				path = ln.Request.Path
				break
			}
		}
		if path == "" {
			path = unnamedCollection
		}
		ks := libSessions(c, path, l.Last)
		if len(ks) == 0 {
			continue
		}
		client := c.key
		if client == "" {
			client = l.Library.String() + " informer (the log names no resource)"
		}
		f := b.AddFile(client + " (" + name + ")")
		f.file.Audit, f.file.Client, f.file.Log, f.file.Library = true, client, name, l.Library.String()
		f.file.AskedNoBookmarks = true
		for n := range ks {
			if k := &ks[n]; k.s.Request.Watch && (!k.shown || k.s.Request.AllowWatchBookmarks) {
				f.file.AskedNoBookmarks = false
			}
		}
		if r := resourceOfPath(path); r != "" {
			res, _, _ := strings.Cut(r, ".")
			f.kindHint = orWord(kindOfResource[res], res)
		}
		ss := make([]parser.Session, len(ks))
		for n := range ks {
			ks[n].s.Index = n
			ss[n] = ks[n].s
		}
		base := len(b.sessions)
		f.Finish(ss, diags)
		diags = nil
		added = true
		for n := range ks {
			if ks[n].err != nil {
				s := &b.sessions[base+n]
				s.Error, s.EndReason = ks[n].err, EndError
			}
			b.auditSince(base+n, n)
		}
		f.file.Filtered = "filtered"
		if path != "" && !strings.Contains(path, "/namespaces/") && !strings.Contains(c.key, "Selector=") {
			f.file.Filtered = "unfiltered"
		}
		if path == unnamedCollection || l.Library == parser.LibFabric8 && !c.sentURL() {
			f.file.Filtered = "unknown" // fabric8's Reflector lines name no selector
		}
	}
	if !added && (!joined || len(diags) > 0) {
		// A log of no informer of its own still says what was wrong
		// with it.
		f := b.AddFile(name)
		f.file.Log = name
		if len(diags) == 0 {
			diags = []parser.Diagnostic{{Kind: DiagNoClient, Msg: fmt.Sprintf("no line of this %s log tells of a list or a watch (kube-rs logs its requests at debug level only)", l.Library)}}
		}
		f.Finish(nil, diags)
	}
}
