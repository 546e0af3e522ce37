package timeline

import (
	"io"
	"sort"
	"strings"
	"time"

	"watchlens/parser"
)

// Clients from their own logs.
//
// client-go's Reflector logs each list it starts, each sync it finishes,
// each watch stream's end and each 410 (parser.ReadKlog). Each client of
// a log (its client="..." key, else its reflector's name and type)
// becomes a file of the timeline whose sessions are its lists and
// watches, without events, as an audit log's clients are: the relists
// and the fleet count them as they count a capture's. The log shows no
// request, so each session's request is the one client-go sends
// (evidence.md §2): a list is a LIST of the type's collection at RV "0"
// first and at the 410's RV after one, or, when the log shows the
// WatchList client, a WatchList request (which keeps the 410's RV too,
// as the recordings show); a watch asks for bookmarks, the client-go
// default, which a transport may strip without a trace in the log. The
// log names no namespace or selector: the path is the type's whole
// collection and the scope unknown. A line's own time is the clock.

// klogLog is one client log added, waiting for Build.
type klogLog struct {
	name string
	log  *parser.KlogLog
	// lib is, instead of log, the log of another client library.
	lib *parser.LibLog
}

// AddKlog adds a client log read by parser.ReadKlog; Build makes a file
// of each of its clients.
func (b *Builder) AddKlog(name string, l *parser.KlogLog) {
	b.klogs = append(b.klogs, klogLog{name: name, log: l})
}

// addKlogReader reads name as a client-go log (klog text or JSON lines).
func (b *Builder) addKlogReader(name string, r io.Reader, opts parser.Options) error {
	lr := b.logReader(name, r)
	l, err := parser.ReadKlog(lr, opts, parser.KlogOptions{Year: b.LogDate.Year})
	lr.done()
	b.AddKlog(name, l)
	return err
}

// addLibLogReader reads name as a log of another client library, lib.
func (b *Builder) addLibLogReader(name string, r io.Reader, opts parser.Options, lib parser.LibLogLibrary) error {
	l, err := parser.ReadLibLog(r, opts, lib, parser.LibLogOptions{Date: b.LogDate.date()})
	b.klogs = append(b.klogs, klogLog{name: name, lib: l})
	return err
}

// klogClient is one client of a client log: its reflector's lines.
type klogClient struct {
	name, reflector, typ string
	lines                []parser.KlogLine
	// watchList: the client's lists are WatchList streams (its log says
	// the feature gate is on, or that a list's initial-events-end
	// bookmark came or did not).
	watchList bool
	// gate is the WatchListClient feature gate's state as the log said
	// it before the client's first line (the gate is its process's),
	// WatchListUnknown when it did not.
	gate WatchListDefault
}

// klogCutLag bounds how soon after a stream's "Unexpected EOF" line its
// reflector's "Watch close" comes (at most 19 ms in samples-outage, and
// the next line but for two cuts in a row): the cut line names no
// client, so each goes to the first "Watch close" after it.
const klogCutLag = int64(100 * time.Millisecond)

// klogClients groups a log's reflector lines by client, in the order of
// their first lines. A line that names neither its client nor its type
// (the WatchList's end-of-list line) goes to the client of its reflector
// whose list is open, when there is one such; a stream's cut (which
// names no client either) goes to the first "Watch close" after it. An
// API server's own log
// holds the reflectors of its loopback informers, clients like any
// other, and those of its watch cache, which are not.
func klogClients(l *parser.KlogLog) []*klogClient {
	var out []*klogClient
	byKey := map[string]*klogClient{}
	listing := map[string][]*klogClient{} // reflector -> its clients whose list is open
	gate := WatchListUnknown
	var cuts []parser.KlogLine // the stream cuts whose Watch close is still to come
	for _, kl := range l.Lines {
		if kl.Kind == parser.KlogWatchListGate {
			gate = WatchListOff
			if kl.WatchList {
				gate = WatchListOn
			}
			continue
		}
		if kl.Kind == parser.KlogStreamCut {
			cuts = append(cuts, kl)
			continue
		}
		for len(cuts) > 0 && kl.Time-cuts[0].Time > klogCutLag {
			cuts = cuts[1:]
		}
		if len(cuts) > 0 && kl.Kind == parser.KlogWatchEnd {
			kl.Err = cuts[0].Err // this watch's stream broke off
			cuts = cuts[1:]
		}
		if strings.HasPrefix(kl.Reflector, "storage/cacher.go:") {
			// An API server's watch cache, which lists and watches etcd:
			// not a client of an API server.
			continue
		}
		key := kl.Client
		if key == "" && kl.Type != "" {
			key = kl.Reflector + " " + kl.Type
		}
		var c *klogClient
		switch {
		case key != "":
			c = byKey[key]
			if c == nil {
				name := kl.Client
				if name == "" {
					name = key
				}
				c = &klogClient{name: name, reflector: kl.Reflector, typ: kl.Type, watchList: gate == WatchListOn, gate: gate}
				byKey[key] = c
				out = append(out, c)
			}
		case len(listing[kl.Reflector]) == 1:
			c = listing[kl.Reflector][0]
		default:
			continue // no client to give it to
		}
		if c.typ == "" {
			c.typ = kl.Type
		}
		switch kl.Kind {
		case parser.KlogInitialEventsEnd, parser.KlogBookmarkExpired:
			c.watchList = true
		}
		switch kl.Kind {
		case parser.KlogList:
			listing[c.reflector] = appendOnce(listing[c.reflector], c)
		case parser.KlogSynced, parser.KlogInitialEventsEnd, parser.KlogGone, parser.KlogWatchError, parser.KlogStop:
			listing[c.reflector] = without(listing[c.reflector], c)
		}
		c.lines = append(c.lines, kl)
	}
	return out
}

func appendOnce(cs []*klogClient, c *klogClient) []*klogClient {
	for _, x := range cs {
		if x == c {
			return cs
		}
	}
	return append(cs, c)
}

func without(cs []*klogClient, c *klogClient) []*klogClient {
	for k, x := range cs {
		if x == c {
			return append(cs[:k:k], cs[k+1:]...)
		}
	}
	return cs
}

// klogSession is a session being built from a client's lines.
type klogSession struct {
	s parser.Session
	// sync: a list (a LIST, or a WatchList stream); synced: that list
	// completed, at initialEnd for a WatchList (its initial-events-end
	// bookmark), with initialItems objects.
	sync, synced bool
	initialEnd   int64
	initialItems int
	rv           string // the RV it asked for, "" when the log does not tell
	err          *parser.Status
	// retryAfter is, for a retry of a request that failed, how soon
	// after that failure client-go's backoff let it go out at the
	// earliest (see klogRetryWait); 0 for a first try.
	retryAfter int64
	// unsure: a retry that got an answer at a time the log does not
	// show, after the failure at failedAt (see placeRetries).
	unsure   bool
	failedAt int64
	// atOutcome: a retry whose outcome came at once (a 410, a failure),
	// dated by that line (Session.startIsOutcome).
	atOutcome bool
	// stopped: the client ended it ("Stopping reflector"), not the
	// server.
	stopped bool
	// items is, for a watch, the events and bookmarks it got, as its
	// "Watch close" line counts them; -1 when no line does.
	items int
}

// client-go backs off a failed watch 800 ms, doubled at each failure up
// to 30 s, each wait drawn in [d, 2d) (evidence.md §2).
const (
	klogBackoffFirst = int64(800 * time.Millisecond)
	klogBackoffCap   = int64(30 * time.Second)
)

// klogRetryWait is the least wait of client-go's backoff before the retry
// of a failure that came interval after the one before it (0 for the
// first): the next d is twice the last, which the interval is less
// than, or the cap.
func klogRetryWait(interval int64) int64 {
	if interval <= 0 {
		return klogBackoffFirst
	}
	return min(max(interval, klogBackoffFirst), klogBackoffCap)
}

// addKlogClients makes a file of each client of the logs added, but for
// a client whose capture is loaded too (see joinKlogCapture): that one
// is one client, its capture's file.
func (b *Builder) addKlogClients() {
	if len(b.klogs) == 0 {
		return
	}
	captures := b.capturesByStem()
	for _, kl := range b.klogs {
		if kl.lib != nil {
			b.placeLibDate(kl.lib)
			b.addLibClients(kl.name, kl.lib)
			continue
		}
		diags := b.placeKlogYear(kl.log)
		if isServerLog(kl.log) {
			// Its reflectors are the server's own informers, which are
			// not the fleet's clients (as its loopback requests in the
			// audit logs are not).
			b.serverLogs = append(b.serverLogs, serverLog(kl.name, kl.log))
			continue
		}
		cands := klogCandidates(kl.log, func(c *klogClient) bool {
			if f := captures[c.name]; f != nil && b.joinKlogCapture(c, f) {
				f.file.Log, f.file.WatchListGate = kl.name, c.gate
				return true
			}
			return false
		})
		added := false
		for _, k := range b.joinKlogAudit(kl.name, cands) {
			// The log's own problems go with its first client's file.
			d := diags
			if k.ambiguous != nil {
				d = append(d[:len(d):len(d)], *k.ambiguous)
			}
			b.addKlogClient(kl.name, k.c, k.ks, d)
			added, diags = true, nil
		}
		if !added && len(diags) > 0 {
			// A log of no client still says what was wrong with it.
			f := b.AddFile(kl.name)
			f.file.Log = kl.name
			f.Finish(nil, diags)
		}
	}
	b.klogs = nil
}

// capturesByStem are the captures loaded, by their names' stems.
func (b *Builder) capturesByStem() map[string]*FileBuilder {
	captures := map[string]*FileBuilder{}
	for _, f := range b.files {
		if !f.file.Audit && f.file.SplitOf == "" && f.file.Log == "" && len(f.file.Sessions) > 0 {
			captures[captureStem(f.file.Name)] = f
		}
	}
	return captures
}

// klogCandidates reads each client of a log, but those captured says
// are a capture's, as a candidate to join an audit-log client.
func klogCandidates(l *parser.KlogLog, captured func(*klogClient) bool) []klogJoinCandidate {
	answered := klogAnswered(l)
	var cands []klogJoinCandidate
	for _, c := range klogClients(l) {
		if captured(c) {
			continue
		}
		ks := klogSessions(c, l.Last)
		if len(ks) == 0 {
			continue
		}
		placeRetries(ks, answered)
		cands = append(cands, newKlogJoinCandidate(c, ks))
	}
	return cands
}

// captureStem is a capture's name without its folder and extensions:
// "/rec/c038-bookmarks.ts.http" -> "c038-bookmarks".
func captureStem(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	stem, _, _ := strings.Cut(name, ".")
	return stem
}

// klogJoinLag bounds how long after a client logs its first "Listing and
// watching" its capture's first request may come: the reflector logs,
// then sends (at most 52 ms later in the recordings; a client's rate
// limiter can hold a request back by seconds).
const klogJoinLag = 10 * time.Second

// joinKlogCapture says whether a capture, named after a client of a
// log, is that client's: its first request came just after the client
// logged its first list.
func (b *Builder) joinKlogCapture(c *klogClient, f *FileBuilder) bool {
	var first int64
	for _, kl := range c.lines {
		if kl.Kind == parser.KlogList {
			first = kl.Time
			break
		}
	}
	start := b.sessions[f.file.Sessions[0]].Start
	if first == 0 || start == 0 {
		return false
	}
	d := start - first
	return d >= -int64(100*time.Millisecond) && d <= int64(klogJoinLag)
}

// addKlogClient adds one client's lists and watches, ks, as a file, with
// diags.
func (b *Builder) addKlogClient(logName string, c *klogClient, ks []klogSession, diags []parser.Diagnostic) {
	f := b.AddFile(c.name + " (" + logName + ")")
	f.file.Audit, f.file.Client, f.file.Log, f.file.WatchListGate = true, c.name, logName, c.gate
	kind, version := typeKind(c.typ)
	f.kindHint = kind
	path := collectionPath(kind, version)
	ss := make([]parser.Session, len(ks))
	for n := range ks {
		k := &ks[n]
		k.s.Index = n
		k.s.Request = c.request(k, path, n == 0)
		ss[n] = k.s
	}
	base := len(b.sessions)
	f.Finish(ss, diags)
	for n := range ks {
		s := &b.sessions[base+n]
		s.InitialEventsEnd, s.InitialEvents, s.startIsOutcome = ks[n].initialEnd, ks[n].initialItems, ks[n].atOutcome
		if ks[n].err != nil {
			s.Error, s.EndReason = ks[n].err, EndError
		}
		// A watch the log names the RV of (the one a 410 refused)
		// resumed from the client's cursor, current since the session
		// before it: as for an audit log's request.
		b.auditSince(base+n, n)
		klogSince(&b.sessions[base+n], ks[:n], b.sessions[base:base+n])
	}
	// The selector is not in the log: whether the client saw the whole
	// type is unknown.
	f.file.Filtered = "unknown"
}

// klogSince bounds when the cursor s resumes from was last current by
// the sessions before it, ss (ks their lines), where the log counts what
// they got: the Reflector counts in a watch's "Watch close" totalItems
// every event and bookmark that moved its cursor (client-go
// tools/cache/reflector.go l.1072–1076, l.1093). After a watch of none,
// or a request that failed (no server reached, a 429), the cursor is
// what it was before it. Back to a LIST, it is that list's, current when
// it answered. Back to a watch (or a WatchList stream, which goes on as
// the watch) that got at least one a minute, as the watch cache's
// bookmarks come, it was current a bookmark period before the end, as
// auditSince takes a watch; one that got fewer got events at instants
// the log does not give, the first maybe at its start.
func klogSince(s *Session, ks []klogSession, ss []Session) {
	if s.Since == 0 || len(ks) == 0 {
		return
	}
	nothing := func(k *klogSession) bool {
		return !k.sync && (k.items == 0 || k.items < 0 && k.err != nil && k.err.Code != 410)
	}
	p := len(ks) - 1
	for p >= 0 && nothing(&ks[p]) {
		p--
	}
	if p < 0 {
		return
	}
	k, q := &ks[p], &ss[p]
	var since int64
	switch {
	case k.sync && k.items < 0:
		since = q.End
	case k.items < 0:
		return
	case int64(k.items) >= (q.End-q.Start)/int64(bookmarkPeriod):
		since = max(q.Start, q.End-int64(bookmarkPeriod))
	default:
		since = q.Start
	}
	s.Since = min(since, s.Since)
}

// request is the request client-go sends for a session: a list is a
// LIST, or with the WatchList client a WATCH with sendInitialEvents and
// resourceVersionMatch=NotOlderThan; any other session is a watch. Every
// watch asks for bookmarks, as client-go does.
func (c *klogClient) request(k *klogSession, path string, first bool) *parser.Request {
	r := &parser.Request{Method: "GET", Path: path, ResourceVersion: k.rv}
	switch {
	case k.sync && !c.watchList:
		if first && r.ResourceVersion == "" {
			r.ResourceVersion = "0" // client-go's first LIST, from the watch cache
		}
	case k.sync:
		r.Watch, r.SendInitialEvents, r.AllowWatchBookmarks = true, true, true
		r.ResourceVersionMatch = "NotOlderThan"
	default:
		r.Watch, r.AllowWatchBookmarks = true, true
	}
	r.Query = requestQuery(r)
	return r
}

// requestQuery writes a request's options as a query, in the order
// client-go writes them.
func requestQuery(r *parser.Request) string {
	var q []string
	if r.AllowWatchBookmarks {
		q = append(q, "allowWatchBookmarks=true")
	}
	if r.ResourceVersion != "" {
		q = append(q, "resourceVersion="+r.ResourceVersion)
	}
	if r.ResourceVersionMatch != "" {
		q = append(q, "resourceVersionMatch="+r.ResourceVersionMatch)
	}
	if r.SendInitialEvents {
		q = append(q, "sendInitialEvents=true")
	}
	if r.Watch {
		q = append(q, "watch=true")
	}
	return strings.Join(q, "&")
}

// klogSessions reads a client's lines as client-go's Reflector runs
// (watch-protocol.md §3): "Listing and watching" starts a list; "Caches
// populated" completes a LIST, and a watch follows at once; a WatchList
// stream's list completes at its initial-events-end line and the stream
// goes on as the watch. A watch's "Watch close" ends it and the next
// watch resumes at once, unless the client has not synced its WatchList
// yet, when the next is the same WatchList again. "Watch closed" with
// too old resource version ends the watch in a 410, and the next list
// is a relist, at the 410's RV; "Watch failed - backing off" ends an
// attempt that the same request retries; other errors end the session
// and the next list comes after a backoff. end is the log's last
// instant: a session still open there was cut off by the log's end.
func klogSessions(c *klogClient, end int64) []klogSession {
	var ss []klogSession
	open := -1 // the open session's index
	synced := false
	lastGone := ""         // the RV of the last 410: client-go relists at it
	lastFailed := int64(0) // the last failed request of a run of retries
	prevT, prevOff := int64(0), int64(0)
	start := func(t, off int64, sync bool, rv string) {
		ss = append(ss, klogSession{s: parser.Session{Offset: off, End: off, StartArrival: t, EndArrival: t, HTTPStatus: 200}, sync: sync, rv: rv, items: -1})
		open = len(ss) - 1
	}
	// stop ends the open session at t; a retry, which went out after its
	// backoff, started then at the earliest, or at t when its outcome
	// comes at once (at once: a 410 or a failure).
	stop := func(t, off int64, atOnce bool) *klogSession {
		if open < 0 {
			// The log began inside this session: it ran from the
			// client's line before, or this one's.
			start(t, off, false, "")
			if prevT != 0 {
				ss[open].s.StartArrival, ss[open].s.Offset = prevT, prevOff
			}
		}
		k := &ss[open]
		k.s.EndArrival, k.s.End = t, off
		switch {
		case k.retryAfter > 0 && atOnce:
			k.s.StartArrival, k.s.Offset, k.atOutcome = t, off, true
		case k.retryAfter > 0:
			k.unsure, k.failedAt = true, k.s.StartArrival
			k.s.StartArrival = min(k.s.StartArrival+k.retryAfter, t)
		}
		open = -1
		return k
	}
	// listing: the open session is a list not yet complete.
	listing := func() bool { return open >= 0 && ss[open].sync && !ss[open].synced }
	for _, kl := range c.lines {
		t, off := kl.Time, kl.Offset
		switch kl.Kind {
		case parser.KlogList:
			if open >= 0 {
				stop(t, off, false)
			}
			rv := ""
			if synced {
				rv = lastGone
			}
			lastGone = ""
			start(t, off, true, rv)
		case parser.KlogInitialEventsEnd, parser.KlogSynced:
			switch {
			case listing() && c.watchList:
				k := &ss[open]
				k.synced, k.initialEnd = true, t
				if kl.Items >= 0 {
					k.initialItems = kl.Items
				}
			case listing():
				stop(t, off, false).synced = true
				start(t, off, false, "")
			case open < 0:
				start(t, off, false, "")
			}
			synced = true
		case parser.KlogWatchEnd:
			// client-go sends an unsynced WatchList again; else it
			// watches on from its cursor.
			again := listing() && c.watchList
			k := stop(t, off, false)
			k.items = kl.Items
			// A stream that broke off inside an event was cut, not ended.
			k.s.Truncated = kl.Err != ""
			rv := ""
			if again {
				rv = k.rv
			}
			start(t, off, again, rv)
		case parser.KlogGone:
			// A stale resume is refused at once.
			k := stop(t, off, true)
			// "too old resource version: 329 (803)": the server kept
			// nothing older than 803 then, as a captured 410 says.
			k.err = kl.GoneStatus()
			if kl.RV != "" && !k.sync {
				k.rv = kl.RV
			}
			lastGone = kl.RV
		case parser.KlogWatchFailed:
			again := listing()
			// A request fails as it goes out (a refused connection) or
			// soon after (a TLS handshake's timeout): its failure is the
			// closest instant the log has of it.
			k := stop(t, off, true)
			k.s.HTTPStatus = 0 // no answer: the request failed
			k.err = &parser.Status{Message: kl.Err}
			interval := int64(0)
			if lastFailed != 0 {
				interval = t - lastFailed
			}
			start(t, off, again, k.rv)
			ss[open].retryAfter = klogRetryWait(interval)
		case parser.KlogWatchError:
			k := stop(t, off, false)
			k.err = &parser.Status{Message: kl.Err}
		case parser.KlogStop:
			if open >= 0 {
				stop(t, off, false).stopped = true
			}
		}
		prevT, prevOff = t, off
		// A run of failures ends at the first request answered.
		if kl.Kind == parser.KlogWatchFailed {
			lastFailed = t
		} else if kl.Kind != parser.KlogStart {
			lastFailed = 0
		}
	}
	if open >= 0 {
		k := &ss[open]
		if k.retryAfter > 0 {
			k.unsure, k.failedAt = true, k.s.StartArrival
			k.s.StartArrival += k.retryAfter
		}
		k.s.EndArrival, k.s.End, k.s.Truncated = max(end, k.s.StartArrival), prevOff, true
	}
	return ss
}

// klogAnswered lists, in time order, the instants a log shows a server
// answering one of its clients: a 410, a list that completed.
func klogAnswered(l *parser.KlogLog) []int64 {
	var out []int64
	for _, kl := range l.Lines {
		switch kl.Kind {
		case parser.KlogGone, parser.KlogSynced, parser.KlogInitialEventsEnd:
			out = append(out, kl.Time)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// placeRetries places each retry that got an answer the log does not
// time (its stream went on without a line until its end): no sooner
// than its backoff allowed, and no sooner than the log shows a server
// answering any of its clients after the failure. Clients that failed
// together (a load balancer down) come back together; the first to be
// answered shows when.
func placeRetries(ks []klogSession, answered []int64) {
	for n := range ks {
		k := &ks[n]
		if !k.unsure {
			continue
		}
		if i := sort.Search(len(answered), func(i int) bool { return answered[i] >= k.failedAt }); i < len(answered) {
			k.s.StartArrival = min(max(k.s.StartArrival, answered[i]), k.s.EndArrival)
		}
	}
}

// typeKind reads a reflector's type, "*v1.ConfigMap", as its kind and
// version.
func typeKind(typ string) (kind, version string) {
	typ = strings.TrimPrefix(typ, "*")
	version, kind, ok := strings.Cut(typ, ".")
	if !ok {
		return typ, ""
	}
	return kind, version
}

// groupOfKind names the API group of the built-in kinds outside the core
// group.
var groupOfKind = map[string]string{
	"Deployment": "apps", "ReplicaSet": "apps", "StatefulSet": "apps", "DaemonSet": "apps",
	"Job": "batch", "CronJob": "batch", "Lease": "coordination.k8s.io", "EndpointSlice": "discovery.k8s.io",
	"CustomResourceDefinition": "apiextensions.k8s.io",
}

// collectionPath is the cluster-wide collection a client of kind lists
// and watches: the log names neither namespace nor selector. A kind
// outside the built-in ones has a group the log does not name ("-").
func collectionPath(kind, version string) string {
	resource := ""
	for res, k := range kindOfResource {
		if k == kind {
			resource = res
		}
	}
	if version == "" {
		version = "v1"
	}
	switch g := groupOfKind[kind]; {
	case resource == "":
		return "/apis/-/" + version + "/" + strings.ToLower(kind) + "s"
	case g != "":
		return "/apis/" + g + "/" + version + "/" + resource
	}
	return "/api/" + version + "/" + resource
}
