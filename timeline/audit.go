package timeline

import (
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"watchlens/parser"
)

// Clients from audit logs.
//
// An audit log records requests, not events (watch-protocol.md §7). The
// requests of all the logs given together (one per server and process)
// are grouped by client, and each group becomes a file of the timeline
// whose sessions are the client's LISTs and watches, with no events: the
// per-file models (cursors from the requests' resourceVersions, resumes,
// what-if, horizons, the counterfactual) then work on it as on a
// capture. A group is one informer: the client (user agent, user, source
// IP) and what it lists and watches (resource, namespace, selectors).
// A process that runs several informers resumes each from its own
// cursor, and one cursor over their interleaved requests would read
// every switch from one to the other as a jump.

// AuditLog is one audit log as read: its span, its process and what it
// held.
type AuditLog struct {
	Name string
	// First and Last are the earliest and latest stage written.
	First, Last int64
	// Process tells two logs of one process (a rotation) from a restart
	// (see parser.AuditLog.Process); "" when unknown.
	Process     string
	Records     int
	Requests    int
	ByVerb      map[string]int
	Diagnostics []parser.Diagnostic
	// others counts its requests other than lists and watches (writes,
	// gets), which the timeline does not model, by the second they were
	// received: that its server answered them is all an outage asks.
	others secondCounts
	// lastReceived is the latest instant a request it holds was
	// received: its process took none after it.
	lastReceived int64
}

// auditShortWatch is how soon after its start a watch whose LIST
// follows ended with a 410: the server refuses a stale resume at once,
// and the audit log records the watch's 200 header, never the ERROR.
const auditShortWatch = int64(time.Second)

// apiserverUser is the user of an API server's own loopback requests.
const apiserverUser = "system:apiserver"

// auditReq is a list or watch request and the log it came from.
type auditReq struct {
	parser.AuditRequest
	log int
}

// groupKey names an informer.
type groupKey struct {
	ua, user, ip, resource, ns, labels, fields string
	// process is, for an API server's own loopback requests, the process
	// that made them: the servers' own informers share a user agent, a
	// user and an address, but each talks only to its own process, and
	// dies with it.
	process string
}

// auditClientCost is what a client of the audit logs costs, in events:
// its file, its sessions, its cursors and their analysis, and its rows of
// the report keep tens of KB, where an event keeps tens of bytes.
const auditClientCost = 1000

// auditUnits is what the Builder holds, in events, counting the audit
// logs' requests and clients.
func (b *Builder) auditUnits() int {
	return b.tab.len() + len(b.audit) + auditClientCost*len(b.auditKeys)
}

// auditGroupKey is the informer group of an audit request (see
// groupAudit).
func auditGroupKey(q *parser.AuditRequest, l *AuditLog) groupKey {
	r := q.Request
	k := groupKey{q.UserAgent, q.User, q.SourceIP, q.Resource, q.Namespace, r.LabelSelector, r.FieldSelector, ""}
	if q.User == apiserverUser {
		k.process = l.Process
	}
	return k
}

// less orders group keys field by field: the files' order, stable
// whatever order the logs were given in.
func (k groupKey) less(o groupKey) bool {
	a := [...]string{k.ua, k.user, k.ip, k.resource, k.ns, k.labels, k.fields, k.process}
	b := [...]string{o.ua, o.user, o.ip, o.resource, o.ns, o.labels, o.fields, o.process}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// AddAudit adds an audit log read by parser.ReadAudit. Its list and
// watch requests join those of the other logs added; Build groups them
// by client.
func (b *Builder) AddAudit(name string, l *parser.AuditLog) {
	al := AuditLog{Name: name, First: l.First, Last: l.Last, Process: l.Process, Records: l.Records,
		Requests: len(l.Requests), ByVerb: map[string]int{}, Diagnostics: l.Diagnostics}
	if b.auditSeen == nil {
		b.auditSeen, b.auditKeys = map[string]int{}, map[groupKey]struct{}{}
	}
	dups := 0
	for _, q := range l.Requests {
		al.lastReceived = max(al.lastReceived, q.Received)
		// A request another log holds too (a log given twice, logs that
		// overlap) is one request: the first log's, completed by what
		// the other adds.
		if k, ok := b.auditSeen[q.AuditID]; ok {
			dups++
			if k >= 0 {
				have := &b.audit[k]
				if have.Completed == 0 && q.Completed != 0 {
					have.Completed, have.Code, have.Message = q.Completed, q.Code, q.Message
				}
				have.Received = min(have.Received, q.Received)
			}
			continue
		}
		al.ByVerb[q.Verb]++
		if q.Request == nil {
			al.others.add(q.Received)
		}
		b.auditIDs.add(q.AuditID, len(b.auditLogs))
		b.auditSeen[q.AuditID] = -1
		if q.Request != nil {
			k := auditGroupKey(&q, &al)
			if _, ok := b.auditKeys[k]; !ok && b.auditUnits() < b.MaxEvents {
				b.auditKeys[k] = struct{}{}
			}
		}
		if q.Request != nil && b.auditUnits() >= b.MaxEvents {
			// Each list or watch kept costs what an event does, and each
			// client what auditClientCost events do: the cap holds for
			// all of them.
			if !b.stopped {
				al.Diagnostics = append(al.Diagnostics, parser.Diagnostic{Offset: q.Offset, Line: q.Line, Kind: parser.DiagTooManyEvents,
					Msg: fmt.Sprintf("stopped here: the analysis keeps at most %d events and audit-logged requests; the requests after it are not analysed", b.MaxEvents)})
			}
			b.stopped = true
			continue
		}
		if q.Request != nil {
			b.auditSeen[q.AuditID] = len(b.audit)
			b.audit = append(b.audit, auditReq{q, len(b.auditLogs)})
		}
	}
	al.others.seal()
	al.Requests -= dups
	if dups > 0 {
		al.Diagnostics = append(al.Diagnostics, parser.Diagnostic{Kind: DiagDuplicateAudit, Msg: fmt.Sprintf(
			"%d of its requests were read already from another log (the same log given twice, or logs that overlap); each is counted once", dups)})
	}
	b.auditLogs = append(b.auditLogs, al)
}

// addAuditReader reads name as an audit log.
func (b *Builder) addAuditReader(name string, r io.Reader, opts parser.Options) error {
	lr := b.logReader(name, r)
	// The clients are what an audit log costs most: reading stops at the
	// number the cap has room for, before their requests are kept.
	l, err := parser.ReadAuditClients(lr, opts, max(1, (b.MaxEvents-b.auditUnits())/auditClientCost))
	lr.done()
	b.AddAudit(name, l)
	b.stopped = b.stopped || l.Stopped
	return err
}

// kindOfResource names the kind of the built-in resources an audit log
// names by their plural, so that a client from the audit log shares the
// models of a capture of the same kind; other resources keep their name.
var kindOfResource = map[string]string{
	"configmaps": "ConfigMap", "secrets": "Secret", "pods": "Pod", "services": "Service", "endpoints": "Endpoints",
	"nodes": "Node", "namespaces": "Namespace", "events": "Event", "serviceaccounts": "ServiceAccount",
	"persistentvolumes": "PersistentVolume", "persistentvolumeclaims": "PersistentVolumeClaim",
	"deployments": "Deployment", "replicasets": "ReplicaSet", "statefulsets": "StatefulSet", "daemonsets": "DaemonSet",
	"jobs": "Job", "cronjobs": "CronJob", "leases": "Lease", "endpointslices": "EndpointSlice",
	"customresourcedefinitions": "CustomResourceDefinition",
}

// groupAudit makes a file of each informer of the audit logs added.
func (b *Builder) groupAudit() {
	if len(b.audit) == 0 {
		return
	}
	// A request a capture holds too (its response's Audit-Id) is that
	// capture's: one client is counted once. The log says when the
	// server received it.
	captured := map[string]int{}
	for g := range b.sessions {
		if id := b.sessions[g].auditID; id != "" {
			captured[id] = g
		}
	}
	groups := map[groupKey][]auditReq{}
	perClient := map[[3]string]map[groupKey]bool{}
	for _, q := range b.audit {
		if g, ok := captured[q.AuditID]; ok {
			b.auditCaptured++
			if s := &b.sessions[g]; s.serverReceived == 0 && q.Received > 0 {
				s.serverReceived = q.Received
			}
			continue
		}
		k := auditGroupKey(&q.AuditRequest, &b.auditLogs[q.log])
		groups[k] = append(groups[k], q)
		c := [3]string{k.ua, k.user, k.ip}
		if perClient[c] == nil {
			perClient[c] = map[groupKey]bool{}
		}
		perClient[c][k] = true
	}
	b.audit, b.auditSeen, b.auditKeys = nil, nil, nil
	keys := make([]groupKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].less(keys[j]) })
	b.auditShared = sharedOf(keys)
	// The clients of the client logs given, read when a split needs them.
	var logClients []klogJoinCandidate
	logRead := false
	for _, k := range keys {
		name := orWord(k.ua, "no user agent") + b.whoWords(k, groups[k][0].log)
		if len(perClient[[3]string{k.ua, k.user, k.ip}]) > 1 {
			name += " " + strings.Join(nonEmpty(k.resource, k.ns, k.labels, k.fields), " ")
		}
		informers, unsure := splitInformers(groups[k])
		if len(unsure) > 0 {
			if !logRead {
				logClients, logRead = b.earlyKlogCandidates(), true
			}
			unsure = pairByLog(k, informers, unsure, logClients)
		}
		names := make([]string, len(informers))
		for n := range informers {
			names[n] = name
			if len(informers) > 1 {
				names[n] = fmt.Sprintf("%s, informer %d of %d that the log cannot tell apart", name, n+1, len(informers))
			}
		}
		diags := unsureDiagnostics(informers, unsure)
		for n, reqs := range informers {
			b.addAuditGroup(names[n], k, reqs, diags[n])
		}
	}
}

// AuditShared is the user and the address that every client of the
// audit logs shares, the API servers' own informers aside, "" for
// either when they differ (or there are fewer than two clients, or no
// audit log). The clients' names leave out what all
// share: a lab's or a single-node cluster's 207 informers, each "(admin
// from 127.0.0.1)", are told apart by what differs.
type AuditShared struct{ User, Address string }

// Words says what every client shares, which their names leave out;
// "" when they share nothing.
func (sh AuditShared) Words() string {
	var who string
	switch {
	case sh.User != "" && sh.Address != "":
		who = fmt.Sprintf("user %s from %s", sh.User, sh.Address)
	case sh.User != "":
		who = "user " + sh.User
	case sh.Address != "":
		who = "from " + sh.Address
	default:
		return ""
	}
	return "Every client of these logs that is not an API server's own is " + who + ", which their names leave out."
}

// sharedOf is what the clients of keys share (see AuditShared): with
// fewer than two, nothing, as a name alone must say its user and its
// address; nor is a user or an address the records lack ever shared.
func sharedOf(keys []groupKey) AuditShared {
	var sh AuditShared
	n := 0
	for _, k := range keys {
		if k.process != "" {
			continue
		}
		if n++; n == 1 {
			sh = AuditShared{k.user, k.ip}
			continue
		}
		if sh.User != k.user {
			sh.User = ""
		}
		if sh.Address != k.ip {
			sh.Address = ""
		}
	}
	if n < 2 {
		return AuditShared{}
	}
	return sh
}

// whoWords says who made the requests of k, as its name's part after
// the User-Agent: " (alice from 10.0.0.7)", less what every client
// shares (AuditShared), "" when that is all of it. An API server's own
// informer is always named whole, with the log of its first request,
// logIndex's: each process has its own.
func (b *Builder) whoWords(k groupKey, logIndex int) string {
	user, from := orWord(k.user, "no user"), orWord(k.ip, "no address")
	if k.process != "" {
		return fmt.Sprintf(" (%s from %s in %s)", user, from, path.Base(b.auditLogs[logIndex].Name))
	}
	switch sh := b.auditShared; {
	case sh.User != "" && sh.Address != "":
		return ""
	case sh.User != "":
		return " (from " + from + ")"
	case sh.Address != "":
		return " (" + user + ")"
	}
	return fmt.Sprintf(" (%s from %s)", user, from)
}

// splitInformers splits the requests of one group into the informers
// that made them. Clients that share a user agent, a user, an address and
// what they watch (client-go's default User-Agent, every kubelet of one
// version) are one group, but an informer has one request open at a
// time: its LIST ends before its watch starts, and a WatchList is its
// list. So requests that overlap are of different informers. Each
// request joins an informer whose last request ended before it started:
// one that asks for bookmarks as it does (an informer asks in every
// watch or in none), then, for a resume, one whose last was not a watch ended at once (a refused one,
// which a relist follows), then one whose last asked for the same
// resourceVersion; a LIST or a WatchList one whose last asked for the
// same resourceVersion (a relist after a 410 keeps the refused cursor),
// then one whose last was refused; both, then, the one that ended last
// (a reconnect follows its drop). Wherever two
// were free at once the split is the log's best guess, which is why the
// informers are named as such. Where only the order of their ends chose,
// and they ended closer together than the request came after them
// (samples-outage's informers of one selector, cut together by the
// outage and back minutes later), the choice is no more than a guess:
// it is returned among the unsure ones.
func splitInformers(reqs []auditReq) ([][]auditReq, []unsurePick) {
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Received < reqs[j].Received })
	var chains [][]auditReq
	var ends []int64 // the end of each chain's last request; open ones never end
	var unsure []unsurePick
	// rank orders the free chains for q: higher is likelier.
	rank := func(c int, q *auditReq) [4]int64 {
		last := &chains[c][len(chains[c])-1]
		var sameRV, refused int64
		if rv := q.Request.ResourceVersion; rv != "" && last.Request.ResourceVersion == rv {
			sameRV = 1
		}
		if last.Request.Watch && last.Completed-last.Received <= auditShortWatch {
			refused = 1
		}
		// An informer asks for bookmarks in every watch or in none.
		var sameAsking int64
		if !q.Request.Watch || !last.Request.Watch || q.Request.AllowWatchBookmarks == last.Request.AllowWatchBookmarks {
			sameAsking = 1
		}
		if q.Request.Watch && !q.Request.SendInitialEvents {
			return [4]int64{sameAsking, 1 - refused, sameRV, ends[c]} // a resume
		}
		return [4]int64{sameAsking, sameRV, refused, ends[c]} // a list
	}
	less := func(a, b [4]int64) bool {
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	}
	for k := range reqs {
		q := &reqs[k]
		best, bestRank := -1, [4]int64{}
		for c, end := range ends {
			if end > q.Received {
				continue
			}
			if r := rank(c, q); best < 0 || less(bestRank, r) {
				best, bestRank = c, r
			}
		}
		end := q.Completed
		if end == 0 {
			end = math.MaxInt64
		}
		if best < 0 {
			chains = append(chains, []auditReq{*q})
			ends = append(ends, end)
			continue
		}
		// The runner-up that only the order of the ends put behind.
		mate := -1
		for c, e := range ends {
			if r := rank(c, q); c != best && e <= q.Received && [3]int64(r[:3]) == [3]int64(bestRank[:3]) && (mate < 0 || e > ends[mate]) {
				mate = c
			}
		}
		if mate >= 0 && ends[best]-ends[mate] < q.Received-ends[best] {
			last := &chains[mate][len(chains[mate])-1]
			unsure = append(unsure, unsurePick{req: q.AuditID, mate: last.AuditID, apart: ends[best] - ends[mate], after: q.Received - ends[best]})
		}
		chains[best] = append(chains[best], *q)
		ends[best] = end
	}
	return chains, unsure
}

// unsurePick is a request splitInformers gave to one informer where it
// could as well have given it to another: the informers could as well
// have each other's requests from there on.
type unsurePick struct {
	// req is the request's Audit-ID, mate that of the other informer's
	// last request then.
	req, mate string
	// apart is how far apart the two informers' last requests ended;
	// after, how long after the later end the request came.
	apart, after int64
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// addAuditGroup adds one informer's requests as a file, with diags.
func (b *Builder) addAuditGroup(name string, k groupKey, reqs []auditReq, diags []parser.Diagnostic) {
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Received < reqs[j].Received })
	f := b.AddFile(name)
	f.file.Audit, f.file.Client, f.file.Loopback = true, k.ua, k.user == apiserverUser
	f.kindHint = kindOfResource[k.resource]
	if f.kindHint == "" {
		f.kindHint = k.resource
	}
	ss := make([]parser.Session, len(reqs))
	for n, q := range reqs {
		s := parser.Session{Index: n, Offset: q.Offset, End: q.Offset, StartArrival: q.Received, EndArrival: q.Completed,
			Request: q.Request, HTTPStatus: q.Code}
		if s.HTTPStatus == 0 {
			s.HTTPStatus = 200 // a watch the log ends before wrote no status yet
		}
		if q.Completed == 0 {
			// The log ends before the request did: it ran at least
			// until the log's last record.
			s.EndArrival, s.Truncated = max(b.auditLogs[q.log].Last, q.Received), true
		}
		if s.HTTPStatus != 200 {
			s.Status = &parser.Status{Code: q.Code, Message: q.Message}
		}
		ss[n] = s
	}
	base := len(b.sessions)
	f.Finish(ss, diags)
	for n := range reqs {
		g := base + n
		b.auditLog[g] = reqs[n].log
		b.sessions[g].auditStarted = reqs[n].Started
		b.auditSince(g, n)
		b.inferGone(g, n, len(reqs))
	}
}

// SinceAtMost says the cursor age of session g, read from an audit log,
// counts from the start of the client's previous watch (auditSince), or a
// bookmark period before its end: an audit log shows when a watch began
// and ended, not when its last event came, so the age is the most the
// cursor's can have been.
func (tl *Timeline) SinceAtMost(g int) bool {
	s := &tl.Sessions[g]
	f := &tl.Files[s.File]
	if !f.ServerRecorded() || s.Since == 0 {
		return false
	}
	k := slices.Index(f.Sessions, g)
	if k < 1 {
		return false
	}
	p := tl.Sessions[f.Sessions[k-1]].Request
	return p != nil && p.Watch
}

// auditSince sets when the session's requested resourceVersion was last
// known current. A client resumes from its cursor, which it learned in
// its previous request: from a LIST, when that LIST answered; from a
// watch that asked for bookmarks, no earlier than a bookmark period
// before its end (2 s before a deadline end); from one that did not,
// only the watch's start is sure, as its last event may have come then.
func (b *Builder) auditSince(g, n int) {
	s := &b.sessions[g]
	if n == 0 || s.Request == nil || !s.Request.Watch {
		return
	}
	p := &b.sessions[g-1]
	switch {
	case p.Request == nil:
	case !p.Request.Watch:
		s.Since = p.End
	case p.Request.AllowWatchBookmarks && p.EndReason == EndDeadline:
		s.Since = max(p.Start, p.End-int64(deadlineBookmarkAt))
	case p.Request.AllowWatchBookmarks:
		s.Since = max(p.Start, p.End-int64(bookmarkPeriod))
	default:
		s.Since = p.Start
	}
	s.Since = min(s.Since, s.Start)
}

// goneSignature says whether a request that ran from start to end, and
// the next request of its client, are the signature of a 410 (see
// inferGone), but for how the watch ended.
func goneSignature(r, next *parser.Request, start, end int64) bool {
	if r == nil || !r.Watch || r.SendInitialEvents || next == nil || next.Watch && !next.SendInitialEvents {
		return false
	}
	sameRV := r.ResourceVersion != "" && r.ResourceVersion != "0" && next.ResourceVersion == r.ResourceVersion
	return end-start <= auditShortWatch || sameRV
}

// inferGone marks the signature of a 410 the audit log cannot show (it
// records a watch's 200 header, never the ERROR in its stream): a watch
// that ended before its deadline, that a LIST or a WatchList of the same
// client followed, and that either ended within auditShortWatch of its
// start (a stale resume is refused at once) or asked for the very
// resourceVersion that list asked for (client-go relists at the cursor
// the 410 refused, and only after a 410 or an error; a server under load
// may take seconds to send the refusal).
func (b *Builder) inferGone(g, n, count int) {
	s := &b.sessions[g]
	if n+1 == count || s.Request == nil || s.HTTPStatus != 200 || s.EndReason != EndEOF {
		return
	}
	next := &b.sessions[g+1]
	if !goneSignature(s.Request, next.Request, s.Start, s.End) {
		return
	}
	s.Error = &parser.Status{Code: 410, Reason: "Expired", Message: fmt.Sprintf("inferred for the watch from RV %s: %s", s.Request.ResourceVersion, inferredGoneWhy(s.End-s.Start, next.Start-s.End))}
	s.EndReason, s.inferredGone = EndError, true
}

// inferredGoneWhy says what shows a 410 that an audit log implies, of a
// watch that lasted lasted and whose client listed again relistAfter
// after it ended: the session's error message and the summary's words.
func inferredGoneWhy(lasted, relistAfter int64) string {
	return fmt.Sprintf("its audit log records a watch's 200 header, never the 410 in its stream: the watch ended %s after it began and the client fetched its list again %s after it ended",
		FormatDuration(lasted), FormatDuration(max(relistAfter, 0)))
}
