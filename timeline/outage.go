package timeline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"watchlens/internal/quantity"
)

// Outages: stretches when no request of the captured clients reached a
// server. A client that loses its API server (a load balancer or a
// network down, every server restarting at once) retries its watch with
// a backoff, and a capture records each attempt with no response. Once a
// server answers again, the clients come back together: the stampede
// the seeds ask about.
//
// Only the clients' own records (captures, their logs) show attempts that
// reached no server. An audit log holds only requests a server received:
// those it answered during the stretch (writes sent straight to a server,
// the servers' loopback clients) do not end the clients' outage, they
// show which servers were up meanwhile, as the servers' own logs covering
// the stretch with no restart in it do. With a server shown up, the
// clients' way to the servers was cut (a load balancer, the network), not
// the servers.
//
// Where no client's own record covers it, the audit logs show an outage
// as a silence (silentOutages): an informer keeps a watch open, and when
// one ends it asks again at once, so a client with no request open for
// seconds is rare, and half of a fleet falling silent at once does not
// happen unless their way to the servers is cut. Samples-outage's audit
// logs show its 99 clients falling silent within 469 ms, for 2m30s;
// those of samples-lab, samples-watchlist and samples-fleet, through
// rolling restarts, show no client silent for 5 s.

// Outage is one stretch with attempts and no answer.
type Outage struct {
	// From is the first attempt that reached no server, To the start of
	// the first request answered after it: the server came back at most
	// then.
	From, To int64
	// LastAttempt is the last attempt that reached no server: the
	// outage ended after it and by To. A capture shows no more than
	// that of its end.
	LastAttempt int64
	// Attempts counts the requests that reached no server, Clients the
	// files that made them.
	Attempts, Clients int
	// Up names the API servers shown up from From to LastAttempt (see
	// above), in the order of Timeline.Servers, then of the server logs,
	// then those of upBySpan;
	// Answered counts the lists and watches the audit logs show them
	// answering meanwhile, and Logged says their own logs cover the
	// stretch with no restart in it.
	Up       []string
	Answered int
	Logged   bool
	// upBySpan names the servers of Up shown up only by one audit log of
	// a process that runs from before the stretch to after it, the
	// process taking requests throughout: it answered none of the
	// stretch's requests, and did not restart. They are told beside other
	// evidence of servers up, never alone (ServersUp).
	upBySpan []string
	// Others counts the other requests (writes, gets) the audit logs
	// show answered meanwhile, in the whole seconds of the stretch: the
	// timeline keeps only their count by the second (AuditLog.others).
	Others int
	// Error is the commonest reason the attempts reached no server, as
	// the captures noted it (Session.TransportError; "connect:
	// connection refused" at the address the clients dial), and
	// ErrorAttempts how many attempts failed with it; "" and 0 when the
	// captures note none.
	Error         string
	ErrorAttempts int
	// Back is when the last of its clients sent the request that was
	// answered again (0 when none did); BackFailed counts their attempts
	// after To that still reached no server (the servers slow to take
	// the whole fleet back: TLS handshakes timing out), BackError the
	// commonest reason among those and BackErrorAttempts how many failed
	// with it. A silent outage shows none of these.
	Back              int64
	BackFailed        int
	BackError         string
	BackErrorAttempts int
	// ToLogged and BackLogged say To and Back are as a client's own log
	// dates the request: client-go logs a retry when its outcome comes,
	// not when it is sent.
	ToLogged, BackLogged bool
	// Silent: the audit logs show it, as its clients' requests ending
	// together and none asking again until To (silentOutages); nothing
	// shows their attempts. Attempts is 0, LastAttempt is From, and
	// LastEnded is the last of its clients' requests to end as it began.
	Silent    bool
	LastEnded int64
}

// ServersUp says something shows an API server up during the outage:
// the clients' way to the servers was cut, not the servers.
func (o Outage) ServersUp() bool { return o.Answered > 0 || o.Others > 0 || o.Logged }

// minOutageClients is how many clients must fail together for an
// outage: one client's refused connection is its own trouble.
// minOutage is how long: as the fleet comes back, a few of its
// connections time out (TLS handshakes of a loaded server) among the
// answered ones.
const (
	minOutageClients = 2
	minOutage        = int64(5 * time.Second)
)

// silenceSpread is how close together the requests of the clients a cut
// silences end, as the audit logs show them: samples-outage's load
// balancer closed its 99 connections within 469 ms.
const silenceSpread = int64(2 * time.Second)

// Outages lists the outages in time order, found once per timeline:
// the analysis, its summary, the report and the fleet view each ask. The
// slice is the timeline's own: do not modify it.
func (tl *Timeline) Outages() []Outage {
	tl.outagesOnce.Do(func() { tl.outages = tl.findOutages() })
	return tl.outages
}

// outageHolding is the outage that instant t falls in, [From, To); nil
// for none.
func (tl *Timeline) outageHolding(t int64) *Outage {
	if o := tl.outageAfter(t); o != nil && o.From <= t {
		return o
	}
	return nil
}

// outageAfter is the first outage that ends after instant t; nil for
// none.
func (tl *Timeline) outageAfter(t int64) *Outage {
	os := tl.Outages()
	for k := range os {
		if o := &os[k]; o.To > t && o.From < o.To {
			return o
		}
	}
	return nil
}

// outageAttempt is a request a client's own record holds: answered by
// a server, or not (a refused connection, a TLS handshake timing out).
type outageAttempt struct {
	t        int64
	file     int
	answered bool
	err      string
	// logged: t is as the client's own log dates the request (by the
	// line before it, or by its outcome's), not its send as a capture
	// shows it.
	logged bool
}

// errorTally finds the commonest of the errors added, the first in
// order among equals.
type errorTally struct {
	counts map[string]int
	best   string
	n      int
}

func (e *errorTally) add(err string) {
	if err == "" {
		return
	}
	if e.counts == nil {
		e.counts = map[string]int{}
	}
	e.counts[err]++
	if n := e.counts[err]; n > e.n || n == e.n && err < e.best {
		e.best, e.n = err, n
	}
}

// findOutages is Outages, worked out.
func (tl *Timeline) findOutages() []Outage {
	var as []outageAttempt
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if s.Request == nil || tl.Files[s.File].ServerRecorded() {
			continue
		}
		as = append(as, outageAttempt{s.Start, s.File, !s.Unanswered(), s.TransportError, tl.Files[s.File].clientLog()})
	}
	sort.Slice(as, func(i, j int) bool { return as[i].t < as[j].t })
	var out []Outage
	for k := 0; k < len(as); {
		if as[k].answered {
			k++
			continue
		}
		o := Outage{From: as[k].t}
		files := map[int]bool{}
		var errs errorTally
		for ; k < len(as) && !as[k].answered; k++ {
			o.Attempts++
			o.LastAttempt = as[k].t
			files[as[k].file] = true
			errs.add(as[k].err)
		}
		if k == len(as) || len(files) < minOutageClients || as[k].t-o.From < minOutage {
			continue // still down when the captures end: no return to speak of
		}
		o.To, o.ToLogged, o.Clients = as[k].t, as[k].logged, len(files)
		o.Error, o.ErrorAttempts = errs.best, errs.n
		o.comeBack(as[k:], files)
		tl.serversUp(&o)
		out = append(out, o)
	}
	for _, o := range tl.silentOutages() {
		if !slices.ContainsFunc(out, func(c Outage) bool { return c.From < o.To && o.From < c.To }) {
			tl.serversUp(&o)
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}

// comeBack follows the outage's clients (files, which it empties)
// through the attempts from its end on (after) until each has one
// answered: Back, BackFailed and BackError.
func (o *Outage) comeBack(after []outageAttempt, files map[int]bool) {
	var errs errorTally
	for _, a := range after {
		if len(files) == 0 {
			break
		}
		if !files[a.file] {
			continue
		}
		if a.answered {
			delete(files, a.file)
			o.Back, o.BackLogged = a.t, a.logged
			continue
		}
		o.BackFailed++
		errs.add(a.err)
	}
	o.BackError, o.BackErrorAttempts = errs.best, errs.n
}

// silentOutages are the stretches in which at least half of the clients
// the audit logs show (not the servers' own) fell silent together: each
// one's requests ended within silenceSpread of the first's, and each had
// no request open for minOutage or longer after it. A cut ends every
// connection through it at once; clients backing off after failures
// (client-go's reflector waits up to 30 s) fall silent one by one, as
// after samples-outage's stampede, where 48 of its 99 clients were
// silent at once but no 2 s held the starts of more than 24. Each runs
// from the first of its clients' requests to end to the first of them
// to ask again.
func (tl *Timeline) silentOutages() []Outage {
	type silence struct{ from, to int64 }
	var quiet []silence
	clients := 0
	for fi := range tl.Files {
		f := &tl.Files[fi]
		if !f.ServerRecorded() || f.Loopback || len(f.Sessions) == 0 {
			continue
		}
		clients++
		open := int64(math.MinInt64) // the end of the requests before
		for _, g := range f.Sessions {
			s := &tl.Sessions[g]
			if open != math.MinInt64 && s.Start-open >= minOutage {
				quiet = append(quiet, silence{open, s.Start})
			}
			open = max(open, s.Start, s.End)
		}
	}
	least := max(minOutageClients, (clients+1)/2)
	sort.Slice(quiet, func(i, j int) bool { return quiet[i].from < quiet[j].from })
	// within is how many silences start in the spread from quiet[i]'s
	// start: one client's silences are minOutage apart, so each is
	// another client's.
	within := func(i int) int {
		return sort.Search(len(quiet)-i, func(k int) bool { return quiet[i+k].from-quiet[i].from > silenceSpread })
	}
	var out []Outage
	for i := 0; i < len(quiet); i++ {
		n := within(i)
		if n < least {
			continue
		}
		// The spread that holds the most of them starts here or at one
		// of the silences in it.
		best, most := i, n
		for k := i + 1; k < i+n; k++ {
			if m := within(k); m > most {
				best, most = k, m
			}
		}
		i, n = best, most
		o := Outage{From: quiet[i].from, To: never, LastAttempt: quiet[i].from, Clients: n, Silent: true}
		for _, q := range quiet[i : i+n] {
			o.To, o.LastEnded = min(o.To, q.to), max(o.LastEnded, q.from)
		}
		out = append(out, o)
		for i+1 < len(quiet) && quiet[i+1].from < o.To {
			i++
		}
	}
	return out
}

// spansTakingRequests says one audit log of a process of server s runs
// from before from to after to, the process taking requests throughout
// (no closing by to).
func (tl *Timeline) spansTakingRequests(s int, from, to int64) bool {
	for _, inc := range tl.Servers[s].Incarnations {
		if inc.Closing != 0 && inc.Closing <= to {
			continue
		}
		for _, l := range inc.Logs {
			if log := &tl.AuditLogs[l]; log.First < from && log.Last > to {
				return true
			}
		}
	}
	return false
}

// serversUp fills o's evidence of servers up during it: the requests the
// audit logs show answered, and the servers' own logs. A silent outage's
// clients asked nothing until To: any request before it is another's.
func (tl *Timeline) serversUp(o *Outage) {
	up := make([]bool, len(tl.Servers))
	until := o.LastAttempt
	if o.Silent {
		until = o.To - 1
	}
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if !tl.Files[s.File].ServerRecorded() || s.Start < o.From || s.Start > until {
			continue
		}
		o.Answered++
		if s.Server >= 0 {
			up[s.Server] = true
		}
	}
	for k := range tl.Servers {
		for _, inc := range tl.Servers[k].Incarnations {
			for _, l := range inc.Logs {
				if n := tl.AuditLogs[l].others.within(o.From, until); n > 0 {
					o.Others += n
					up[k] = true
				}
			}
		}
	}
	for k, u := range up {
		if u {
			o.Up = append(o.Up, tl.Servers[k].Name)
		}
	}
	for k := range tl.ServerLogs {
		l := &tl.ServerLogs[k]
		if l.First > o.From || l.Last < o.To || l.restartedWithin(o.From, o.To) {
			continue
		}
		o.Logged = true
		if l.Server != "" && !slices.Contains(o.Up, l.Server) {
			o.Up = append(o.Up, l.Server)
		}
	}
	if !o.ServersUp() {
		return
	}
	for k := range tl.Servers {
		if name := tl.Servers[k].Name; !slices.Contains(o.Up, name) && tl.spansTakingRequests(k, o.From, until) {
			o.Up = append(o.Up, name)
			o.upBySpan = append(o.upBySpan, name)
		}
	}
}

// FirstAnsweredWords tells the first request answered after the
// outage, its instant put by instant: "the first request answered was
// sent at 19:11:43.874 UTC", or, where a client's own log tells it, "the
// first request answered, as the clients' logs date it, was at
// 19:11:43.903 UTC".
func (o Outage) FirstAnsweredWords(instant func(int64) string) string {
	if o.ToLogged {
		return "the first request answered, as the clients' logs date it, was at " + instant(o.To)
	}
	return "the first request answered was sent at " + instant(o.To)
}

// BackWords tells how the outage's clients came back, its instants put
// by instant: "as they came back, 31 more attempts failed (30 with
// "net/http: TLS handshake timeout"), and the last of them sent the
// request that got its first answer at 19:12:26.153 UTC"; "" for a
// silent outage. The instants are the requests' sends: when the answers
// came, the captures show apart.
func (o Outage) BackWords(instant func(int64) string) string {
	if o.Back == 0 {
		return ""
	}
	last := "the last of them sent the request that got its first answer at " + instant(o.Back)
	if o.BackLogged {
		last = "the last of them got its first answer at " + instant(o.Back) + " as its log dates it (a client's log dates a retry by its outcome, not its send)"
	}
	if o.BackFailed == 0 {
		return last
	}
	with := ""
	if o.BackError != "" {
		with = fmt.Sprintf(" (%d with %q)", o.BackErrorAttempts, o.BackError)
		if o.BackErrorAttempts == o.BackFailed {
			with = fmt.Sprintf(" (each with %q)", o.BackError)
		}
	}
	return fmt.Sprintf("as they came back, %s failed%s, and %s", quantity.Plural(o.BackFailed, "more attempt"), with, last)
}

// SilenceWords tells a silent outage as the audit logs show it, its
// instants put by instant: "the audit logs show no request of 99 clients
// from 19:09:13.551 to 19:11:43.899 UTC (2m30s): their requests ended
// within 469ms of each other, and none asked again until then".
func (o Outage) SilenceWords(instant func(int64) string) string {
	return fmt.Sprintf("the audit logs show no request of %s from %s to %s (%s): their requests ended within %s of each other, and none asked again until then",
		quantity.Plural(o.Clients, "client"), instant(o.From), instant(o.To), FormatDuration(o.To-o.From), FormatDuration(o.LastEnded-o.From))
}

// OutageReturn is what the fleet did once an outage ended: the relists
// from its end to the next outage (or the captures' end).
type OutageReturn struct {
	Outage
	Relists, RelistClients int
	// AfterGone counts the relists that followed a 410 Gone (CauseGone).
	AfterGone int
	// First and Last are the relists' delays after the outage's end.
	First, Last int64
	// until is the next outage's start (or the largest instant): what
	// happens from To to it follows this outage.
	until int64
}

// OutageReturns pairs each outage with the relists that followed it.
func (tl *Timeline) OutageReturns() []OutageReturn {
	os := tl.Outages()
	out := make([]OutageReturn, len(os))
	for k, o := range os {
		r := OutageReturn{Outage: o, until: math.MaxInt64}
		if k+1 < len(os) {
			r.until = os[k+1].From
		}
		clients := map[int]bool{}
		for _, rl := range tl.Relists {
			if rl.T < o.To || rl.T >= r.until {
				continue
			}
			d := rl.T - o.To
			if r.Relists == 0 || d < r.First {
				r.First = d
			}
			r.Last = max(r.Last, d)
			r.Relists++
			if rl.Cause == CauseGone {
				r.AfterGone++
			}
			clients[rl.File] = true
		}
		r.RelistClients = len(clients)
		out[k] = r
	}
	return out
}

// maxEndWindow is how far apart the last attempt that reached no server
// and the first answer may be for the outage's end to be taken as
// between them: further apart, the delays are counted from the first
// answer, and the words say so.
const maxEndWindow = int64(time.Second)

// End is the instant the relists' delays count from, and whether it is
// the last attempt that reached no server (else the first answer). A
// capture shows the end only as that last attempt and the first answer
// after it. When those are within maxEndWindow the delays count from
// the last attempt: the first answer comes later than the end by the
// time a new connection takes (a TLS handshake with a server that many
// clients reach at once), the last refused attempt only by the clients'
// retry spacing, which is shortest then, with the whole fleet retrying.
func (o OutageReturn) End() (end int64, lastAttempt bool) {
	if o.To-o.LastAttempt <= maxEndWindow {
		return o.LastAttempt, true
	}
	return o.To, false
}

// AfterEnd is the first and last relists' delays after End.
func (o OutageReturn) AfterEnd() (first, last int64) {
	end, _ := o.End()
	return o.First + o.To - end, o.Last + o.To - end
}

// RelistDelayWords says when relists came after an outage's end, as the
// fleet's summary and the report's outage table both say it: "between 8
// and 77 s after the outage ended" (the end taken as the last attempt
// that reached no server), or "... after the first answer after the
// outage".
func RelistDelayWords(first, last int64, lastAttempt bool) string {
	after := "the first answer after the outage"
	if lastAttempt {
		after = "the outage ended"
	}
	between := FormatDuration(first) + " and " + FormatDuration(last)
	if last >= int64(2*time.Second) {
		between = fmt.Sprintf("%.0f and %.0f s", float64(first)/1e9, float64(last)/1e9)
	}
	return "between " + between + " after " + after
}
