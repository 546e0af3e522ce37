package timeline

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Resume horizons: for a client that dropped, how long could it have
// stayed away? A drop is each watch stream's end (the capture's own end
// included); its horizon, per cursor, is the earliest reconnect instant
// the models put at risk and the earliest they refuse, judged with
// everything on the shared clock (a capture of the whole type keeps the
// head and the replayed cache moving after a narrow capture stops).

// Horizon is one drop's horizon for one cursor.
type Horizon struct {
	File    int
	Session int // global index of the session that ended
	Kind    CursorKind
	Drop    int64
	// HasCursor is false when there was no cursor at the drop (Unknown
	// then says why), or its value is unknown.
	HasCursor bool
	RV        uint64
	Since     int64
	// RiskFrom and RefusedFrom are the earliest reconnect instants at or
	// after the drop that are at risk and refused (never: nothing the
	// files show puts it there), with the model that says so; why is
	// Analysis.HorizonReasons.
	RiskFrom, RefusedFrom   int64
	RiskModel, RefusedModel Model
	Unknown                 string
	// riskOn and refusedOn are the servers the models judged on, and
	// riskRefused says the risk is the refusal's.
	riskOn, refusedOn serverRef
	riskRefused       bool
	// riskHeld: the risk begins later than its model alone would have
	// it, as the server its connection reached, or every server the load
	// balancer could pick, held the cursor until then (holds).
	riskHeld bool
	// lifts: from liftFrom until liftUntil (the next risk, the refusal,
	// or never) the cursor is held again (RiskLifts).
	lifts               bool
	liftFrom, liftUntil int64
	// riskWait and refusedWait are the outage of the clients' way to
	// the servers that a reconnect at RiskFrom or RefusedFrom waits for,
	// answered at its end (horizonWaits); nil for none.
	riskWait, refusedWait *Outage
}

// RiskLifts is when the horizon's risk lifts before its refusal: from
// the end of the first stretch at risk, the server its connection
// reaches, or every server the load balancer could pick, holds the
// cursor again (holds), until the next
// stretch at risk begins, or the refusal, math.MaxInt64 when neither
// does. ok is false when the risk lasts until the refusal.
func (h Horizon) RiskLifts() (from, until int64, ok bool) {
	return h.liftFrom, h.liftUntil, h.lifts
}

// RiskStart is RiskFrom, and false when nothing the files show puts a
// reconnect after the drop at risk.
func (h Horizon) RiskStart() (int64, bool) { return h.RiskFrom, h.RiskFrom != never }

// RefusalStart is RefusedFrom, and false when nothing the files show has
// a reconnect after the drop refused.
func (h Horizon) RefusalStart() (int64, bool) { return h.RefusedFrom, h.RefusedFrom != never }

// horizons computes the horizon of every drop of every file's cursors.
func (a *Analysis) horizons() {
	tl := a.TL
	for fi, f := range tl.Files {
		stints := a.connStints(fi)
		for _, g := range f.Sessions {
			s := &tl.Sessions[g]
			if !s.watchStream() || gone(s.Error) {
				continue // a watch that ended in 410 relists: it resumes from nothing
			}
			for _, kind := range a.kinds(fi) {
				a.Horizons = append(a.Horizons, a.horizon(fi, g, kind, s.End, stints))
			}
		}
	}
}

// kinds lists the cursors of a file: the two recorded ones, and the
// counterfactual where it differs from the bookmark-aware one.
func (a *Analysis) kinds(file int) []CursorKind {
	if a.HadBookmarks[file].Synthetic {
		return []CursorKind{BookmarkAware, BookmarkIgnoring, HadBookmarks}
	}
	return []CursorKind{BookmarkAware, BookmarkIgnoring}
}

// horizon is the horizon of the file's cursor kind dropped at drop, its
// connection's stints (connStints) saying which server a reconnect
// reaches.
func (a *Analysis) horizon(file, session int, kind CursorKind, drop int64, stints []connStint) Horizon {
	h := Horizon{File: file, Session: session, Kind: kind, Drop: drop, RiskFrom: never, RefusedFrom: never}
	rv, since, _, ok := a.cursor(file, kind).At(drop)
	switch {
	case !ok:
		h.Unknown = "no cursor: the watch started without a resourceVersion and had seen nothing"
		return h
	case rv == unknownRV:
		h.Unknown = a.HadBookmarks[file].unknownReason(a, since)
		return h
	case a.TL.Files[file].Clock == ClockNone:
		h.Unknown = "the capture has no clock"
	}
	h.HasCursor, h.RV, h.Since = true, rv, since
	// A reconnect goes over the session's connection while its server
	// serves.
	st := stintAt(stints, drop)
	if o := a.outageAfter(file, drop); o == nil {
		a.horizonFrom(&h, drop, st)
	} else {
		a.horizonWaits(&h, o, st)
	}
	// No server answers from n on (noneTakingFrom): no risk or refusal
	// comes then.
	switch n := a.noneTakingFrom(); {
	case n == never:
	case drop >= n:
		h.RiskFrom, h.RefusedFrom, h.lifts = never, never, false
		h.Unknown = "no API server took new requests from " + a.instant(n) + " on, and the records show none starting again: a reconnect then found no server to answer it"
	default:
		if h.RiskFrom >= n {
			h.RiskFrom = never // its lifts, later still, go below
		}
		if h.RefusedFrom >= n {
			h.RefusedFrom = never
		}
		h.lifts, h.liftUntil = h.lifts && h.liftFrom < n, min(h.liftUntil, n)
	}
	return h
}

// horizonFrom sets h's horizon for reconnects from instant start on,
// over the connection of stint st while it lasts: the first instant its
// models put at risk (held, while the server it reaches, or every server
// that could answer, holds the cursor) and the first they refuse.
func (a *Analysis) horizonFrom(h *Horizon, start int64, st connStint) {
	file, rv, since := h.File, h.RV, h.Since
	for _, m := range a.applicable(file) {
		risk, refused, ok := a.thresholdVia(m, file, st, rv, since, never)
		if !ok {
			continue
		}
		if f := max(refused, start); refused != never && (f < h.RefusedFrom || f == h.RefusedFrom && decidesOver(Refused, Refused, m, h.RefusedModel, true)) {
			h.RefusedFrom, h.RefusedModel = f, m
			h.refusedOn = st.serverAt(m, h.RefusedFrom)
		}
		if risk != never && max(risk, start) < h.RiskFrom {
			h.RiskFrom, h.RiskModel = max(risk, start), m
			h.riskOn = st.serverAt(m, h.RiskFrom)
		}
	}
	if h.RiskFrom < h.RefusedFrom {
		// Accepted while its connection's server, or every server that
		// could answer, holds it (holds): at risk from the first instant
		// that may not, or refused.
		if f, end, next := a.firstUnheld(file, rv, since, h.RiskFrom, h.RefusedFrom, st); f == h.RefusedFrom {
			h.RiskFrom = never
		} else {
			// A held stretch under a millisecond (the drop's own instant
			// over its connection), shown to the millisecond, reads as
			// none: the model's reason alone says it.
			h.RiskFrom, h.riskHeld = f, f-h.RiskFrom >= int64(time.Millisecond)
			h.riskOn = st.serverAt(h.RiskModel, f)
			h.lifts, h.liftFrom, h.liftUntil = end < h.RefusedFrom, end, next
		}
	}
	if h.RefusedFrom < h.RiskFrom {
		h.RiskFrom, h.RiskModel, h.riskOn, h.riskRefused = h.RefusedFrom, h.RefusedModel, h.refusedOn, true
	}
}

// horizonWaits sets h's horizon where outage o, of the clients' way to
// the servers, ends after its drop: a reconnect from o's start (or the
// drop) until its end waits for a server and is answered then, through
// the load balancer, as the zones judge it (waitedOutcome); one before
// goes over the drop's connection (stint st), one after through the
// load balancer, o having shut every connection.
func (a *Analysis) horizonWaits(h *Horizon, o *Outage, st connStint) {
	from := max(o.From, h.Drop)
	before, after := *h, *h
	a.horizonFrom(&before, h.Drop, st)
	a.horizonFrom(&after, o.To, throughBalancer(o.To))
	var refusedBy, riskBy Model
	refused, risky := false, false
	for _, m := range a.applicable(h.File) {
		switch out := a.waitedOutcome(m, h.File, h.RV, h.Since, o); {
		case out == Refused && (!refused || decidesOver(Refused, Refused, m, refusedBy, true)):
			refusedBy, refused = m, true
		case out == AtRisk && !risky:
			riskBy, risky = m, true
		}
	}
	switch {
	case before.RiskFrom < from:
		// At risk before the wait: what comes after it is the wait's
		// answer, or after it.
		*h = before
		switch {
		case h.RefusedFrom < from:
		case refused:
			h.RefusedFrom, h.RefusedModel, h.refusedOn, h.refusedWait = from, refusedBy, anyServer, o
		default:
			h.RefusedFrom, h.RefusedModel, h.refusedOn = after.RefusedFrom, after.RefusedModel, after.refusedOn
		}
		if h.lifts && h.liftUntil > from {
			// Held again before the wait: until it, or, accepted at its
			// end, until the risk after it.
			h.liftUntil = from
			if !refused && !risky {
				h.liftUntil = after.RiskFrom
			}
			h.lifts = h.liftFrom < from
		}
	case refused:
		*h = before
		h.RefusedFrom, h.RefusedModel, h.refusedOn, h.refusedWait = from, refusedBy, anyServer, o
		h.RiskFrom, h.RiskModel, h.riskOn, h.riskRefused, h.riskWait = from, refusedBy, anyServer, true, o
		h.riskHeld, h.lifts = false, false
	case risky:
		*h = after
		h.RiskFrom, h.RiskModel, h.riskOn, h.riskRefused, h.riskWait = from, riskBy, anyServer, false, o
		h.riskHeld, h.lifts = false, false
	default:
		// Accepted when answered: the horizon is the one after the wait.
		*h = after
	}
	h.lifts = h.lifts && !h.riskRefused && h.liftFrom < h.RefusedFrom
	h.liftUntil = min(h.liftUntil, h.RefusedFrom)
}

// HorizonReasons says why h's models put a reconnect after its drop at
// risk and refuse it, "" for never. They are made when asked: a load
// makes a horizon for every drop of every cursor, and the report alone
// says why.
func (a *Analysis) HorizonReasons(h Horizon) (risk, refused string) {
	if h.RefusedFrom != never {
		refused = a.waitedReason(h.RefusedModel, Refused, h.File, h.refusedOn, h.RV, h.Since, h.RefusedFrom, h.refusedWait)
	}
	switch {
	case h.RiskFrom == never:
	case h.riskRefused:
		risk = refused
	case h.riskWait != nil:
		risk = a.waitedReason(h.RiskModel, AtRisk, h.File, h.riskOn, h.RV, h.Since, h.RiskFrom, h.riskWait)
	default:
		risk = a.reason(h.RiskModel, AtRisk, h.File, h.riskOn, h.RV, h.Since, h.RiskFrom, seenBy(h.RiskFrom))
		if h.riskHeld {
			risk += a.heldUntilWords(h.File, a.heldOn(h, h.RiskFrom-1), h.RV, h.Drop, h.RiskFrom)
		}
		risk += a.heldAgainWords(h)
	}
	return risk, refused
}

// waitedReason is model m's reason for outcome o of a reconnect at
// instant at, or, where it waits for outage w (nil for none), at w's
// end, which it says first.
func (a *Analysis) waitedReason(m Model, o Outcome, file int, on serverRef, rv uint64, since, at int64, w *Outage) string {
	if w == nil {
		return a.reason(m, o, file, on, rv, since, at, seenBy(at))
	}
	return a.waitedWords(at, w.To, w.From) + ": " + a.reason(m, o, file, on, rv, since, w.To, seenBy(w.To))
}

// heldAgainWords says when a horizon's risk lifts (Horizon.RiskLifts),
// "" when it does not: the horizon is the first instant at risk, and a
// reconnect a moment later may be accepted.
func (a *Analysis) heldAgainWords(h Horizon) string {
	from, until, ok := h.RiskLifts()
	if !ok {
		return ""
	}
	to := "from then on"
	switch {
	case until == h.RefusedFrom && until != never:
		to = "until the refusal at " + a.instant(until)
	case until != never:
		to = "until " + a.instant(until)
	}
	at := "from " + a.instant(from)
	if from-h.RiskFrom < int64(time.Millisecond) {
		// Shown to the millisecond, the two instants read alike.
		at = "under a millisecond later, from " + a.instant(from) + ","
	}
	return fmt.Sprintf("; the risk lifts %s %s: %s", at, to, a.heldWords(a.heldOn(h, from), h.RV, " again"))
}

// heldOn is the server whose metrics decide whether a reconnect at t
// after h's drop is held: its connection's while it lasts, else -1,
// every server the load balancer could pick (as firstUnheld takes it).
func (a *Analysis) heldOn(h Horizon, t int64) int {
	if st := a.reachAt(h.File, h.Drop); t < st.to {
		return st.on.server
	}
	return -1
}

// ResumeAt answers, for each cursor of the file, what a reconnect at
// instant at would get: the cursor as the client held it then (as it left
// it, when at is past the file's end), judged with the evidence observed
// up to and including at (seenBy), or, where at falls in an outage of
// the clients' way to the servers, up to its end, when it is answered
// (reconnectReach).
func (a *Analysis) ResumeAt(file int, at int64) []Verdict {
	var out []Verdict
	state := min(at, a.TL.Files[file].End)
	r := a.reconnectReach(file, at, at)
	for _, kind := range a.kinds(file) {
		rv, since, _, ok := a.cursor(file, kind).At(state)
		out = append(out, a.verdictOver(Verdict{File: file, Kind: kind, T: state, At: at}, r, rv, since, ok))
	}
	return out
}

// reach is where a reconnect asked about at an instant goes: judged at
// at, over the connection of stint st; within an outage of the clients'
// way to the servers (outage), at its end, once their requests reached
// a server again, through the load balancer: the outage shut every
// connection, and the client retries until one answers.
type reach struct {
	at     int64
	st     connStint
	outage *Outage
}

// reconnectReach is where a reconnect of the file at instant at goes,
// its watch having dropped at drop: over the connection it had then
// (reachAt), unless at falls in an outage.
func (a *Analysis) reconnectReach(file int, drop, at int64) reach {
	if o := a.outageAt(file, at); o != nil {
		return reach{at: o.To, st: throughBalancer(o.To), outage: o}
	}
	return reach{at: at, st: a.reachAt(file, drop)}
}

// outageAt is the outage of the clients' way to the servers that a
// reconnect of the file at instant at falls in, nil for none.
func (a *Analysis) outageAt(file int, at int64) *Outage {
	if o := a.outageAfter(file, at); o != nil && o.From <= at {
		return o
	}
	return nil
}

// outageAfter is the first outage of the clients' way to the servers
// that ends after instant t and holds the file's reconnects, nil for
// none: the servers' own informers bypass the load balancer, and no
// outage of the clients' holds them.
func (a *Analysis) outageAfter(file int, t int64) *Outage {
	if a.TL.Files[file].Loopback {
		return nil
	}
	return a.TL.outageAfter(t)
}

// waitedPrefix is waitedWords and a colon, for a reconnect asked about
// at instant asked that goes where r says; "" where it waits for no
// outage.
func (a *Analysis) waitedPrefix(r reach, asked int64) string {
	if r.outage == nil {
		return ""
	}
	return a.waitedWords(asked, r.at, r.outage.From) + ": "
}

// waitedWords says why a reconnect asked about at instant asked, within
// an outage from cut on, is answered only at its end, at.
func (a *Analysis) waitedWords(asked, at, cut int64) string {
	return fmt.Sprintf("answered only at %s: no client's request reached an API server from %s until then, so a reconnect at %s waits for one", a.instant(at), a.instant(cut), a.instant(asked))
}

// resumeOutcome is the outcome of ResumeAt's verdict for one cursor kind,
// without the words, where its reconnect goes (reconnectReach) found by
// the caller: a fleet asks it of thousands of clients.
func (a *Analysis) resumeOutcome(file int, kind CursorKind, r reach, at int64) Outcome {
	o, _ := a.resumeOutcomeWhy(file, kind, r, at)
	return o
}

// unjudged says why a reconnect's outcome is Unknown.
type unjudged uint8

const (
	// judgedOrHeadUnknown: judged, or no record shows the cluster's head
	// then.
	judgedOrHeadUnknown unjudged = iota
	// beforeRecording: the instant precedes the file's recording;
	// afterRecording: it follows its end, asked of the whole fleet.
	beforeRecording
	afterRecording
	// noCursor: the client had no resourceVersion to resume from (a watch
	// from none that has seen nothing yet, a WatchList that never ended
	// its sync): its reconnect lists everything again, and is no 410.
	noCursor
	// unnamedRV: the client's own log names no resourceVersion it held
	// then (a library's log names few): its cursor is not known.
	unnamedRV
	// noServer: no API server took new requests then, nor again in the
	// records (noneTakingFrom).
	noServer
)

// resumeOutcomeWhy is resumeOutcome, and for an Unknown one why.
func (a *Analysis) resumeOutcomeWhy(file int, kind CursorKind, r reach, at int64) (Outcome, unjudged) {
	f := &a.TL.Files[file]
	rv, since, _, ok := a.cursor(file, kind).At(min(at, f.End))
	switch {
	case !ok && f.startsAfter(at):
		return Unknown, beforeRecording
	case !ok && f.clientLog() && !a.TL.neverSynced(file):
		return Unknown, unnamedRV
	case !ok:
		return Unknown, noCursor
	case rv == unknownRV:
		return Unknown, judgedOrHeadUnknown
	case r.at >= a.noneTakingFrom():
		return Unknown, noServer
	}
	return overall(a.outcomes(file, r.st, rv, since, r.at, seenBy(r.at))), judgedOrHeadUnknown
}

// ResumeAnswers is ResumeAt for every file at each instant asked, ordered
// by instant (stably, those of files without a clock first: they have no
// instant to show).
func (a *Analysis) ResumeAnswers(qs []ResumeQuery) []Verdict {
	var out []Verdict
	for _, q := range qs {
		for fi := range a.TL.Files {
			if a.TL.Files[fi].Loopback {
				// An API server's own informer watches its own process
				// over loopback and ends with it: it makes no reconnect
				// another server could answer, and is no one's client
				// (the fleet leaves it out too).
				continue
			}
			out = append(out, a.ResumeAt(fi, q.For(&a.TL.Files[fi]))...)
		}
	}
	timed := func(v Verdict) bool { return a.TL.Files[v.File].Clock != ClockNone }
	sort.SliceStable(out, func(i, j int) bool {
		ti, tj := timed(out[i]), timed(out[j])
		return !ti && tj || ti && tj && out[i].Asked() < out[j].Asked()
	})
	return out
}

// ResumeQuery is a reconnect instant asked about: At, or when Relative,
// After past each file's own end.
type ResumeQuery struct {
	At       int64
	After    time.Duration
	Relative bool
}

// afterRecording says q asks about an instant after file f's recording
// ended: a fleet's reconnect then does not count its client (nothing
// shows it still watching), though its cursor as it was left is judged
// (ResumeAt). One asked relative to each file's end asks of that.
func (q ResumeQuery) afterRecording(f *File) bool { return !q.Relative && f.EndsBefore(q.At) }

// For is the instant q asks of file f.
func (q ResumeQuery) For(f *File) int64 {
	if q.Relative {
		return f.End + int64(q.After)
	}
	return q.At
}

// ServerVerdict is a reconnect's verdict on one API server: for the
// process taking new requests then (Incarnation, -1 when none was: the
// server was shutting down or restarting, and a reconnect could not go
// to it).
type ServerVerdict struct {
	Server, Incarnation int
	Verdict
}

// ResumeAtServers answers what a reconnect of cursor kind of the file
// asked about at instant asked would get on each server, and which
// server it would likely go to (-1: not known): the server of the
// client's connection then (reachAt), as the verdict takes it; else the
// load balancer picks. Asked within an outage, it is judged at its end
// (reconnectReach).
func (a *Analysis) ResumeAtServers(file int, kind CursorKind, asked int64) (per []ServerVerdict, likely int) {
	tl := a.TL
	state := min(asked, tl.Files[file].End)
	rv, since, _, ok := a.cursor(file, kind).At(state)
	r := a.reconnectReach(file, asked, asked)
	at := r.at
	for s := range tl.Servers {
		inc := tl.Servers[s].accepting(at)
		v := Verdict{File: file, Kind: kind, T: state, At: at, Waited: at - asked}
		switch {
		case inc < 0 && a.stopped(s, at):
			last := &tl.Servers[s].Incarnations[tl.Servers[s].serving(at)]
			v.Outcome = Unknown
			v.Reason = a.waitedPrefix(r, asked) + fmt.Sprintf("server %s stopped taking new requests %s, and its records end at %s: it had stopped", tl.Servers[s].Name, last.ClosingWords(a.instant), a.instant(last.To))
		case inc < 0 && a.shuttingDown(s, at):
			v.Outcome = Unknown
			v.Reason = a.waitedPrefix(r, asked) + fmt.Sprintf("server %s stopped taking new requests %s: it was shutting down, serving only the watches already open", tl.Servers[s].Name, tl.Servers[s].Incarnations[tl.Servers[s].serving(at)].ClosingWords(a.instant))
		case inc < 0:
			v.Outcome = Unknown
			v.Reason = a.waitedPrefix(r, asked) + a.restartingWords(s, at)
		default:
			v = a.verdictOver(Verdict{File: file, Kind: kind, T: state, At: asked}, reach{at: at, st: onServer(serverRef{s, inc}), outage: r.outage}, rv, since, ok)
		}
		per = append(per, ServerVerdict{Server: s, Incarnation: inc, Verdict: v})
	}
	return per, r.st.on.server
}

// serving is the server's process serving at t: the one whose records
// span it, the last one after its records end, the first before they
// begin; -1 between two (a restart).
func (s *Server) serving(t int64) int {
	for k, inc := range s.Incarnations {
		switch {
		case t < inc.From && k == 0:
			return 0
		case t < inc.From:
			return -1
		case t <= inc.To || k == len(s.Incarnations)-1:
			return k
		}
	}
	return -1
}

// ServerWords says a reconnect's verdicts per server in one phrase:
// "refused by a and b, accepted by c", and names a server shutting down
// or restarting then, which a reconnect cannot reach: "accepted by a and
// b, c restarting".
func (a *Analysis) ServerWords(per []ServerVerdict) string {
	var order []Outcome
	var notTaking []int
	names := map[Outcome][]string{}
	for _, sv := range per {
		if sv.Incarnation < 0 {
			notTaking = append(notTaking, sv.Server)
			continue
		}
		o := sv.Outcome
		if _, seen := names[o]; !seen {
			order = append(order, o)
		}
		names[o] = append(names[o], a.TL.Servers[sv.Server].Name)
	}
	sort.SliceStable(order, func(i, j int) bool { return outcomeOrder(order[i]) < outcomeOrder(order[j]) })
	var parts []string
	for _, o := range order {
		parts = append(parts, fmt.Sprintf("%s %s", outcomeWord(o), joinWords(names[o])))
	}
	if len(notTaking) > 0 {
		parts = append(parts, a.notTakingWords(notTaking, per[0].At))
	}
	return strings.Join(parts, ", ")
}

// outcomeOrder puts refusals first, then risks, acceptances, unknowns.
func outcomeOrder(o Outcome) int {
	switch o {
	case Refused:
		return 0
	case AtRisk:
		return 1
	case Accepted:
		return 2
	}
	return 3
}

// outcomeWord is an outcome as a participle before the servers' names:
// "refused by", "at risk on".
func outcomeWord(o Outcome) string {
	switch o {
	case AtRisk:
		return "at risk on"
	case Unknown:
		return "not judged by"
	}
	return o.String() + " by"
}
