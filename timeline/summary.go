package timeline

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"watchlens/internal/quantity"
)

// The verdict in words: at most six lines that an engineer on call reads
// first, before any table. Each line answers one question of a
// postmortem: what was observed, would bookmarks have avoided it, what was
// the riskiest moment to drop, what is unknown and why, and what the
// captures suggest (restarts) or the user asked (--resume-at). The exact
// model reasons stay in the report's details.

// maxSummaryLines bounds the summary, but for the answers to the
// instants asked (capSummary).
const maxSummaryLines = 6

// capSummary keeps the first lines up to maxSummaryLines, and every
// answer to an instant the user asked (topic "resume-at"), each of which
// takes the room of one line the summary chose: a user who asks about
// ten instants reads ten answers.
func capSummary(lines []SummaryLine) []SummaryLine {
	asked := 0
	for _, l := range lines {
		if l.Topic == "resume-at" {
			asked++
		}
	}
	room := max(maxSummaryLines-asked, 1)
	out := lines[:0]
	for _, l := range lines {
		switch {
		case l.Topic == "resume-at":
			out = append(out, l)
		case room > 0:
			out = append(out, l)
			room--
		}
	}
	return out
}

// SummaryLine is one line of the summary.
type SummaryLine struct {
	// Topic is "unjudged" (no input gave anything to judge), "unsynced", "observed", "fleet", "bookmarks", "riskiest", "unknown",
	// "restart", "server-logs", "resume-at", "contradicted" (recorded
	// reconnects the models answer otherwise than the server did), or
	// "metrics" (Prometheus exports alone).
	Topic string `json:"topic"`
	Text  string `json:"text"`
}

// Summary is the verdict in plain words, with the reconnect instants the
// user asked about: what the page and the report show first.
func (a *Analysis) Summary(qs []ResumeQuery) []SummaryLine {
	s := summarizer{a: a, qs: qs}
	if len(a.TL.Files) == 0 && (a.TL.Metrics != nil || len(a.TL.ServerLogs) > 0) {
		// The servers' own records alone: what they say, and that there
		// is no client to judge.
		if l, ok := a.metricsOnly(); ok {
			s.lines = append(s.lines, l)
		}
		s.serverLogs()
		if a.TL.Metrics == nil {
			s.add("server-logs", "No watch or request to judge: give the clients' captures, audit logs or own logs with these.")
		}
		return s.lines
	}
	if !a.TL.Judged() {
		// No verdict: "no 410" over a file that is no capture would be
		// an all-clear for something never judged.
		s.nothingJudged()
		return s.lines
	}
	s.unsynced()
	// A fleet that relisted is told first: its story is the answer; the
	// single clients' 410s follow it.
	if fl := a.Fleet(); fl != nil && fl.RelistsObserved > 0 {
		s.fleet()
		s.observed()
	} else {
		s.observed()
		s.fleet()
	}
	s.bookmarks()
	s.riskiest()
	s.resumeAt()
	s.contradicted()
	s.restarts()
	s.serverLogs()
	s.unknowns()
	s.lines = capSummary(s.lines)
	if s.lines == nil {
		return []SummaryLine{}
	}
	return s.lines
}

type summarizer struct {
	a       *Analysis
	qs      []ResumeQuery
	worst   map[int]reconnect // see worstRecorded
	lines   []SummaryLine
	unknown []string
}

// instant writes an instant in the zone the reader chose.
func (s *summarizer) instant(t int64) string { return s.a.instant(t) }

func (s *summarizer) add(topic, format string, args ...any) {
	// The names in a sentence (files, clients, objects) come from the
	// input: their direction controls are made visible here, once for
	// the report and the page.
	s.lines = append(s.lines, SummaryLine{Topic: topic, Text: VisibleBidi(fmt.Sprintf(format, args...))})
}

// plain says why a model refuses (or puts at risk) v's reconnect,
// without the watch cache's internals.
func (a *Analysis) plain(m Model, v Verdict) string {
	p, kind := a.Params, orWord(a.TL.Files[v.File].Kind, "object")
	switch m {
	case ModelCacheTime:
		return fmt.Sprintf("older than the %s of history the API server is sure to keep, though it may keep more when %s changes are few", p.CacheWindow, kind)
	case ModelCacheCapacity:
		if v.Outcome == AtRisk {
			return fmt.Sprintf("the API server's recent history of %s changes, replayed from a capture of every %s, may no longer have reached back to it", kind, kind)
		}
		return fmt.Sprintf("the API server's recent history of %s changes, replayed from a capture of every %s, no longer reached back to it", kind, kind)
	case ModelCacheCount:
		return fmt.Sprintf("more %s changes happened after it than the API server ever keeps", kind)
	case ModelEtcd:
		return "etcd had compacted its history past it"
	case ModelRestart:
		if v.Outcome == AtRisk {
			return "an API server restarted after it, and a reconnect that reached the restarted server would be refused"
		}
		return "the API server restarted after it, and a restarted server forgets what came before"
	case ModelServerCache:
		if v.Outcome == AtRisk {
			return fmt.Sprintf("the API server's own metrics leave in doubt whether its cache of %s changes still held it", kind)
		}
		return fmt.Sprintf("the API server's own metrics show its cache of %s changes no longer held it", kind)
	case ModelEveryServer:
		if v.Outcome == AtRisk {
			return "some API server would refuse it: its own evidence no longer holds it, and the load balancer may send the reconnect there"
		}
		return "every API server would refuse it: each one's own evidence no longer holds it"
	case ModelCalibration:
		if v.Outcome == AtRisk {
			// With several servers, one's 410 refuses only the
			// reconnects that reach it.
			return "an earlier 410 from an API server had already said it no longer kept it, and a reconnect that reached that server would be refused"
		}
		if s := v.modelServer(m); s >= 0 && len(a.TL.Servers) > 1 {
			return fmt.Sprintf("an earlier 410 from API server %s had already said it no longer kept it", a.TL.Servers[s].Name)
		}
		// Earlier: the 410 being explained is not its own evidence.
		return "an earlier 410 from the server had already said it no longer kept it"
	}
	return m.String()
}

// Decisive is the model that decided a verdict (refused or at risk),
// the one whose reason the verdict gives.
func (v Verdict) Decisive() (Model, bool) {
	found, ok := Model(0), false
	for _, m := range v.Models {
		if decidesOver(v.Outcome, m.Outcome, m.Model, found, ok) {
			found, ok = m.Model, true
		}
	}
	return found, ok
}

// Words says a verdict in plain words: its outcome and, when refused or
// at risk, why, without the watch cache's internals (Reason keeps the
// exact model reason).
func (a *Analysis) Words(v Verdict) string {
	switch {
	case v.Outcome == Unknown && v.HasCursor && v.At >= a.noneTakingFrom():
		return "not answered, as no API server took new requests then"
	case v.Waited > 0 && v.HasCursor:
		return fmt.Sprintf("answered only at %s, once the clients' requests reached an API server again, and %s", a.instant(v.At), a.outcomeWords(v))
	}
	return a.outcomeWords(v)
}

// outcomeWords is Words but for a wait for a server, or none to wait for.
func (a *Analysis) outcomeWords(v Verdict) string {
	switch v.Outcome {
	case Accepted:
		return "accepted"
	case Unknown:
		return "unknown"
	}
	w := OutcomeWords(v.Outcome)
	if m, ok := v.Decisive(); ok {
		w += ": " + a.plain(m, v)
	}
	return w
}

// OutcomeWords says an outcome in plain words: "refused (410 Gone)",
// "at risk of a 410", "accepted", "not judged".
func OutcomeWords(o Outcome) string {
	switch o {
	case Refused:
		return "refused (410 Gone)"
	case AtRisk:
		return "at risk of a 410"
	case Unknown:
		return "not judged"
	}
	return "accepted"
}

// afterGone says what the client did after the 410 that refused its
// session g, whose sentence names instant from: the relist it caused,
// how long after from, and after the 410's own arrival when that came
// later (a server shutting down answers a watch before it sends the
// 410), beside what its library does.
func (s *summarizer) afterGone(g int, from int64) string {
	tl := s.a.TL
	for _, rl := range tl.Relists {
		if rl.CauseSession != g {
			continue
		}
		t := fmt.Sprintf(". %s later it relisted (%s)", FormatDuration(rl.T-from), tl.RelistWords(rl))
		// A 410 an audit log implies has no arrival: its instant is the
		// watch's end, which its words already give.
		if _, known := tl.GoneArrival(g); known && rl.CauseT-from >= int64(100*time.Millisecond) && FormatDuration(rl.T-from) != FormatDuration(rl.T-rl.CauseT) {
			t = fmt.Sprintf(". %s later, %s after the 410 arrived, it relisted (%s)", FormatDuration(rl.T-from), FormatDuration(rl.T-rl.CauseT), tl.RelistWords(rl))
		}
		p := tl.FileProfile(rl.File)
		switch {
		case p.Library == LibraryUnknown:
		case p.RelistSource == rl.Source:
			t += ", as " + p.Words() + " does"
		default:
			t += ", where " + p.Words() + " " + p.After410
		}
		return t
	}
	return ""
}

// RelistWords says what a relist asked for, where the server served it
// and what it answered: "a LIST at RV 987, the expired cursor, served
// from the watch cache; it returned RV 1673". The RV asked for is the
// one named first: it decides where the server serves the relist; the
// list's own RV is the state it got.
func (tl *Timeline) RelistWords(rl Relist) string {
	how := "a LIST"
	if rl.Kind == RelistWatchList {
		how = "a WatchList"
	}
	switch {
	case !rl.Asked:
	case rl.AskedRV == "":
		how += " with no resourceVersion (the most recent state)"
	default:
		how += " at RV " + rl.AskedRV
		if tl.asksExpiredCursor(rl) {
			how += ", the expired cursor"
		}
	}
	if rl.Source != SourceUnknown {
		how += ", served from " + rl.Source.Words()
	}
	s := &tl.Sessions[rl.Session]
	switch {
	case s.HTTPStatus != 0 && s.HTTPStatus != 200:
		how += fmt.Sprintf("; the server answered HTTP %d", s.HTTPStatus)
	case s.List != nil && s.List.RV != "":
		how += "; it returned RV " + s.List.RV
	}
	return how
}

// asksExpiredCursor says the relist asked for the resourceVersion of the
// watch its 410 refused.
func (tl *Timeline) asksExpiredCursor(rl Relist) bool {
	if rl.Cause != CauseGone || rl.CauseSession < 0 {
		return false
	}
	q := tl.Sessions[rl.CauseSession].Request
	return q != nil && q.ResourceVersion == rl.AskedRV
}

// unsynced: the clients whose WatchList requests never ended their sync.
// An informer that never syncs is broken whatever its cursor does: its
// controller never starts, and each reconnect reads the whole selection
// again.
func (s *summarizer) unsynced() {
	tl := s.a.TL
	us := tl.UnsyncedClients()
	if len(us) == 0 {
		return
	}
	var requests, repeats, objects int
	var bytes int64
	noBookmarks, logged := 0, 0
	names := make([]string, 0, 2)
	for _, u := range us {
		// Logs show a client's requests, not the objects they read.
		if tl.Files[u.File].Audit {
			logged++
		}
		requests += u.Requests
		repeats += u.Repeats
		objects += u.Objects
		bytes += u.Bytes
		if u.NoBookmarks {
			noBookmarks++
		}
		if len(names) < 2 {
			names = append(names, tl.Files[u.File].ShortName())
		}
	}
	who := strings.Join(names, " and ")
	if len(us) > len(names) {
		who = fmt.Sprintf("%d clients (%s, ...)", len(us), strings.Join(names, ", "))
	}
	their := "their"
	if len(us) == 1 {
		their = "its"
	}
	why := their + " WatchList streams ended before the bookmark that ends the initial list"
	if noBookmarks == len(us) {
		why = their + " WatchList requests did not ask for bookmarks, so the bookmark that ends the initial list never came (asking for them would have ended the sync)"
	}
	t := fmt.Sprintf("%s never synced: %s", who, why)
	switch {
	case repeats > 0 && logged == len(us):
		t += fmt.Sprintf("; each reconnect read the whole selection again (%s, %d of them repeats; the logs do not show the objects they read)",
			quantity.Plural(requests, "request"), repeats)
	case repeats > 0:
		t += fmt.Sprintf("; each reconnect read the whole selection again (%s, %d of them repeats, %s, %s)",
			quantity.Plural(requests, "request"), repeats, quantity.Plural(objects, "object"), quantity.Bytes(bytes))
	}
	s.add("unsynced", "%s.", t)
}

// serverTally says how many 410s each server sent, by name, and by its
// process where it restarted (byServer holds a count per process): "a
// (27), b (24) and c (23)"; "a (39, all after its restart), b (16: 5
// before its restart, 11 after)"; "a (9: 3 from a#1, 5 from a#2 and 1
// from a#3)". A server's restart and its 410s are told apart: a new
// process refuses what it never held, the old one what it had evicted.
func serverTally(byServer map[string][]int) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(byServer)) {
		counts := byServer[name]
		n := 0
		for _, c := range counts {
			n += c
		}
		switch {
		case len(counts) == 1:
			parts = append(parts, fmt.Sprintf("%s (%d)", name, n))
		case len(counts) == 2 && counts[1] == 0:
			parts = append(parts, fmt.Sprintf("%s (%d, all before its restart)", name, n))
		case len(counts) == 2 && counts[0] == 0:
			parts = append(parts, fmt.Sprintf("%s (%d, all after its restart)", name, n))
		case len(counts) == 2:
			parts = append(parts, fmt.Sprintf("%s (%d: %d before its restart, %d after)", name, n, counts[0], counts[1]))
		default:
			var each []string
			for inc, c := range counts {
				if c > 0 {
					each = append(each, fmt.Sprintf("%d from %s", c, ProcessName(name, inc)))
				}
			}
			parts = append(parts, fmt.Sprintf("%s (%d: %s)", name, n, joinWords(each)))
		}
	}
	return joinWords(parts)
}

// observed: each observed 410 (the first two), or the reconnects the
// models refuse when none was observed.
func (s *summarizer) observed() {
	tl := s.a.TL
	var texts []string
	n := 0
	judged := map[int]bool{} // sessions whose 410 a resume above says
	// The first two, in the order the servers refused them.
	var refused []Resume
	for _, rs := range s.a.Resumes {
		if rs.Observed == Refused {
			refused = append(refused, rs)
			judged[rs.Session] = true
		}
	}
	slices.SortStableFunc(refused, func(x, y Resume) int {
		tx, _ := tl.ServerReceived(x.Session)
		ty, _ := tl.ServerReceived(y.Session)
		return cmp.Compare(tx, ty)
	})
	// Every 410 by the server, and its process, that sent it, when the
	// records name them.
	byServer, named := map[string][]int{}, true
	tally := func(session int) {
		srv, inc, ok := tl.ServerOf(session)
		named = named && ok && inc >= 0
		if !ok || inc < 0 {
			return
		}
		name := tl.Servers[srv].Name
		if byServer[name] == nil {
			byServer[name] = make([]int, len(tl.Servers[srv].Incarnations))
		}
		byServer[name][inc]++
	}
	for _, rs := range refused {
		if tl.CopiedGone(rs.Session) {
			// The same answer, recorded again: told once.
			continue
		}
		tally(rs.Session)
		n++
		if n > 2 {
			continue
		}
		ss := &tl.Sessions[rs.Session]
		f := &tl.Files[ss.File]
		server := "the server"
		if name := tl.ServerName(rs.Session); name != "" {
			server = "API server " + name
		}
		at, sent := tl.ServerReceived(rs.Session)
		var t string
		var why []string
		arrived, known := tl.GoneArrival(rs.Session)
		switch {
		case ss.inferredGone:
			// An audit log's instants are the server's: it received the
			// request then.
			t = fmt.Sprintf("At %s %s most likely refused %s's reconnect from RV %s with 410 Gone (%s)", s.instant(at), server, f.ShortName(), rs.RV, s.inferredGoneWords(rs.Session))
		case at != sent:
			t = fmt.Sprintf("%s's reconnect from RV %s, %s, reached %s at %s and was refused with 410 Gone", f.ShortName(), rs.RV, tl.SentWords(rs.Session, s.instant), server, s.instant(at))
		default:
			t = fmt.Sprintf("%s's reconnect from RV %s, %s, was refused by %s with 410 Gone", f.ShortName(), rs.RV, tl.SentWords(rs.Session, s.instant), server)
		}
		if known && arrived > sent {
			why = append(why, fmt.Sprintf("the 410 arrived %s after it was sent", FormatDuration(arrived-sent)))
		}
		if st := ss.Error; st != nil && st.TooOld {
			why = append(why, fmt.Sprintf("the oldest RV the server still accepted was %d", st.Y))
		}
		t += aside(why...)
		p := rs.Predicted
		switch {
		case p.HasCursor && tl.SinceAtMost(rs.Session):
			t += fmt.Sprintf(": the cursor had not moved for at most %s (its audit log shows when the client's previous watch began, not its last event)", FormatDuration(at-p.Since))
		case p.HasCursor && f.BookmarksUnseen():
			t += fmt.Sprintf(": the cursor had not moved for at most %s (its own log shows no bookmarks, which may have confirmed it since)", FormatDuration(at-p.Since))
		case p.HasCursor:
			t += fmt.Sprintf(": the cursor had not moved for %s", FormatDuration(at-p.Since))
		}
		switch p.Outcome {
		case Refused, AtRisk:
			if m, ok := p.Decisive(); ok {
				t += " — " + s.a.plain(m, p)
			}
		case Accepted:
			t += "; the models had not expected it"
		}
		t += s.afterGone(rs.Session, sent)
		texts = append(texts, t+".")
	}
	// Every other 410 of the record, which no cursor explains (a watch
	// from an RV the client never held, a LIST, a bare 410 response, one
	// an audit log implies): the headline never says "no 410" over one.
	for _, g := range tl.Gones() {
		if judged[g.Session] || tl.CopiedGone(g.Session) {
			continue
		}
		tally(g.Session)
		n++
		if n <= 2 {
			texts = append(texts, s.goneWords(g))
		}
	}
	if n > 2 {
		t := "And " + quantity.Plural(n-2, "more 410")
		if named && len(byServer) > 1 {
			t += fmt.Sprintf(": %d in all, from API servers %s", n, serverTally(byServer))
		}
		texts = append(texts, t+".")
	}
	if n == 0 {
		w := s.a.WhatIf
		rereading := s.rereadingReconnects()
		switch {
		case w.RelistsWith+w.RelistsWithout > 0 || rereading > 0:
			texts = append(texts, s.whatIfWords(rereading))
		case w.Reconnects == 0 && len(tl.UnsyncedClients()) > 0:
			// The requests again of a client that never synced read the
			// whole state each: they resume no cursor (the unsynced line).
			texts = append(texts, "No 410 was observed, and no client that synced reconnected.")
		case w.Reconnects == 0 && len(tl.Files) > 1:
			texts = append(texts, "No 410 was observed, and no watch reconnected.")
		case w.Reconnects == 0:
			texts = append(texts, "No 410 was observed, and the capture has no reconnect.")
		default:
			texts = append(texts, "No 410 was observed"+s.noneRefusedWords()+".")
		}
	}
	if k := len(tl.Relists); k > 0 {
		after, logged := 0, false
		for _, rl := range tl.Relists {
			if rl.Cause == CauseGone {
				after++
			}
			// A client of an audit log or its own log was not captured.
			logged = logged || tl.Files[rl.File].Audit
		}
		one, many := "The capture shows", "The captures show"
		if logged {
			one, many = "The records show", "The records show"
		}
		t := one + " a client fetching its whole list again (a relist) once"
		if k > 1 {
			t = fmt.Sprintf("%s clients fetching their whole lists again (relists) %d times", many, k)
		}
		switch {
		case after == 0:
			t += ", with no 410 seen before."
		case after == k:
			t += ", after a 410."
		default:
			t += fmt.Sprintf(", %d of them after a 410.", after)
		}
		texts = append(texts, t)
	}
	s.add("observed", "%s", strings.Join(texts, " "))
}

// whatIfWords says, where no 410 was observed, how many reconnects would
// have been refused with the clients' bookmarks and without them. A
// WatchList client's reconnect without bookmarks is no 410: it would
// never have synced, and reads the whole selection again: watchLists
// counts those reconnects (rereadingReconnects).
func (s *summarizer) whatIfWords(watchLists int) string {
	w := &s.a.WhatIf
	whose := "the client's"
	if len(s.a.TL.Files) > 1 {
		whose = "the clients'"
	}
	t := fmt.Sprintf("No 410 was observed, but of the %s recorded, %d would have been refused with %s bookmarks", quantity.Plural(w.Reconnects, "reconnect"), w.RelistsWith, whose)
	if w.RelistsWith == 0 {
		// The contrast is only without bookmarks.
		t = fmt.Sprintf("No 410 was observed, and of the %s recorded, none would have been refused with %s bookmarks", quantity.Plural(w.Reconnects, "reconnect"), whose)
	}
	switch {
	case watchLists == 0 && w.RelistsWith == 0:
		return t + fmt.Sprintf(", but %d would have been without them.", w.RelistsWithout)
	case watchLists == 0:
		return t + fmt.Sprintf(" and %d without them.", w.RelistsWithout)
	case watchLists == w.Reconnects:
		return t + fmt.Sprintf("; without them, the clients' WatchLists would never have synced, and each of the %d would have read the whole selection again.", watchLists)
	}
	refused := 0
	for _, pt := range w.Points {
		if !s.rereads(pt) && pt.Without.Outcome == Refused {
			refused++
		}
	}
	return t + fmt.Sprintf("; without them, %d would have been refused, and %d, of WatchList clients, which would never have synced, would have read the whole selection again.", refused, watchLists)
}

// rereadingReconnects counts the what-if's reconnects whose clients would,
// without bookmarks, read their whole selections again at each (rereads).
func (s *summarizer) rereadingReconnects() int {
	n := 0
	for _, pt := range s.a.WhatIf.Points {
		if s.rereads(pt) {
			n++
		}
	}
	return n
}

// rereads says the client of the what-if's reconnect pt would, without
// bookmarks, read its whole selection again (Timeline.rereadsWithoutBookmarks).
func (s *summarizer) rereads(pt ReconnectPoint) bool {
	return s.a.TL.rereadsWithoutBookmarks(s.a.TL.Sessions[pt.Session].File)
}

// inferredGoneWords says what the audit log shows of session g's 410,
// which it implies (Session.inferredGone): "its audit log records a
// watch's 200 header, never the 410 in its stream: the watch ended 7.7s
// after it began and the client fetched its list again 7.5s after it
// ended" (the relist's own delay, after it, is from the watch's start).
func (s *summarizer) inferredGoneWords(g int) string {
	tl := s.a.TL
	ss := &tl.Sessions[g]
	return inferredGoneWhy(ss.End-ss.Start, tl.nextStart(g)-ss.End)
}

// goneWords says a 410 that no resume of a cursor explains.
func (s *summarizer) goneWords(g Gone) string {
	tl := s.a.TL
	ss := &tl.Sessions[g.Session]
	f := &tl.Files[ss.File]
	at := ""
	if f.Clock != ClockNone {
		at = " at " + s.instant(g.T)
	}
	what := ""
	if q := ss.Request; q != nil && q.Watch && q.ResourceVersion != "" {
		what = " on its watch from RV " + q.ResourceVersion
		// A client that ignores bookmarks resumes from its last event's
		// RV, older than the cursor the stream had given it.
		if rv, _, _, ok := tl.Cursors[2*ss.File].At(ss.Start - 1); ok && FormatRV(rv) != q.ResourceVersion {
			what += fmt.Sprintf(", though the stream before had moved its cursor to RV %s", FormatRV(rv))
		}
	}
	switch {
	case g.Inferred:
		return fmt.Sprintf("%s most likely got 410 Gone%s%s (%s).", f.ShortName(), at, what, s.inferredGoneWords(g.Session))
	case g.Status == nil || g.Status.Message == "":
		return fmt.Sprintf("%s got 410 Gone%s%s.", f.ShortName(), at, what)
	}
	return fmt.Sprintf("%s got 410 Gone%s%s: %s.", f.ShortName(), at, what, strings.TrimSuffix(g.Status.Message, "."))
}

// fleet: with several clients, how many relisted, and how many would
// have with and without bookmarks.
func (s *summarizer) fleet() {
	f := s.a.Fleet()
	if f == nil {
		return
	}
	s.add("fleet", "%s", strings.Join(nonEmpty(s.fleetRelists(f), s.fleetCopies(f), s.fleetBookmarks(f), s.a.worstWords(f, false)), " "))
}

// fleetCopies says how many of the fleet's clients are captures holding
// the same watch as another (DiagSameWatch): each count takes such a
// recording twice.
func (s *summarizer) fleetCopies(f *Fleet) string {
	n := 0
	for _, c := range f.Clients {
		if s.a.TL.Files[c.File].HoldsSameWatch() {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	if n == 1 {
		return "1 of these captures holds the same watch as another given before it, most likely the same recording twice, and its client is counted twice here (see the doubts)."
	}
	return fmt.Sprintf("%d of these captures hold the same watch as others given before them, most likely the same recordings twice, and their clients are counted twice here (see the doubts).", n)
}

// fleetRelists is the fleet's story in one sentence: how many clients
// relisted how many times, when, and after what (an outage, the API
// servers' restarts).
func (s *summarizer) fleetRelists(f *Fleet) string {
	tl := s.a.TL
	relisting, first, last := 0, int64(0), int64(0)
	for _, c := range f.Clients {
		if len(c.Relists) > 0 {
			relisting++
		}
		for _, r := range c.Relists {
			if first == 0 || r.T < first {
				first = r.T
			}
			last = max(last, r.T)
		}
	}
	unrecorded := s.endsAtGoneWords(f)
	// A client that never synced has nothing to list again: its
	// reconnects read the whole state for the first time each (the
	// unsynced line says so), and the relists count among those that
	// synced.
	clients, ofWhom := fmt.Sprintf("the %d clients", len(f.Clients)), fmt.Sprintf("the %d", len(f.Clients))
	if synced := f.Synced(); synced == 0 {
		repeats := 0
		for k := range f.Clients {
			repeats += f.Clients[k].Repeats
		}
		if repeats == 0 {
			return fmt.Sprintf("None of the %d clients synced, so none could relist.", len(f.Clients))
		}
		return fmt.Sprintf("None of the %d clients synced, so none could relist, but each request after a client's first read its whole selection again, %s in all.", len(f.Clients), quantity.Plural(repeats, "time"))
	} else if synced < len(f.Clients) {
		clients, ofWhom = fmt.Sprintf("the %d clients that synced", synced), fmt.Sprintf("the %d that synced", synced)
	}
	if relisting == 0 {
		// No relist across restarts is the story: name them.
		across := ""
		if rs := s.restartTimes(); len(rs) > 0 {
			across = " across " + rs
		}
		if unrecorded != "" {
			return fmt.Sprintf("No relist of %s is recorded%s, but %s.", clients, across, unrecorded)
		}
		return fmt.Sprintf("None of %s relisted%s.", clients, across)
	}
	if unrecorded != "" {
		unrecorded = "; and " + unrecorded
	}
	t := fmt.Sprintf("%s of %s relisted %s", quantity.Plural(relisting, "client"), ofWhom, quantity.Plural(f.RelistsObserved, "time"))
	if f.RelistsObserved > 1 {
		t += fmt.Sprintf(", between %s and %s", s.instant(first), s.instant(last))
	} else {
		t += " at " + s.instant(first)
	}
	if os := tl.OutageReturns(); len(os) > 0 && os[0].Relists > 0 {
		// The stampede after an outage is the story: told first, the
		// fleet's totals after it when other relists add to it.
		st := s.stampede(os[0])
		if os[0].Relists == f.RelistsObserved {
			return st + unrecorded + "."
		}
		return st + "; in all, " + t + unrecorded + "."
	} else if rs := s.restartTimes(); len(rs) > 0 {
		caused := 0
		for _, r := range s.a.Restarts {
			caused += r.Relists
		}
		if caused == 0 && len(s.a.Params.Restarts) == 0 {
			// Relists in the detected restarts' time that none of them
			// caused (those given with -restart count none):
			// one server's audit logs alone, say, hold the relists the
			// others' restarts caused, not the watches those ended.
			return t + ". None of them followed a watch ended by " + rs + unrecorded + "." + s.refusedCarried()
		}
		t += ", around " + rs
		if caused < f.RelistsObserved {
			// Not every relist "around" the restarts is one: a cache that
			// kept too little later refuses too (the restarts table).
			t += fmt.Sprintf(" (%d of the relists followed watches the restarts ended, the other %d followed watches that ended otherwise)", caused, f.RelistsObserved-caused)
		}
	}
	return t + unrecorded + "." + s.refusedCarried()
}

// refusedCarried says, after a space, why the fleet's refused reconnects
// came (goneWhy); "" when their cursors' ages are not known.
func (s *summarizer) refusedCarried() string {
	r := s.a.refusalAges(math.MinInt64, math.MaxInt64)
	if why := s.goneWhy("The "+quantity.Plural(r.refused, "refused reconnect")+" carried", r); why != "" {
		return " " + why
	}
	return ""
}

// goneWhy says in one sentence why the refusals r came, after lead (up
// to the cursors): "Cut off for 2m30s, they came back with cursors
// about 3.5 minutes old, but the API servers kept only about the last
// 2.5 minutes of ConfigMap and Secret changes, so they no longer had the
// changes needed to resume from those cursors."; with no figure of the
// history kept, "..., older than the oldest change the API servers still
// kept (each 410 names it)."; "" when the cursors' ages are not known.
// Ages far apart are given as their range and median: a median alone
// hides how young some of the refused cursors were.
func (s *summarizer) goneWhy(lead string, r refusalAges) string {
	if r.refused == 0 || !r.hasAge {
		return ""
	}
	cursors, those, who := "cursors", "those cursors", "all from clients that did not ask for bookmarks"
	if r.refused == 1 {
		cursors, those, who = "a cursor", "that cursor", "from a client that did not ask for bookmarks"
	}
	age, kept := roughly(r.age), roughly(r.kept)
	if age == kept {
		// Rounded alike, the two figures would read as no cause.
		age, kept = FormatDuration(r.age), FormatDuration(r.kept)
	}
	t := fmt.Sprintf("%s %s about %s old", lead, cursors, age)
	var asides []string
	if r.refused > 1 && roughly(r.youngest) != roughly(r.oldest) {
		t = fmt.Sprintf("%s %s from %s to %s old", lead, cursors, FormatDuration(r.youngest), FormatDuration(r.oldest))
		asides = append(asides, "median about "+age)
	}
	if r.noBookmarks == r.refused {
		asides = append(asides, who)
	}
	if len(asides) > 0 {
		t += " (" + strings.Join(asides, "; ") + ")"
	}
	// As many servers as the records and the settings show: one, as the
	// rest of the summary says it, unless more are known.
	servers, they := "the API servers", "they"
	if s.a.ServerCount() == 1 {
		servers, they = "the API server", "it"
	}
	if !r.hasKept || r.kept >= r.age {
		// Without the history kept, or with medians of different
		// refusals that do not set the cause apart, the 410s say it.
		t = fmt.Sprintf("%s, older than the oldest change %s still kept", t, servers)
		if r.named == r.refused {
			t += " (each 410 names it)"
		}
		return t + "." + newProcessWords(r)
	}
	changes := "changes"
	if len(r.kinds) > 0 {
		changes = joinWords(r.kinds) + " changes"
	}
	if r.refused > 1 && r.withinKept > 0 {
		// Some were younger than their server's history: it explains
		// the older ones (a new process's may explain the others).
		those = "the older of those cursors"
	}
	if r.refused > 1 && r.withinKept == 0 && r.youngest < r.kept && roughly(r.keptLeast) != roughly(r.keptMost) {
		// The youngest cursor is younger than the median history, but
		// each refusing server kept less than its cursor's age: the
		// histories' range says it, where their median beside the ages'
		// range reads as no cause.
		least, most := FormatDuration(r.keptLeast), FormatDuration(r.keptMost)
		if s.a.ServerCount() == 1 {
			each := "each time less than the age of the cursor it refused"
			if r.compared < r.refused {
				each = "each time its metrics show, less than the age of the cursor it refused"
			}
			return fmt.Sprintf("%s, but at its refusals the API server kept only the last %s to %s of %s, %s, so it no longer had the changes needed to resume from them.", t, least, most, changes, each) + newProcessWords(r)
		}
		each := "each less than the age of the cursor it refused"
		if r.compared < r.refused {
			each = "each, where its metrics show it, less than the age of the cursor it refused"
		}
		return fmt.Sprintf("%s, but the API servers that refused them kept only the last %s to %s of %s, %s, so they no longer had the changes needed to resume from them.", t, least, most, changes, each) + newProcessWords(r)
	}
	return fmt.Sprintf("%s, but %s kept only about the last %s of %s, so %s no longer had the changes needed to resume from %s.", t, servers, kept, changes, they, those) + newProcessWords(r)
}

// newProcessWords says, after a space, how many of the refusals r came
// from a server's process whose history, begun at its start, never held
// the cursor; "" for none. The others may have come from such a process
// too where nothing shows whether its first list was past the cursor
// (an RV made between the old process's end and the new one's list):
// the count is a least.
func newProcessWords(r refusalAges) string {
	switch {
	case r.newProcess == 0:
		return ""
	case r.newProcess == r.refused && r.refused == 1:
		return " It came from an API server process started after newer changes than the cursor were made: its history began at its start and never held the cursor."
	case r.newProcess == r.refused:
		return " Each came from an API server process started after newer changes than its cursor were made: its history began at its start and never held the cursor."
	}
	return fmt.Sprintf(" At least %d of them came from an API server process started after newer changes than the cursor were made: its history began at its start and never held the cursor.", r.newProcess)
}

// endsAtGoneWords says which clients' records end at a 410 Gone, before
// the relist it sends them to (FleetClient.EndsAtGone): "w4.http's
// capture ends at a 410 Gone, which sends it to relist"; "" for none.
func (s *summarizer) endsAtGoneWords(f *Fleet) string {
	var ended []int
	logged := false // a client of an audit log was not captured
	for _, c := range f.Clients {
		if c.EndsAtGone {
			ended = append(ended, c.File)
			logged = logged || s.a.TL.Files[c.File].Audit
		}
	}
	switch {
	case len(ended) == 0:
		return ""
	case len(ended) > 1 && logged:
		return fmt.Sprintf("the records of %d clients end at a 410 Gone, which sends each to relist", len(ended))
	case len(ended) > 1:
		return fmt.Sprintf("the captures of %d clients end at a 410 Gone, which sends each to relist", len(ended))
	case logged:
		return fmt.Sprintf("%s's records end at a 410 Gone, which sends it to relist", s.a.TL.Files[ended[0]].ShortName())
	}
	return fmt.Sprintf("%s's capture ends at a 410 Gone, which sends it to relist", s.a.TL.Files[ended[0]].ShortName())
}

// stampede tells the relists after an outage: "74 clients got 410 Gone
// and relisted between 8 and 77 s after the outage ended" (the 410 said
// when every relist followed one; OutageReturn.End says which end the
// delays count from).
func (s *summarizer) stampede(o OutageReturn) string {
	first, last := o.AfterEnd()
	_, lastAttempt := o.End()
	did := "relisted"
	if o.AfterGone == o.Relists {
		did = "got 410 Gone and relisted"
	}
	t := fmt.Sprintf("%s %s %s (", quantity.Plural(o.RelistClients, "client"), did, RelistDelayWords(first, last, lastAttempt))
	if o.Relists != o.RelistClients {
		t += quantity.Plural(o.Relists, "relist") + ", "
	}
	t += fmt.Sprintf("from %s to %s)", s.instant(o.To+o.First), s.instant(o.To+o.Last))
	var cut string // what the records show of the cut
	if o.Silent {
		cut = o.SilenceWords(s.instant)
	} else {
		failed := ""
		if o.ErrorAttempts > 0 {
			failed = fmt.Sprintf(", %d of them failing with %q", o.ErrorAttempts, o.Error)
			if o.ErrorAttempts == o.Attempts {
				failed = fmt.Sprintf(", each failing with %q", o.Error)
			}
		}
		cut = fmt.Sprintf("no request of the captured clients reached a server from %s to %s (%s; %d attempts by %d clients%s), and %s",
			s.instant(o.From), s.instant(o.LastAttempt), FormatDuration(o.LastAttempt-o.From), o.Attempts, o.Clients, failed, o.FirstAnsweredWords(s.instant))
		if back := o.BackWords(s.instant); back != "" {
			cut += "; " + back
		}
	}
	// Why they got 410 Gone is its own sentence, right after the count;
	// what the records show of the cut follows it.
	if why := s.goneWhy(s.cutOffLead(o), s.a.refusalAges(o.To, o.until)); why != "" {
		t += ". " + why + " " + strings.ToUpper(cut[:1]) + cut[1:]
	} else {
		t += ": " + cut
	}
	if o.ServersUp() {
		t += "; " + o.serversUpWords()
	}
	return t
}

// cutOffLead opens the sentence of why the clients back from outage o got
// 410 Gone: "Cut off for 2m30s, they came back with".
func (s *summarizer) cutOffLead(o OutageReturn) string {
	cut := o.LastAttempt - o.From
	if o.Silent {
		cut = o.To - o.From
	}
	who := "they"
	if o.AfterGone != o.Relists {
		who = "those refused"
	}
	return fmt.Sprintf("Cut off for %s, %s came back with", FormatDuration(cut), who)
}

// undecidedOutage is what an outage may be when nothing shows a server
// up during it.
const undecidedOutage = "every API server restarting, or the way to them cut (a load balancer, the network)"

// CauseWords says what the records make of the outage: the servers up
// and the way to them cut (serversUpWords), else either of the two.
func (o Outage) CauseWords() string {
	if o.ServersUp() {
		return o.serversUpWords()
	}
	return undecidedOutage
}

// serversUpWords says what showed the API servers up during the outage,
// and what that makes of it: "API servers a, b and c were up meanwhile
// (the audit logs show 3 lists and watches answered; their own logs show
// no restart): the clients' way to them was cut, as a load balancer or a
// network does when it fails, not the servers".
func (o Outage) serversUpWords() string {
	who, their, them := "the API servers were", "their", "them"
	switch len(o.Up) {
	case 0:
	case 1:
		who, their, them = "API server "+o.Up[0]+" was", "its", "it"
	default:
		who = "API servers " + joinWords(o.Up) + " were"
	}
	var shown, answered []string
	if o.Answered > 0 {
		what := "lists and watches"
		if o.Answered == 1 {
			what = "list or watch"
		}
		answered = append(answered, fmt.Sprintf("%d %s", o.Answered, what))
	}
	if o.Others > 0 {
		answered = append(answered, quantity.Plural(o.Others, "other request"))
	}
	if len(answered) > 0 {
		shown = append(shown, "the audit logs show "+strings.Join(answered, " and ")+" answered")
	}
	switch len(o.upBySpan) {
	case 0:
	case 1:
		shown = append(shown, "the audit log of "+o.upBySpan[0]+" shows one process from before to after, with no request reaching it")
	default:
		shown = append(shown, "the audit logs of "+joinWords(o.upBySpan)+" show one process of each from before to after, with no request reaching them")
	}
	if o.Logged {
		shown = append(shown, their+" own logs show no restart")
	}
	return fmt.Sprintf("%s up meanwhile (%s): the clients' way to %s was cut, as a load balancer or a network does when it fails, not the servers",
		who, strings.Join(shown, "; "), them)
}

// restartTimes names the API server restarts as given, else those the
// captures suggest: "the API server restarts at 08:41:32 and 08:45:08
// UTC (probable)".
// serverLogs says what the API servers' own logs show: their restarts,
// and the watch caches that ended every watch of their resource with no
// restart, which sends those clients to resume as a restart does.
func (s *summarizer) serverLogs() {
	tl := s.a.TL
	if len(tl.ServerLogs) == 0 {
		return
	}
	var parts []string
	var restarts []string
	for _, r := range tl.ServerLogRestarts() {
		restarts = append(restarts, fmt.Sprintf("%s at %s (a new process at %s)", orWord(r.Server, "a server"), s.instant(r.SIGTERM), s.instant(r.NewStart)))
	}
	if restarts != nil {
		parts = append(parts, "SIGTERM to API server "+joinWords(restarts))
	} else {
		parts = append(parts, "no restart")
	}
	// A cache rebuilt ends every watch of its resource: told where the
	// clients watched it, counted where they did not.
	watched := map[string]bool{}
	for _, r := range tl.WatchedResources() {
		watched[r] = true
	}
	var reinits []string
	others := map[string]int{} // per resource the clients did not watch, by its name
	for _, r := range tl.CacheReinits() {
		if !watched[r.Resource] {
			others[r.ResourceName()]++
			continue
		}
		reinits = append(reinits, fmt.Sprintf("%s on %s at %s", r.Resource, orWord(r.Server, "a server"), s.instant(r.T)))
	}
	switch n := len(reinits); {
	case n == 0:
	case n > 4:
		parts = append(parts, fmt.Sprintf("%d watch caches of what these clients watched rebuilt with no restart, ending every watch of their resource (%s, ...)", n, strings.Join(reinits[:3], "; ")))
	default:
		parts = append(parts, "watch caches of what these clients watched rebuilt with no restart, each ending every watch of its resource: "+joinWords(reinits))
	}
	if len(others) > 0 {
		var names []string
		n := 0
		for _, name := range slices.Sorted(maps.Keys(others)) {
			n += others[name]
			switch k := others[name]; {
			case k == 2:
				name += " twice"
			case k > 2:
				name = fmt.Sprintf("%s %d times", name, k)
			}
			names = append(names, name)
		}
		// Counted where the rebuild ended watches: a cache with none open
		// logs its new list alone, which no client meets.
		their := "their"
		if n == 1 {
			their = "its"
		}
		rebuilt := fmt.Sprintf("%s rebuilt, ending %s watches (%s)", quantity.Plural(n, "watch cache"), their, joinWords(names))
		if len(s.a.TL.Files) > 0 {
			rebuilt = fmt.Sprintf("%s of other resources rebuilt, ending %s watches (%s), which these clients did not watch", quantity.Plural(n, "watch cache"), their, joinWords(names))
		}
		parts = append(parts, rebuilt)
	}
	s.add("server-logs", "The API servers' own logs show %s.", strings.Join(parts, "; "))
}

// closingWords says when the old process of each restart stopped taking
// new requests, where the records show it of every one, before the
// words of its watches' end: "stopped taking new requests (a between T
// and U, ..., as their scrapes bound them: a reconnect from then on went
// to another server) and ", "" otherwise. A closing its own log or its
// audit log shows is "at T". source says which records show it, where
// the sentence has not said so (their own logs).
func (s *summarizer) closingWords(source bool) string {
	var at []string
	var by [ClosingExited + 1]bool
	for _, r := range s.a.Restarts {
		if r.Closing == 0 {
			return ""
		}
		at = append(at, r.ServerName+" "+closingSpan(r.Closing, r.ClosingBy, r.ClosingSource, s.instant))
		by[r.ClosingSource] = true
	}
	var shows []string
	for c := ClosingLogged; c <= ClosingExited; c++ {
		if by[c] {
			// Their own logs say it in the plural, of one restart too.
			shows = append(shows, strings.TrimPrefix(c.shown(len(at) > 1 || c == ClosingLogged), "as "))
		}
	}
	shown := ""
	if len(shows) > 1 || !by[ClosingLogged] || source {
		shown = ", as " + strings.Join(shows, " or ")
	}
	went := "went to another server"
	if s.a.ServerCount() < 2 {
		went = "reached no server"
	}
	return fmt.Sprintf("stopped taking new requests (%s%s: a reconnect from then on %s) and ", joinWords(at), shown, went)
}

// finalStopWords tells, after the restarts, that every server's last
// process stopped taking requests, where the records show it: " Then
// every API server stopped taking requests, none back within the
// records: a at T and b at U, as ...; a reconnect from U on finds no
// server to answer." "" where one did not.
func (s *summarizer) finalStopWords() string {
	from := s.a.noneTakingFrom()
	if from == never {
		return ""
	}
	var at []string
	source := ClosingUnknown
	for k := range s.a.TL.Servers {
		srv := &s.a.TL.Servers[k]
		last := &srv.Incarnations[len(srv.Incarnations)-1]
		at = append(at, srv.Name+" "+closingSpan(last.Closing, last.ClosingBy, last.ClosingSource, s.instant))
		if k == 0 || last.ClosingSource == source {
			source = last.ClosingSource
		} else {
			source = ClosingUnknown
		}
	}
	shown := ""
	if source != ClosingUnknown {
		shown = ", " + source.shown(len(at) > 1)
	}
	every := "every API server"
	if len(at) == 1 {
		every = "the API server"
	}
	return fmt.Sprintf(" Then %s stopped taking requests, none back within the records: %s%s; a reconnect from %s on finds no server to answer.", every, joinWords(at), shown, s.instant(from))
}

// loggedRestarts names the server of each detected restart and the
// instant its old process ended its watches when the logs show every one
// (a server's audit log ending and its new process's starting, or
// SIGTERM and a new process in its own log), nil otherwise.
func (s *summarizer) loggedRestarts() (names, ended []string) {
	for _, r := range s.a.Restarts {
		if r.ServerName == "" {
			return nil, nil
		}
		names, ended = append(names, r.ServerName), append(ended, s.instant(r.Ended))
	}
	return names, ended
}

// AuditLogged says whether the audit logs show every restart of rs: then
// the model knows each server's restarts and applies them itself, and
// nothing is left to apply by hand.
func AuditLogged(rs []DetectedRestart) bool {
	for _, r := range rs {
		if r.Logs == nil {
			return false
		}
	}
	return true
}

// joinWords joins "a", "b" and "c" as a sentence says them.
func joinWords(ws []string) string { return joinLast(ws, " and ") }

// orWords joins "a", "b" or "c" as a sentence says them.
func orWords(ws []string) string { return joinLast(ws, " or ") }

// joinLast joins ws with commas, and the last two with last.
func joinLast(ws []string, last string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + last + ws[len(ws)-1]
}

func (s *summarizer) restartTimes() string {
	var ts []string
	for _, r := range s.a.Params.Restarts {
		ts = append(ts, s.instant(r.From))
	}
	probable := ""
	if len(ts) == 0 {
		if names, ended := s.loggedRestarts(); names != nil {
			// A restart is seen where the old process ended its
			// watches, a minute or so after its SIGTERM: the words say
			// which instant they give.
			if len(names) == 1 {
				return "the restart of API server " + names[0] + ", which ended its watches at " + ended[0]
			}
			return "the restarts of API servers " + joinWords(names) + ", which ended their watches at " + joinWords(ended)
		}
		for _, r := range s.a.Restarts {
			ts = append(ts, s.instant(r.Ended))
		}
		probable = "probable "
	}
	switch len(ts) {
	case 0:
		return ""
	case 1:
		return "the " + probable + "API server restart at " + ts[0]
	}
	return fmt.Sprintf("the %d %sAPI server restarts at %s and %s", len(ts), probable, strings.Join(ts[:len(ts)-1], ", "), ts[len(ts)-1])
}

// fleetBookmarks says what bookmarks change for the fleet. A count
// leaves out the reconnects no model could judge (from audit logs alone,
// most of those with bookmarks): it says how many, with the reason the
// first time.
func (s *summarizer) fleetBookmarks(f *Fleet) string {
	why, unseen := ": nothing shows the cluster's head then", f.BookmarksUnseen()
	switch {
	case f.AllBookmarksUnseen():
		return "The client logs show neither the bookmarks each client asked for nor those it received: what bookmarks would have saved is not known from them (the captures, or the API servers' audit logs, show whether each watch asked)."
	case !f.SavingsKnown:
		t := "Whether bookmarks would have spared the relists of the clients that did not ask for them is not known: nothing recorded shows the cluster's head at their reconnects"
		asked, relists := 0, 0
		for k := range f.Clients {
			if c := &f.Clients[k]; c.Bookmarks && !c.BookmarksUnseen {
				asked, relists = asked+1, relists+len(c.Relists)
			}
		}
		if asked > 0 {
			t += fmt.Sprintf(" (the %s that asked for them relisted %s)", quantity.Plural(asked, "client"), quantity.Plural(relists, "time"))
		}
		return t + "."
	case unseen > 0:
		why = ": nothing shows the cluster's head then, or the client's own log shows no bookmarks"
	}
	notJudged := func(n int) string {
		if n == 0 {
			return ""
		}
		s := fmt.Sprintf(" (%d more could not be judged%s)", n, why)
		why = ""
		return s
	}
	switch {
	case f.RelistsWithout > 0:
		saved := "bookmarks save"
		if f.UnknownWith+f.UnknownWithout > 0 {
			saved = "of those judged, bookmarks save"
		}
		with := notJudged(f.UnknownWith)
		least, whyLeast := f.atLeastWords()
		leastSaved := ""
		if f.RelistsWith > 0 {
			leastSaved = least
		}
		if least != "" && f.Saved <= 0 {
			// "Saves at least 0" says nothing: what is not known is said.
			return fmt.Sprintf("Had every client asked for bookmarks, %d reconnects would have needed a relist%s, and without bookmarks at least as many%s: what bookmarks would save is not known%s.",
				f.RelistsWith, with, notJudged(f.UnknownWithout), aside(whyLeast))
		}
		// The count and the share the report's fleet section and JSON
		// give (relistsSaved, percentSaved), in the same form: a postmortem
		// quotes one figure.
		sides := "Had every client asked for bookmarks, %d reconnects would have needed a relist%s, and without bookmarks %s%d%s: %s %s%s%s."
		if f.allAsked() && f.RelistsWith == f.RelistsObserved {
			// Their side with bookmarks is what they did, and the
			// models' count of it is the records'.
			sides = "Every client asked for bookmarks, and %d reconnects needed a relist%s; had none asked, %s%d would have%s: %s %s%s%s."
		}
		return fmt.Sprintf(sides,
			f.RelistsWith, with, least, f.RelistsWithout, notJudged(f.UnknownWithout), saved, leastSaved, quantity.Plural(f.Saved, "relist"), aside(FormatPercent(f.SavedPercent), whyLeast))
	case f.RelistsWith > 0:
		return fmt.Sprintf("%d reconnects would have needed a relist even with bookmarks%s.", f.RelistsWith, notJudged(f.UnknownWith))
	case f.UnknownWith+f.UnknownWithout > 0:
		return fmt.Sprintf("No reconnect judged would have needed a relist; %d more could not be judged%s.", f.UnknownWith+f.UnknownWithout, why)
	}
	return ""
}

// mightHaveUpTo says " and up to N more might have" of the most clients
// put at risk over a stretch of time (a Stampede's), which an instant
// within it may count fewer of; "" of none.
func mightHaveUpTo(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" and up to %d more might have", n)
}

// WorstWords is the fleet's worst moment for every watch to drop,
// in the verdict's words: the sentence the summary, the report and the
// page all say; "" when there is no fleet or no such moment.
func (a *Analysis) WorstWords() string {
	f := a.Fleet()
	if f == nil {
		return ""
	}
	return a.worstWords(f, true)
}

// atLeastWords says, beside the fleet's relists without bookmarks, that
// they are the least they could be and why (Fleet.WithoutAtLeast): ""
// when they are not.
func (f *Fleet) atLeastWords() (least, why string) {
	if !f.WithoutAtLeast {
		return "", ""
	}
	var whys []string
	if n := f.watchListsReconnecting(); n > 0 {
		whys = append(whys, fmt.Sprintf("without bookmarks the WatchLists of the %s that asked for them and reconnected would never have synced, and each reconnect would have read the whole selection again, as would each retry when the wait for the sync ran out", quantity.Plural(n, "client")))
	}
	if why := f.auditAtLeastWords(); why != "" {
		whys = append(whys, why)
	}
	return "at least ", strings.Join(whys, "; ")
}

// watchListCursorWords says, beside the clients a moment would send to
// relist without bookmarks, what that count is for the WatchList clients
// that asked for them: their cursors had they ignored bookmarks, since
// without asking for them they would never have synced ("" for none).
func (f *Fleet) watchListCursorWords() string {
	switch n := f.WatchListsAsked; {
	case n == 0:
		return ""
	case n == len(f.Clients):
		return "counting their cursors had they ignored bookmarks: without asking for them, these WatchList clients would never have synced, and each reconnect would have read the whole selection again"
	case n == 1:
		return "for the WatchList client that asked for bookmarks, counting its cursor had it ignored them: without asking for them, it would never have synced, and each reconnect would have read the whole selection again"
	default:
		return fmt.Sprintf("for the %d WatchList clients that asked for bookmarks, counting their cursors had they ignored them: without asking for them, these would never have synced, and each reconnect would have read the whole selection again", n)
	}
}

// auditAtLeastWords says why the relists without bookmarks of the
// clients read from audit logs that asked for them are the least they
// could be, "" when there are none.
func (f *Fleet) auditAtLeastWords() string {
	n := f.askedInAuditLogs()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("the audit logs show the cursor the bookmarks kept fresh; without them, the %s that asked for them would have resumed from older ones, which the logs do not show", quantity.Plural(n, "client"))
}

// aside is the asides given, those not "", in one pair of parentheses
// after a space, one after another; "" for none.
func aside(asides ...string) string {
	var said []string
	for _, s := range asides {
		if s != "" {
			said = append(said, s)
		}
	}
	if len(said) == 0 {
		return ""
	}
	return " (" + strings.Join(said, "; ") + ")"
}

// worstWords says what the fleet's worst moment would have cost; why
// says, beside an "at least", what makes it one (the summary's fleet
// line says it once, before).
func (a *Analysis) worstWords(f *Fleet, why bool) string {
	if f.Worst < 0 {
		return ""
	}
	w := f.Stampedes[f.Worst]
	had := fmt.Sprintf("Had every client's watch dropped at the worst moment, from %s, %s, ", a.instantFrom(w.From), a.comeBackWords(w.From))
	if f.AllBookmarksUnseen() {
		// Neither side is known apart: the clients' logs show no
		// bookmarks.
		if w.Without > 0 {
			return had + fmt.Sprintf("%d clients would have relisted (whether they asked for bookmarks, their logs do not show).", w.Without)
		}
		return had + fmt.Sprintf("%d clients might have had to fetch their whole lists again (relist): each would have come back with a resourceVersion %s, and nothing recorded says whether the server still had it.",
			w.AtRiskWithout, atRiskWords(w.Reasons))
	}
	// The clients with bookmarks whose cursor nothing shows then are
	// counted on neither side: say how many, lest none read as safe
	// (asked of every client only where some cursor is not known).
	with := w.With
	if w.Without == 0 {
		with = w.AtRiskWith
	}
	unjudged, withWords, withKnown := "", fmt.Sprintf("%d with them", with), true
	if f.UnknownWith > 0 || a.askedUnknown {
		fc, _ := a.FleetReconnect(ResumeQuery{At: w.From})
		// Those not recorded then are said apart (unrecordedWords), and
		// those without a cursor have no head to lack.
		o := fc.With
		noHead := o.noHead()
		switch {
		case noHead >= len(f.Clients)-o.AfterRecording-o.BeforeRecording && with == 0:
			// "0 with them" of clients none of which can be judged
			// reads as none relisting.
			withWords, withKnown = "with them not known", false
			unjudged = "what bookmarks would have changed cannot be judged for any client: nothing shows the cluster's head then"
		case noHead > 0:
			// Not "and N not judged", which read as more clients.
			unjudged = fmt.Sprintf("for %d of the clients, what bookmarks would have changed cannot be judged: nothing shows the cluster's head then", noHead)
		}
	}
	least, whyLeast := "", f.auditAtLeastWords()
	if whyLeast != "" {
		least = "at least "
	}
	if !why {
		whyLeast = ""
	}
	if least != "" && f.auditCursorsWithoutBookmarks(a.TL) {
		// The audit logs show a cursor as of the client's last request:
		// without bookmarks, those that asked would have had older ones,
		// but those that did not may have moved theirs since. The count
		// is neither a least nor a most, which the fleet's line, of the
		// relists made, does not say.
		least, whyLeast = "about ", "an estimate: the audit logs show each client's cursor as of its last request; without bookmarks, the clients that asked for them would have had older ones, and the others may have moved theirs since"
	}
	unrecorded := a.unrecordedWords(f, w.From)
	if f.RankedWithBookmarks && withKnown {
		// The moment is the worst with the bookmarks every client asked
		// for (stampedes): that side first.
		// The WatchList clients' cursors without bookmarks are said
		// beside that side's count.
		if w.With == 0 {
			// Nothing refused: the stretch runs while both at-risk counts
			// stay the same.
			return had + fmt.Sprintf("%d clients might have had to fetch their whole lists again (relist) with the bookmarks they asked for, %s%d without them%s: each would have come back with a resourceVersion %s, and nothing recorded says whether the server still had it.",
				w.AtRiskWith, least, w.AtRiskWithout, aside(f.watchListCursorWords(), unjudged, unrecorded, whyLeast), atRiskWords(w.Reasons))
		}
		sides := fmt.Sprintf("%d clients would have relisted with the bookmarks they asked for, %s%d without them%s", w.With, least, w.Without, aside(f.watchListCursorWords()))
		if w.AtRiskWithout > 0 || w.AtRiskWith > 0 {
			sides = fmt.Sprintf("%d clients would have relisted with the bookmarks they asked for%s; without them, %s%d would have%s%s", w.With, mightHaveUpTo(w.AtRiskWith), least, w.Without, mightHaveUpTo(w.AtRiskWithout), aside(f.watchListCursorWords()))
		}
		return had + sides + aside(unjudged, unrecorded, whyLeast) + "."
	}
	if w.Without > 0 {
		sides := fmt.Sprintf("%s%d clients would have relisted without bookmarks%s, %s", least, w.Without, aside(f.watchListCursorWords()), withWords)
		if w.AtRiskWithout > 0 || w.AtRiskWith > 0 {
			// "0 with them" alone reads as every client safe with
			// bookmarks: the clients put at risk are said on each side.
			withSide := fmt.Sprintf("%d would have%s", with, mightHaveUpTo(w.AtRiskWith))
			if !withKnown {
				withSide = "not known"
			}
			sides = fmt.Sprintf("%s%d clients would have relisted without bookmarks%s%s; with them, %s", least, w.Without, mightHaveUpTo(w.AtRiskWithout), aside(f.watchListCursorWords()), withSide)
		}
		return had + sides + aside(unjudged, unrecorded, whyLeast) + "." + a.worstWithWords(f, w.With, withKnown)
	}
	return had + fmt.Sprintf("%d clients might have had to fetch their whole lists again (relist) without bookmarks, %s%s: each would have come back with a resourceVersion %s, and nothing recorded says whether the server still had it.",
		w.AtRiskWithout, withWords, aside(unjudged, unrecorded), atRiskWords(w.Reasons))
}

// worstWithWords says when a drop would have cost the most relists with
// bookmarks, where that is more than the worst moment's with (ranked by
// the relists without them): " With bookmarks, the worst moment was from
// T, when 17 clients would have relisted (74 without)." "0 with them" of
// that moment alone read as bookmarks keeping every client safe
// throughout (a UI review: the lab's with-bookmarks curve peaks at 17).
// "" where none is more, or the with side is not known.
func (a *Analysis) worstWithWords(f *Fleet, with int, known bool) string {
	if !known {
		return ""
	}
	peak := -1
	for k, st := range f.Steps {
		if st.With > with && (peak < 0 || st.With > f.Steps[peak].With) {
			peak = k
		}
	}
	if peak < 0 {
		return ""
	}
	st := f.Steps[peak]
	return fmt.Sprintf(" With bookmarks, the worst moment was from %s, when %d clients would have relisted (%d without).", a.instantFrom(st.T), st.With, st.Without)
}

// unrecordedWords says, beside a moment's counts, how many of the fleet's
// clients they leave out as not recorded at t (their recordings had ended
// or not begun: see stampede); "" for none.
func (a *Analysis) unrecordedWords(f *Fleet, t int64) string {
	ended, notBegun := 0, 0
	for k := range f.Clients {
		switch file := &a.TL.Files[f.Clients[k].File]; {
		case file.EndsBefore(t):
			ended++
		case file.startsAfter(t):
			notBegun++
		}
	}
	if ended+notBegun == 0 {
		return ""
	}
	others := func(n int, what string) string {
		if n == 1 {
			return "the recording of 1 other " + what
		}
		return fmt.Sprintf("the recordings of %d others %s", n, what)
	}
	var why []string
	if ended > 0 {
		why = append(why, others(ended, "had ended"))
	}
	if notBegun > 0 {
		why = append(why, others(notBegun, "had not begun"))
	}
	return fmt.Sprintf("counting the %s recorded then: %s", quantity.Plural(len(f.Clients)-ended-notBegun, "client"), strings.Join(why, " and "))
}

// comeBackWords says when the clients of a worst moment from instant
// from come back after their watches drop (Params.Delay): at once, as
// when the API servers roll, or a delay later; where that falls in an
// outage of the clients' way to the servers, answered at its end, as
// the zones count them.
func (a *Analysis) comeBackWords(from int64) string {
	back := "and come straight back"
	if a.Params.Delay > 0 {
		back = "and come back " + FormatDuration(int64(a.Params.Delay)) + " later"
	}
	if o := a.TL.outageHolding(from + int64(a.Params.Delay)); o != nil {
		back += ", answered only once a request reached a server again, at " + a.instant(o.To)
	}
	return back
}

// atRiskWords says in plain words why the models put reconnects at
// risk: "older than the API server is sure to keep".
func atRiskWords(rs []StampedeReason) string {
	var ws []string
	for _, r := range rs {
		w := "older than the API server is sure to keep"
		switch r.Model {
		case ModelEtcd:
			w = "older than etcd is sure to keep"
		case ModelRestart:
			w = "from before an API server restart"
		}
		if r.Outcome == AtRisk && !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return "the server may no longer have kept"
	}
	return strings.Join(ws, " or ")
}

// reconnect is the reconnect the bookmarks line speaks of, for one file.
type reconnect struct {
	file               int
	at                 int64
	recorded           bool // a reconnect of the capture, not one asked about or assumed
	with, without, had Verdict
}

// rank orders reconnects by how badly they went: refused, at risk, other.
func (c reconnect) rank() int {
	switch {
	case c.with.Outcome == Refused || c.without.Outcome == Refused:
		return 2
	case c.with.Outcome == AtRisk || c.without.Outcome == AtRisk:
		return 1
	}
	return 0
}

// reconnectOf is the reconnect the summary judges for a file (reconnectAt),
// with its verdicts.
func (s *summarizer) reconnectOf(fi int) reconnect {
	at, c, recorded := s.reconnectAt(fi)
	if recorded {
		return c
	}
	a := s.a
	c = reconnect{file: fi, at: at, had: Verdict{Outcome: Unknown}}
	for _, v := range a.ResumeAt(fi, at) {
		switch v.Kind {
		case BookmarkAware:
			c.with = v
		case BookmarkIgnoring:
			c.without = v
		default:
			c.had = v
		}
	}
	if !a.HadBookmarks[fi].Synthetic {
		c.had = c.with
	}
	return c
}

// rankOf is reconnectOf(fi).rank() without putting verdicts in words: the
// summary ranks every file, thousands in a fleet, and words only one.
func (s *summarizer) rankOf(fi int) int {
	at, c, recorded := s.reconnectAt(fi)
	if !recorded {
		r := s.a.reconnectReach(fi, at, at)
		c.with.Outcome = s.a.resumeOutcome(fi, BookmarkAware, r, at)
		c.without.Outcome = s.a.resumeOutcome(fi, BookmarkIgnoring, r, at)
	}
	return c.rank()
}

// reconnectAt picks, for a file, the first instant the user asked about,
// else its worst recorded reconnect (returned whole, recorded true), else
// one right after its end.
func (s *summarizer) reconnectAt(fi int) (at int64, c reconnect, recorded bool) {
	f := &s.a.TL.Files[fi]
	if len(s.qs) > 0 {
		q := s.qs[0]
		if q.Relative {
			return f.End + int64(q.After), c, false
		}
		return q.At, c, false
	}
	if c, ok := s.worstRecorded()[fi]; ok {
		return c.at, c, true
	}
	return f.End + int64(s.a.Params.Delay), c, false
}

// watches says whether the file has a watch stream.
func (tl *Timeline) watches(fi int) bool {
	for _, g := range tl.Files[fi].Sessions {
		if tl.Sessions[g].watchStream() {
			return true
		}
	}
	return false
}

// asRecorded says how the server answered recorded reconnect c where
// that differs from its verdict with the client's cursor: " (as
// recorded: refused)"; "" otherwise.
func (s *summarizer) asRecorded(c reconnect) string {
	if !c.recorded {
		return ""
	}
	for _, r := range s.a.Resumes {
		if ss := &s.a.TL.Sessions[r.Session]; ss.File == c.file && ss.Start == c.at && r.Observed != c.with.Outcome {
			return " (as recorded: " + r.Observed.String() + ")"
		}
	}
	return ""
}

// worstRecorded is, per file, its worst recorded reconnect (the first of
// the worst), found in one pass over the what-if: asked file by file, a
// fleet of thousands would walk every reconnect for each.
func (s *summarizer) worstRecorded() map[int]reconnect {
	if s.worst != nil {
		return s.worst
	}
	s.worst = map[int]reconnect{}
	for _, p := range s.a.WhatIf.Points {
		fi := s.a.TL.Sessions[p.Session].File
		c := reconnect{file: fi, at: p.At, recorded: true, with: p.With, without: p.Without, had: p.Had}
		if best, ok := s.worst[fi]; !ok || c.rank() > best.rank() {
			s.worst[fi] = c
		}
	}
	return s.worst
}

// bookmarks: would bookmarks have avoided it, for the file that matters
// most (the narrow file whose reconnect went worst).
func (s *summarizer) bookmarks() {
	a, tl := s.a, s.a.TL
	// A WatchList client that never synced for want of bookmarks has its
	// answer in the unsynced line: asking would have ended its sync.
	unsynced := map[int]bool{}
	for _, u := range tl.UnsyncedClients() {
		unsynced[u.File] = u.NoBookmarks
	}
	chosen, rank := -1, 0
	for fi, f := range tl.Files {
		// Bookmarks come on watches: a file of LISTs alone has none to
		// ask for. An API server's own informers are not the clients
		// the question is about.
		if !tl.watches(fi) || f.Clock == ClockNone && len(tl.Files) > 1 || f.Loopback || unsynced[fi] {
			continue
		}
		r := s.rankOf(fi)
		if chosen < 0 || r > rank || r == rank && tl.Files[chosen].Broad && !f.Broad {
			chosen, rank = fi, r
		}
	}
	if chosen < 0 {
		return
	}
	c := s.reconnectOf(chosen)
	f := &tl.Files[c.file]
	cf := &a.HadBookmarks[c.file]
	asked, requested, got := false, false, 0
	for _, g := range f.Sessions {
		ss := &tl.Sessions[g]
		if ss.Request != nil {
			requested = true
			asked = asked || ss.Request.AllowWatchBookmarks
		}
		got += ss.Bookmarks
	}
	at := "its reconnect at " + s.instant(c.at)
	switch {
	case c.recorded:
		if late := c.with.At - c.at; late > 0 {
			// Judged, and its cursor's age told, when its server received
			// it (ServerReceived).
			at += fmt.Sprintf(", which reached the server %s later,", FormatDuration(late))
		}
	case len(s.qs) > 0 && s.qs[0].afterRecording(f):
		// The fleet's counts leave a client out once its recording has
		// ended (FleetReconnect); one client's cursor is judged as it was
		// left, which the line says.
		at = fmt.Sprintf("a reconnect at %s (after its recording ended at %s, taking its cursor as it was left)", s.instant(c.at), s.instant(f.End))
	case len(s.qs) > 0:
		at = "a reconnect at " + s.instant(c.at)
	case a.Params.Delay > 0:
		// No reconnect recorded: the one supposed after the recording.
		at = fmt.Sprintf("a reconnect %s after its recording ends (%s)", FormatDuration(int64(a.Params.Delay)), s.instant(c.at))
	default:
		at = fmt.Sprintf("a reconnect as its recording ends (%s)", s.instant(c.at))
	}
	old := func(v Verdict) string {
		if !v.HasCursor {
			return "unknown"
		}
		return FormatDuration(v.Asked()-v.Since) + " old"
	}
	switch {
	case a.uncached(c.file):
		s.add("bookmarks", "%s is served from etcd, which sends no periodic bookmarks: bookmarks would not have helped; at %s the cursor was %s and the reconnect was %s.", f.ShortName(), at, old(c.with), s.a.Words(c.with))
	case got > 0 && !c.with.HasCursor && !c.without.HasCursor:
		s.add("bookmarks", "%s asked for bookmarks and got %d in its recording; at %s it had %s.", f.ShortName(), got, at, a.noCursorReason(c.with))
	case got > 0 && tl.watchListClient(c.file):
		// Without bookmarks a WatchList never syncs (the unsynced
		// line's clients): the cursor without them is one that ignored
		// them, the one that ends the initial list too.
		s.add("bookmarks", "%s asked for bookmarks and got %d in its recording: at %s its cursor was %s and the reconnect was %s. Without them its WatchList would never have synced, since the bookmark that ends the initial list comes only to a client that asks for bookmarks; had its cursor ignored them, it would have been %s and the reconnect %s.",
			f.ShortName(), got, at, old(c.with), s.a.Words(c.with), old(c.without), s.a.Words(c.without))
	case got > 0:
		s.add("bookmarks", "%s asked for bookmarks and got %d in its recording: at %s its cursor was %s and the reconnect was %s; without them it would have been %s and %s.",
			f.ShortName(), got, at, old(c.with), s.a.Words(c.with), old(c.without), s.a.Words(c.without))
	default:
		how := "did not ask for bookmarks (allowWatchBookmarks was not set)"
		switch {
		case !requested:
			// A capture begun after the request (kubectl's JSON lines, a
			// body cut out of a dump) shows what came, not what was asked.
			how = "got no bookmarks (its capture holds no request, so whether it asked for them is not recorded)"
		case asked && f.Audit:
			how = "asked for bookmarks"
		case asked:
			how = "asked for bookmarks but got none"
		}
		switch {
		case f.BookmarksUnseen():
			if !c.with.HasCursor {
				s.add("bookmarks", "%s comes from its client log, which shows neither the bookmarks it asked for nor those it received; at %s it had %s.", f.ShortName(), at, a.noCursorReason(c.with))
				return
			}
			s.add("bookmarks", "%s comes from its client log, which shows neither the bookmarks it asked for nor those it received: its cursor is the last RV the log names, and at %s it was %s and the reconnect was %s%s.",
				f.ShortName(), at, old(c.with), s.a.Words(c.with), s.asRecorded(c))
		case c.had.Outcome == Unknown && cf.Synthetic:
			s.add("bookmarks", "%s %s. Had it asked, would %s have worked? Unknown: no capture on the same clock shows the head of %s then; add a capture of every %s (no selector) to decide.",
				f.ShortName(), how, at, orWord(f.Kind, "the resource"), orWord(f.Kind, "object"))
		case cf.Synthetic:
			// A reconnect the recording holds has its verdict as
			// recorded; one past its end, with the cursor it had.
			as := "as recorded"
			if !c.recorded {
				as = "with its own cursor"
			}
			s.add("bookmarks", "%s %s. Had it asked, its cursor at %s would have been %s and the reconnect would have been %s (%s: %s).",
				f.ShortName(), how, at, old(c.had), s.a.Words(c.had), as, c.with.Outcome)
		case c.with.HasCursor && f.Audit:
			// The bookmarks an audit log's client asked for are placed
			// where the server sends them: its cursor is theirs.
			s.add("bookmarks", "%s %s: at %s its cursor was %s and the reconnect was %s (%s).", f.ShortName(), how, at, old(c.with), s.a.Words(c.with), auditBookmarksWords)
		case f.Audit:
			s.add("bookmarks", "%s %s (%s): at %s its cursor, the head its last bookmark carried, is not known, as no capture shows that head.", f.ShortName(), how, auditBookmarksWords, at)
		default:
			s.add("bookmarks", "%s %s; %s.", f.ShortName(), how, cf.Why)
		}
	}
}

// riskiest: the instant the recorded cursor (bookmark-aware) had gone
// unconfirmed longest, preferring a narrow capture's to a broad one's.
func (s *summarizer) riskiest() {
	a := s.a
	var best *CursorAge
	refused := a.refusedResumes()
	fleet := a.Fleet() != nil
	for k := range a.Ages {
		g := a.Ages[k]
		f := &a.TL.Files[g.File]
		// An API server's own informers are not the fleet's clients.
		if g.Kind != BookmarkAware || g.MaxAge == 0 || f.Clock == ClockNone || f.Loopback {
			continue
		}
		if refused.before(g.File, g.MaxAgeRV, g.MaxAgeAt) {
			// Its longest stretch is a refusal the observed line tells.
			// One client's story is that; of a fleet's, its riskiest
			// moment still to come is its longest other one (after a
			// relist, the new cursor may go unconfirmed longer than any
			// other client's).
			if !fleet {
				continue
			}
			g.MaxAge, g.MaxAgeAt, g.MaxAgeRV = a.cursor(g.File, g.Kind).longestUnrefused(g.File, refused)
			if g.MaxAge == 0 {
				continue
			}
		}
		if best == nil || a.TL.Files[best.File].Broad && !f.Broad || a.TL.Files[best.File].Broad == f.Broad && g.MaxAge > best.MaxAge {
			best = &g
		}
	}
	if best == nil {
		return
	}
	f := &a.TL.Files[best.File]
	v := a.Verdict(best.File, BookmarkAware, best.MaxAgeAt-1, a.Params.Delay)
	// With several clients, the fleet's worst moment is another (every
	// client dropping at once): this one is one client's.
	who := ""
	if fleet {
		who = " for one client"
	}
	if f.Audit && !f.BookmarksUnseen() {
		// Its cursor is the RV of its last request, or where the
		// bookmarks it asked for would have put it, and its age the most
		// it can be: the events that may have moved it since are not in
		// the log, and the verdict holds only if none did.
		log := "audit log"
		if f.Log != "" {
			log = "log"
		}
		from := " at its last request"
		if rv, ok := a.TL.lastRequestedRV(best.File, best.MaxAgeAt); !ok || rv != FormatRV(best.MaxAgeRV) {
			// A watch that asked for bookmarks: the cursor is where they
			// would have put it, the head then.
			from = ", where the bookmarks it asked for would have put it"
		}
		if v.Outcome == Accepted {
			s.add("riskiest", "At the longest, %s's cursor (RV %d%s) had gone unconfirmed for at most %s, just before %s: had no event moved it since, a reconnect then would still have been %s; its %s shows its requests, not the events its watches received.",
				f.ShortName(), best.MaxAgeRV, from, FormatDuration(best.MaxAge), s.instant(best.MaxAgeAt), s.a.Words(v), log)
			return
		}
		s.add("riskiest", "The riskiest moment%s to drop was just before %s, when %s's cursor (RV %d%s) had gone unconfirmed for at most %s: had no event moved it since, a reconnect then would have been %s; its %s shows its requests, not the events its watches received.",
			who, s.instant(best.MaxAgeAt), f.ShortName(), best.MaxAgeRV, from, FormatDuration(best.MaxAge), s.a.Words(v), log)
		return
	}
	if v.Outcome == Accepted {
		// Nothing risky: the longest wait is told, not as a risk.
		s.add("riskiest", "At the longest, %s's cursor (RV %d) had gone unconfirmed for %s, just before %s: a reconnect then would still have been %s%s.",
			f.ShortName(), best.MaxAgeRV, FormatDuration(best.MaxAge), s.instant(best.MaxAgeAt), s.a.Words(v), s.a.heldPlain(v))
		return
	}
	s.add("riskiest", "The riskiest moment%s to drop was just before %s, when %s's cursor (RV %d) had gone unconfirmed for %s: a reconnect then would have been %s%s.",
		who, s.instant(best.MaxAgeAt), f.ShortName(), best.MaxAgeRV, FormatDuration(best.MaxAge), s.a.Words(v), s.a.heldPlain(v))
}

// heldPlain says, of a verdict accepted though a model put it at risk
// (overall: the servers' metrics held the cursor), whose metrics held
// it, "" for any other verdict.
func (a *Analysis) heldPlain(v Verdict) string {
	if v.Outcome != Accepted || !slices.ContainsFunc(v.Models, func(m ModelVerdict) bool { return m.Outcome == AtRisk }) {
		return ""
	}
	return ", as " + a.holder(v.modelServer(ModelServerCache)) + " still held it, by its metrics"
}

// longestUnrefused is the cursor's longest stretch unconfirmed, as
// CursorAge.MaxAge measures it, of those that did not end in a reconnect
// the server refused (resumesRefused.before): its age, the instant it
// ends and its value; 0s for none.
func (c *Cursor) longestUnrefused(file int, refused resumesRefused) (age, at int64, rv uint64) {
	n := c.Len()
	for k := 0; k < n; k++ {
		t, v, ok := c.Known(k)
		if !ok {
			continue
		}
		end := c.End
		if k+1 < n {
			end = c.T(k + 1)
		}
		if end-t > age && !refused.before(file, v, end) {
			age, at, rv = end-t, end, v
		}
	}
	return age, at, rv
}

// resumesRefused is, per file and cursor value, the first instant a
// reconnect of the file from that value was refused with a 410.
type resumesRefused map[fileRV]int64

type fileRV struct {
	file int
	rv   string
}

// refusedResumes indexes the resumes the server refused (a fleet of ten
// thousand clients has ten thousand cursors to ask about).
func (a *Analysis) refusedResumes() resumesRefused {
	out := resumesRefused{}
	for _, r := range a.Resumes {
		if r.Observed != Refused {
			continue
		}
		g := &a.TL.Sessions[r.Session]
		k := fileRV{g.File, r.RV}
		if t, ok := out[k]; !ok || g.Start < t {
			out[k] = g.Start
		}
	}
	return out
}

// before says the file's own reconnect from rv was refused with a 410 at
// t or before: the cursor's riskiest moment is then that refusal, which
// the observed line tells, not a drop still to come.
func (r resumesRefused) before(file int, rv uint64, t int64) bool {
	at, ok := r[fileRV{file, FormatRV(rv)}]
	return ok && at <= t
}

// contradicted tells the recorded reconnects whose verdicts contradict
// what the server answered, the first of them by name: the verdicts of
// the others are then in doubt too. With one server assumed, a server
// that accepted a cursor another's 410 said was gone is most likely
// another server behind the same load balancer, with its own history:
// the line says how to tell the analysis so.
func (s *summarizer) contradicted() {
	a := s.a
	var first *Resume
	n, accepted := 0, 0
	for k := range a.Resumes {
		r := &a.Resumes[k]
		if !r.Contradicts() {
			continue
		}
		n++
		if r.Observed == Accepted {
			accepted++
		}
		if first == nil || a.TL.Sessions[r.Session].Start < a.TL.Sessions[first.Session].Start {
			first = r
		}
	}
	if n == 0 {
		return
	}
	g := &a.TL.Sessions[first.Session]
	sent := a.TL.SentWords(first.Session, s.instant)
	what := fmt.Sprintf("accepted %s's reconnect from RV %s %s, which the models said it would refuse", a.TL.Files[g.File].ShortName(), first.RV, sent)
	if first.Observed == Refused {
		what = fmt.Sprintf("refused %s's reconnect from RV %s %s with 410 Gone, which the models said it would accept", a.TL.Files[g.File].ShortName(), first.RV, sent)
	}
	others := ""
	if n > 1 {
		others = fmt.Sprintf(", and %d more", n-1)
	}
	// Resumes are every watch from the client's cursor, the first after
	// a LIST too: more than the what-if's reconnects.
	t := fmt.Sprintf("The verdicts contradict %d of the %d resumes recorded (watches from a resourceVersion: the reconnects, and the watch after each LIST): the server %s%s.", n, len(a.Resumes), what, others)
	if a.ServerCount() == 1 && accepted > 0 {
		t += " Several API servers behind a load balancer each keep their own history, and a 410 from one says nothing of the others: give their number (in the page's Model settings; on the command line, -servers N), or their audit logs."
	}
	s.add("contradicted", "%s", t)
}

// noneRefusedWords says, after "No 410 was observed", that none of the
// reconnects recorded would have been refused, with or without
// bookmarks, as far as they were judged: those at risk and those not
// judged are said apart, and where none could be judged, why.
func (s *summarizer) noneRefusedWords() string {
	w := &s.a.WhatIf
	// Not judged as recorded: with the bookmarks each client received.
	unknown := w.UnknownWith
	if unknown == w.Reconnects {
		why := ""
		for _, p := range w.Points {
			if p.With.Outcome == Unknown {
				why = ": " + p.With.Reason
				break
			}
		}
		if w.Reconnects == 1 {
			return ", but the one reconnect recorded could not be judged" + why
		}
		return fmt.Sprintf(", but none of the %d reconnects recorded could be judged%s", w.Reconnects, why)
	}
	t := ", and the one reconnect recorded would not have been refused"
	if w.Reconnects > 1 {
		t = fmt.Sprintf(", and none of the %d reconnects recorded would have been refused", w.Reconnects)
		if unknown > 0 {
			t = fmt.Sprintf(", and none of the %d that could be judged (of %d recorded) would have been refused", w.Reconnects-unknown, w.Reconnects)
		}
	}
	// At risk as recorded (with the bookmarks each client received),
	// else had the clients ignored their bookmarks.
	switch {
	case w.AtRiskWith > 0 && w.Reconnects == 1:
		t = ", and the one reconnect recorded was at risk of a 410: the records cannot tell whether it would have been refused"
	case w.AtRiskWith == 1:
		t += ", though 1 was at risk of a 410"
	case w.AtRiskWith > 1:
		t += fmt.Sprintf(", though %d were at risk of a 410", w.AtRiskWith)
	case w.AtRiskWithout > 0 && w.Reconnects == 1:
		t += "; ignoring its bookmarks, it would have been at risk of a 410"
	case w.AtRiskWithout > 0:
		t += fmt.Sprintf("; ignoring their bookmarks, %d would have been at risk of a 410", w.AtRiskWithout)
	}
	return t
}

// outageAt says, when no client's request reached a server at the
// instant q asks, that a reconnect then would have reached none either:
// its answer is the server's once one answered again. "" otherwise.
func (s *summarizer) outageAt(q ResumeQuery) string {
	if q.Relative {
		return ""
	}
	if o := s.a.TL.outageHolding(q.At); o != nil {
		return fmt.Sprintf(" No client's request reached an API server from %s until %s: a reconnect then would have reached none either, and would have been answered once one did, as these counts are, at %s.", s.instant(o.From), s.instant(o.To), s.instant(o.To))
	}
	return ""
}

// delayWords says, after an answer to an instant asked, that it is of a
// reconnect at that instant, while the zones and the fleet's curves add
// the reconnect delay to a drop then; "" without a delay.
func (s *summarizer) delayWords() string {
	d := s.a.Params.Delay
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf(" This is a reconnect at that instant: the zones and the fleet's curves, with the reconnect delay of %s, count a drop then and its reconnect %s later.", FormatDuration(int64(d)), FormatDuration(int64(d)))
}

// resumeAt: the answers to --resume-at, one line per instant asked; for
// a fleet, what a reconnect of every client then would cost.
func (s *summarizer) resumeAt() {
	if fl := s.a.Fleet(); fl != nil {
		for _, q := range s.qs {
			fc, _ := s.a.FleetReconnect(q)
			at := "at " + s.instant(q.At)
			if q.Relative {
				at = FormatDuration(int64(q.After)) + " after each capture's end"
			}
			servers, refusing, refusingWith := s.fleetServerWords(q)
			// None refused is said of all the servers where one would
			// refuse some.
			byAll, byAllWith := 0, 0
			if refusing {
				byAll = len(s.a.TL.Servers)
			}
			if refusingWith {
				byAllWith = len(s.a.TL.Servers)
			}
			if fl.AllBookmarksUnseen() {
				// The clients' logs show no bookmarks: one answer, that of
				// the cursor each log shows.
				s.add("resume-at", "Had every client reconnected %s, as when the API servers roll, with the cursor each client's log shows (whether it asked for bookmarks, its log does not show): %s.%s%s%s",
					at, fleetOutcomeWords(fc.Without, len(fl.Clients), byAll), servers, s.outageAt(q), s.delayWords())
				continue
			}
			if n := len(fl.Clients); fc.Without.Unknown == n && fc.With.Unknown == n && unjudgedWords(fc.Without) == unjudgedWords(fc.With) {
				// One reason for every client on both sides: said once.
				s.add("resume-at", "Had every client reconnected %s, as when the API servers roll: none of the %s could be judged, with bookmarks or without (%s).%s%s%s",
					at, quantity.Plural(n, "client"), unjudgedWords(fc.Without), servers, s.outageAt(q), s.delayWords())
				continue
			}
			s.add("resume-at", "Had every client reconnected %s, as when the API servers roll: without bookmarks, %s; with bookmarks, %s.%s%s%s",
				at, fleetOutcomeWords(fc.Without, len(fl.Clients), byAll), fleetOutcomeWords(fc.With, len(fl.Clients), byAllWith), servers, s.outageAt(q), s.delayWords())
		}
		return
	}
	var order []string
	byTime := map[string][]string{}
	for _, v := range s.a.ResumeAnswers(s.qs) {
		f := &s.a.TL.Files[v.File]
		t := ""
		if f.Clock != ClockNone {
			t = s.instant(v.Asked())
		}
		if _, ok := byTime[t]; !ok {
			order = append(order, t)
		}
		// In words, as the table's verdicts read: "at risk of a 410", not
		// the model's "at-risk".
		words := fmt.Sprintf("%s %s %s", f.ShortName(), v.Kind.Words(), OutcomeWords(v.Outcome))
		if len(s.a.TL.Servers) > 1 {
			per, likely := s.a.ResumeAtServers(v.File, v.Kind, v.Asked())
			words += " (" + s.a.ServerWords(per)
			if likely >= 0 {
				words += "; its open connection is to " + s.a.TL.Servers[likely].Name
			}
			words += ")"
		}
		byTime[t] = append(byTime[t], words)
	}
	for _, t := range order {
		s.add("resume-at", "A reconnect at %s: %s.%s", orWord(t, "an unknown time"), strings.Join(byTime[t], "; "), s.delayWords())
	}
}

// fleetServerWords says, for a fleet's reconnect at q, how many clients
// each server would refuse without bookmarks, when the evidence shows
// several servers: " For 9 clients the answer depends on the API server
// reached: without bookmarks, a would refuse 12, b 3, c none.", or, when each
// server refuses the same clients, " Each API server would refuse the
// same clients without bookmarks: a 12, b 12, c 12." With bookmarks,
// where the server reached decides the answer for some client, it says the same of
// them. Where some of the clients a server refuses are counted accepted
// or at risk over their open connections, it ends with how many a
// reconnect to a server that refuses each would make refused, on each
// side. refusing and refusingWith are whether any server would refuse
// one, without bookmarks and with them.
func (s *summarizer) fleetServerWords(q ResumeQuery) (words string, refusing, refusingWith bool) {
	a := s.a
	fl := a.Fleet()
	if len(a.TL.Servers) < 2 || fl == nil {
		return "", false, false
	}
	without, with := newRefusalTally(len(a.TL.Servers)), newRefusalTally(len(a.TL.Servers))
	// serving: the servers some reconnect can reach (one shutting down or
	// restarting answers none); closing: those not serving that were
	// shutting down at some client's instant (q's, or after each file's
	// end).
	serving := make([]bool, len(a.TL.Servers))
	closing := make([]bool, len(a.TL.Servers))
	oneSide := fl.AllBookmarksUnseen()
	for k := range fl.Clients {
		c := &fl.Clients[k]
		if q.afterRecording(&a.TL.Files[c.File]) {
			continue // not counted, as FleetReconnect counts them
		}
		withKind, withoutKind := a.sides(c)
		at := q.For(&a.TL.Files[c.File])
		per, likely := a.ResumeAtServers(c.File, withoutKind, at)
		for _, sv := range per {
			if sv.Incarnation < 0 {
				closing[sv.Server] = closing[sv.Server] || a.shuttingDown(sv.Server, sv.At)
				continue
			}
			serving[sv.Server] = true
		}
		without.add(per, likely)
		if !oneSide {
			with.add(a.ResumeAtServers(c.File, withKind, at))
		}
	}
	if without.judged == 0 {
		return "", false, false
	}
	refusing, refusingWith = slices.Max(without.refused) > 0, slices.Max(with.refused) > 0
	if !refusing && with.split == 0 {
		return " Without bookmarks, no server would refuse any.", false, refusingWith
	}
	var notTaking []int
	for k := range serving {
		if !serving[k] {
			notTaking = append(notTaking, k)
		}
	}
	why := func(s int) notTakingWhy {
		if closing[s] {
			return shuttingDownServer
		}
		return restartingServer
	}
	gone := ""
	switch len(notTaking) {
	case 0:
	case 1:
		gone = fmt.Sprintf(" (%s, answers no reconnect then)", a.notTakingWordsBy(notTaking, why))
	default:
		gone = fmt.Sprintf(" (%s, answer no reconnect then)", a.notTakingWordsBy(notTaking, why))
	}
	var b strings.Builder
	switch {
	case !refusing:
		fmt.Fprintf(&b, " Without bookmarks, no server would refuse any%s.", gone)
	case without.split == 0:
		fmt.Fprintf(&b, " Each API server that could answer would refuse the same clients without bookmarks: %s%s.", s.perServer(without, serving), gone)
	default:
		// The counts first, each of every client a server would refuse,
		// then how many of them the server reached decides: "For 36
		// clients ...: a would refuse 149" read as a count past its whole.
		fmt.Fprintf(&b, " Without bookmarks, %s%s: for %s the answer depends on the API server reached.%s", s.perServer(without, serving), gone, quantity.Plural(without.split, "client"), without.connWords())
	}
	if with.split > 0 {
		fmt.Fprintf(&b, " With bookmarks, %s: for %s the answer depends on the API server reached.%s", s.perServer(with, serving), quantity.Plural(with.split, "client"), with.connWords())
	}
	// A roll sends a client whose server goes away to another: the counts
	// above are of the connections as they were.
	hiddenWithout, hiddenWith := without.connRefused < without.split, with.connRefused < with.split
	switch {
	case oneSide && hiddenWithout:
		fmt.Fprintf(&b, " These counts take each client over its open connection; had each reached a server that refuses it, as a client whose server goes away does, %d would have been refused.", without.refusedSomewhere)
	case hiddenWithout || hiddenWith:
		fmt.Fprintf(&b, " These counts take each client over its open connection; had each reached a server that refuses it, as a client whose server goes away does, %d would have been refused without bookmarks and %d with them.", without.refusedSomewhere, with.refusedSomewhere)
	}
	return b.String(), refusing, refusingWith
}

// refusalTally counts, of one side of a fleet's reconnect (with bookmarks
// or without), the clients each server would refuse.
type refusalTally struct {
	// refused counts, per server, the clients it refuses; judged the
	// servers' answers that decided; split the clients some serving
	// server refuses and another does not; connRefused those of them
	// FleetReconnect counts refused, their open connection being to a
	// server that refuses them; refusedSomewhere the clients some serving
	// server refuses.
	refused                                      []int
	judged, split, connRefused, refusedSomewhere int
}

func newRefusalTally(servers int) refusalTally { return refusalTally{refused: make([]int, servers)} }

// add counts one client's answers per server, likely the server of its
// open connection (-1 for none).
func (t *refusalTally) add(per []ServerVerdict, likely int) {
	n, answering := 0, 0
	for _, sv := range per {
		if sv.Incarnation < 0 {
			continue
		}
		answering++
		if sv.Outcome == Refused {
			t.refused[sv.Server]++
			n++
		}
		if sv.Outcome != Unknown {
			t.judged++
		}
	}
	if n > 0 {
		t.refusedSomewhere++
	}
	if n > 0 && n < answering {
		t.split++
		if likely >= 0 && per[likely].Outcome == Refused {
			t.connRefused++
		}
	}
}

// connWords says how many of the split clients are counted refused for
// their open connection's server: "", or " 3 of them are counted refused
// above: ...".
func (t *refusalTally) connWords() string {
	switch {
	case t.connRefused == 1 && t.split == 1:
		return " It is counted refused above: a reconnect goes over the client's open connection, and its connection was to a server that refuses it."
	case t.connRefused == 1:
		return " 1 of them is counted refused above: a reconnect goes over the client's open connection, and its connection was to a server that refuses it."
	case t.connRefused > 0 && t.connRefused == t.split:
		return fmt.Sprintf(" All %d are counted refused above: a reconnect goes over the client's open connection, and theirs were to servers that refuse them.", t.connRefused)
	case t.connRefused > 1:
		return fmt.Sprintf(" %d of them are counted refused above: a reconnect goes over the client's open connection, and theirs were to servers that refuse them.", t.connRefused)
	}
	return ""
}

// perServer lists the serving servers' refusals: "a would refuse 12, b
// 3, c none" (the verb where the server reached decides some client's answer).
func (s *summarizer) perServer(t refusalTally, serving []bool) string {
	var parts []string
	for k, n := range t.refused {
		if !serving[k] {
			continue
		}
		count := "none"
		if n > 0 {
			count = fmt.Sprint(n)
		}
		verb := ""
		if len(parts) == 0 && t.split > 0 {
			verb = " would refuse"
		}
		parts = append(parts, fmt.Sprintf("%s%s %s", s.a.TL.Servers[k].Name, verb, count))
	}
	return strings.Join(parts, ", ")
}

// fleetOutcomeWords says how many of n clients a reconnect sends to a
// relist, puts at risk of one, and cannot judge: the refused are counted
// among those judged, the others being apart. byAll, when not 0, is the
// number of servers, some of which would refuse clients that these
// counts put at risk (fleetServerWords): "none" is then none refused by
// all of them.
func fleetOutcomeWords(o OutcomeCounts, n int, byAll int) string {
	unjudged := ""
	if o.Unknown > 0 {
		unjudged = fmt.Sprintf("%d not judged: %s", o.Unknown, unjudgedWords(o))
	}
	var t string
	switch {
	case o.Unknown == n:
		return fmt.Sprintf("none of the %s could be judged (%s)", quantity.Plural(n, "client"), unjudgedWords(o))
	case o.Refused > 0:
		of := quantity.Plural(n, "client")
		if o.Unknown > 0 {
			of = quantity.Plural(n-o.Unknown, "client") + " judged"
		}
		const relist = "410 Gone: a full relist each"
		if o.AtRisk == 0 && unjudged != "" {
			// One pair of parentheses, not two side by side.
			return fmt.Sprintf("%d of the %s would have been refused (%s; %s)", o.Refused, of, relist, unjudged)
		}
		t = fmt.Sprintf("%d of the %s would have been refused (%s)", o.Refused, of, relist)
		if o.AtRisk > 0 {
			t += fmt.Sprintf(" and %d more put at risk of it", o.AtRisk)
		}
	default:
		t = "none would have been refused"
		switch {
		case byAll == 2:
			t += " by both API servers"
		case byAll > 0:
			t += fmt.Sprintf(" by all %d API servers", byAll)
		}
		if o.AtRisk > 0 {
			t += fmt.Sprintf(", and %d put at risk of it", o.AtRisk)
		}
	}
	if unjudged != "" {
		t += " (" + unjudged + ")"
	}
	return t
}

// unjudgedWords says why the reconnects o counts as Unknown were not
// judged, each reason with its count when there are several.
func unjudgedWords(o OutcomeCounts) string {
	var parts []string
	for _, r := range []struct {
		n        int
		why, one string // of several clients, of one
	}{
		{o.NoCursor, "they had no cursor to resume from, a WatchList that never synced or a watch that has seen nothing yet, so a reconnect lists everything again and is never refused with a 410",
			"it had no cursor to resume from, a WatchList that never synced or a watch that has seen nothing yet, so a reconnect lists everything again and is never refused with a 410"},
		{o.BeforeRecording, "before their recordings begin", "before its recording begins"},
		{o.AfterRecording, "their recordings had ended, so nothing shows them still watching", "its recording had ended, so nothing shows it still watching"},
		{o.UnnamedRV, "their own logs name no resourceVersion they held then", "its own log names no resourceVersion it held then"},
		{o.NoServer, "no API server took new requests then and the records show none starting again, so their reconnects found no server to answer", "no API server took new requests then and the records show none starting again, so its reconnect found no server to answer"},
		{o.noHead(), "nothing shows the cluster's head then", "nothing shows the cluster's head then"},
	} {
		why := r.why
		if r.n == 1 {
			why = r.one
		}
		switch {
		case r.n == o.Unknown:
			return why
		case r.n > 0:
			parts = append(parts, fmt.Sprintf("%d %s", r.n, why))
		}
	}
	return strings.Join(parts, "; ")
}

// restarts: the probable restarts found, and where to apply them: the
// page's Model settings, or the command line's flag.
func (s *summarizer) restarts() {
	if len(s.a.Restarts) == 0 || len(s.a.Params.Restarts) > 0 {
		return
	}
	if names, ended := s.loggedRestarts(); names != nil {
		logged := make([]string, len(names))
		for k := range names {
			logged[k] = names[k] + " at " + ended[k]
		}
		if AuditLogged(s.a.Restarts) {
			// The instants are the first stream each restart ended, as the
			// first record of it shows it (a capture's arrival, which may
			// come after the audit log's completion).
			if len(logged) == 1 {
				s.add("restart", "The audit logs show the restart, a log of the old process ending and one of the new beginning; the old process %sended its watches: API server %s; each reconnect is judged by the restarts of the server it reached.%s", s.closingWords(true), logged[0], s.finalStopWords())
			} else {
				s.add("restart", "The audit logs show each restart, a log of the old process ending and one of the new beginning; the old processes %sended their watches: API server %s; each reconnect is judged by the restarts of the server it reached.%s", s.closingWords(true), joinWords(logged), s.finalStopWords())
			}
		} else {
			s.add("restart", "The API servers' own logs show each restart, where the old process %sended its watches: API server %s. Not applied: apply them in the page's Model settings (on the command line: -restart detected).", s.closingWords(false), joinWords(logged))
		}
		return
	}
	d := s.a.Restarts[0]
	more := ""
	if n := len(s.a.Restarts) - 1; n > 0 {
		more = fmt.Sprintf(" (and %s in the report)", quantity.Plural(n, "more probable restart"))
	}
	if d.Unreachable {
		s.add("restart", "%d watches of %d clients ended with no error in their streams at %s and no reconnect reached a server until %s%s: %s; the API servers' own logs or audit logs tell which. Were it a restart, apply it in the page's Model settings (on the command line: -restart %s, and -servers N).",
			len(d.Sessions), d.Files, s.instant(d.Ended), s.instant(d.Served), more, undecidedOutage, d.Flag())
		return
	}
	ended := "at " + s.instant(d.Ended)
	if d.LastEnded > d.Ended {
		ended = "between " + s.instant(d.Ended) + " and " + s.instant(d.LastEnded)
	}
	s.add("restart", "Probably an API server restart: %d watches of %d clients ended with no error in their streams %s, and %s%s. Not applied: apply it in the page's Model settings (on the command line: -restart %s, and -servers N).",
		len(d.Sessions), d.Files, ended, d.ServedWords(s.instant(d.Served)), more, d.Flag())
}

// unknowns: what could not be decided, and why.
func (s *summarizer) unknowns() {
	for fi, f := range s.a.TL.Files {
		if f.Clock == ClockNone && f.Events > 0 {
			s.unknown = append(s.unknown, fmt.Sprintf("%s has no times, so no time-based verdict", s.a.TL.Files[fi].ShortName()))
		}
	}
	if n := len(s.unknown); n > 0 {
		// A count and the first few: a hundred thousand split clients
		// without times would otherwise be a sentence of megabytes.
		shown := s.unknown[:min(n, maxListed)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf("; and %d more", n-len(shown))
		}
		s.add("unknown", "Unknown: %s%s.", strings.Join(shown, "; "), more)
	}
}

// maxListed is how many items a summary sentence lists before it counts
// the rest.
const maxListed = 3

// ResumeAtWords is what the summary says of a reconnect at q, as it says
// it when the user asks q with --resume-at: for a fleet, what a reconnect
// of every client then would cost; else one line for the instant. The
// page says it beside a reconnect marker; the summary itself keeps at
// most six lines, which may leave it out.
func (a *Analysis) ResumeAtWords(q ResumeQuery) []SummaryLine {
	s := summarizer{a: a, qs: []ResumeQuery{q}}
	s.resumeAt()
	return s.lines
}
