package timeline

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"watchlens/parser"
)

// Restarts as the captures show them.
//
// An API server that gets SIGTERM keeps serving its open watches up to its
// shutdown timeout, then ends them all cleanly at once (the terminal
// chunk, no ERROR), and its clients reconnect (watch-protocol.md §6).
// Several streams, in one file or several, ending cleanly within about a
// second of each other before their deadlines, each followed by a
// reconnect, are that signature. The first reconnect answered after them
// is when a server served again: the restarted one when it is the only
// server, another one behind a load balancer. A detected restart is a
// finding, never applied unless the user gives it as Params.Restarts.
//
// Audit logs show a restart more directly: a server's log ends (its last
// stage written) and a log of a new process of a server starts after it
// (its loopback user has a new uid; a rotated log of the same process
// keeps it). The new log's first record is when the new process served;
// with watches that ended at once at the old log's end, the two are one
// restart.

// restartCluster is how close together stream ends must be to count as
// one server ending its watches; restartShare says how many: at least one
// client in restartShare (and two), as a server behind a load balancer
// ends its share of the fleet's watches.
const (
	restartCluster = int64(1e9)
	restartShare   = 10
)

// DetectedRestart is a probable restart with its evidence.
type DetectedRestart struct {
	// Ended is the instant the first of the streams ended, LastEnded the
	// last; Served is the first reconnect after them that the server
	// answered with 200. ServedLogged says Served is as a client's own
	// log dates it: by the line before (a watch follows the one before
	// at once), or by its outcome (a retry after a backoff).
	Ended, LastEnded, Served int64
	ServedLogged             bool
	// Sessions are the streams that ended (global indices); Files counts
	// the files they are in.
	Sessions []int
	Files    int
	// Logs names the audit log that ended and the one that started after
	// it, when audit logs show the restart.
	Logs []string
	// Server names the server whose own log shows the restart (SIGTERM,
	// then a new process), "" when none does; SIGTERM is when that log
	// shows the old process told to stop (it keeps serving its watches a
	// while: the ends come later), 0 when none does.
	Server  string
	SIGTERM int64
	// Closing and ClosingBy bound when the old process stopped taking
	// new requests, as its Incarnation's do, or its own log (both its
	// instant), 0 when no record shows it: from then on a reconnect went
	// to another server. ClosingSource says which record shows it.
	Closing, ClosingBy int64
	ClosingSource      ClosingSource
	// ServerName is the server that restarted as its records show it:
	// the one whose audit logs ended and began (Logs), else Server; ""
	// when none does.
	ServerName string
	// Relists counts the relists the restart caused (after a 410 whose
	// refused reconnect resumed one of its Sessions), RelistClients the
	// clients that made them.
	Relists, RelistClients int
	// Unreachable says the clients' reconnects after the ends reached no
	// server until Served (an Outage began with them): every server
	// restarting, or the way to them cut, which the captures alone
	// cannot tell apart.
	Unreachable bool
}

// Shown says a server's own records show the restart: its audit logs or
// its log. Else the clients' streams alone suggest it: a probable one.
func (d DetectedRestart) Shown() bool { return d.Logs != nil || d.Server != "" }

// ServedWords says what Served is, at the instant written at: for a
// restart the server's own records show, when its new process began
// serving (its new audit log's first request, its log's start); else the
// send of the first reconnect a server answered, which may be another
// server's, as a capture shows it or a client's own log dates it.
func (d DetectedRestart) ServedWords(at string) string {
	switch {
	case d.Shown():
		return "its new process served from " + at
	case d.ServedLogged:
		return "the first reconnect a server answered, as the clients' logs date it, was at " + at
	}
	return "the first reconnect a server answered was sent at " + at
}

// restartTakes is less than an API server takes to serve again after
// its watches end: a new process starts and fills its caches (3 s in
// samples-lab's audit logs).
const restartTakes = int64(time.Second)

// AnotherServed says a reconnect was answered sooner than the restarted
// server could have answered it: another server served meanwhile, so
// there are several.
func (d DetectedRestart) AnotherServed() bool {
	return !d.Unreachable && d.Served-d.Ended < restartTakes
}

// Window is the restart window the detection suggests: from the old
// server ending its watches to a server answering again.
func (d DetectedRestart) Window() Restart {
	return Restart{From: d.Ended, To: max(d.Served, d.LastEnded)}
}

// Flag is the value of `analyze -restart` that applies the restart: its
// window as FROM/TO.
func (d DetectedRestart) Flag() string {
	w := d.Window()
	return FormatTime(w.From, ClockArrival) + "/" + FormatTime(w.To, ClockArrival)
}

// detectRestarts lists the probable restarts (see above).
func (a *Analysis) detectRestarts() {
	tl := a.TL
	type end struct {
		t    int64
		g    int
		rest []int // the file's sessions after it
	}
	var ends []end
	clients := 0
	for _, f := range tl.Files {
		if f.Clock != ClockArrival || f.SplitOf != "" {
			continue
		}
		clients++
		for k, g := range f.Sessions {
			s := &tl.Sessions[g]
			if !s.watchStream() || s.EndReason != EndEOF || k+1 == len(f.Sessions) {
				continue
			}
			ends = append(ends, end{s.End, g, f.Sessions[k+1:]})
		}
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i].t < ends[j].t })
	outages := tl.Outages()
	for i := 0; i < len(ends); {
		j := i + 1
		for j < len(ends) && ends[j].t-ends[j-1].t <= restartCluster {
			j++
		}
		// A server ending its watches ends a share of the fleet's
		// clients'; in a large one, two ending together by chance
		// (timeouts a client picks at random) are no restart, nor is one
		// client's watch and its quick retry. Nor are watches that ended
		// as an outage began with the servers shown up through it
		// (Outage.ServersUp): their connections were cut on the way.
		o, opened := outageFrom(outages, ends[i].t, ends[j-1].t)
		files := map[int]bool{}
		for _, e := range ends[i:j] {
			files[tl.Sessions[e.g].File] = true
		}
		if len(files) >= max(2, clients/restartShare) && !(opened && o.ServersUp()) {
			d := DetectedRestart{Ended: ends[i].t, LastEnded: ends[j-1].t, Served: never, Unreachable: opened}
			for _, e := range ends[i:j] {
				d.Sessions = append(d.Sessions, e.g)
				// The first reconnect answered: a LIST or a watch alike.
				for _, n := range e.rest {
					if s := &tl.Sessions[n]; (s.HTTPStatus == 200 || s.HTTPStatus == 0) && !s.Unanswered() {
						if s.Start < d.Served {
							d.Served, d.ServedLogged = s.Start, tl.Files[s.File].clientLog()
						}
						break
					}
				}
			}
			d.Files = len(files)
			if d.Served == never {
				d.Served = d.LastEnded
			}
			a.Restarts = append(a.Restarts, d)
		}
		i = j
	}
	a.detectLogRestarts()
}

// outageFrom finds the outage that began as watches ended from first to
// last.
func outageFrom(outages []Outage, first, last int64) (Outage, bool) {
	for _, o := range outages {
		if o.From >= first-restartCluster && o.From <= last+restartCluster {
			return o, true
		}
	}
	return Outage{}, false
}

// auditLogGap bounds the time from a server's log ending to its new
// process's log starting: the new process starts within seconds of the
// old one's exit, and a longer silence is another story.
const auditLogGap = int64(5 * time.Minute)

// detectLogRestarts pairs each audit log that ends with the first log of
// another process that starts after it (see above), and merges the
// restart with the one its watches' ends showed, if any.
func (a *Analysis) detectLogRestarts() {
	logs := a.TL.AuditLogs
	taken := make([]bool, len(logs))
	order := make([]int, len(logs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return logs[order[i]].Last < logs[order[j]].Last })
	for _, i := range order {
		old := &logs[i]
		next := -1
		for j := range logs {
			n := &logs[j]
			if taken[j] || j == i || n.Records == 0 || n.First <= old.Last || n.First-old.Last > auditLogGap ||
				(n.Process != "" && n.Process == old.Process) {
				continue
			}
			if next < 0 || n.First < logs[next].First {
				next = j
			}
		}
		if next < 0 || old.Records == 0 {
			continue
		}
		taken[next] = true
		a.addLogRestart(i, next)
	}
	for _, r := range a.TL.ServerLogRestarts() {
		a.addServerLogRestart(r)
	}
	// Watches of clients from audit logs that ended together while their
	// server's log went on were no restart: the logs say the server did
	// not stop.
	kept := a.Restarts[:0]
	for _, r := range a.Restarts {
		fromLogs := true
		for _, g := range r.Sessions {
			_, audited := a.TL.auditLog[g]
			fromLogs = fromLogs && audited
		}
		if r.Logs != nil || r.Server != "" || !fromLogs || len(logs) == 0 {
			kept = append(kept, r)
		}
	}
	a.Restarts = kept
	sort.Slice(a.Restarts, func(i, j int) bool { return a.Restarts[i].Ended < a.Restarts[j].Ended })
	a.nameRestartedServers()
	a.relistsAfterRestarts()
}

// nameRestartedServers sets each restart's ServerName, and its old
// process's Closing.
func (a *Analysis) nameRestartedServers() {
	tl := a.TL
	// An audit log's server and process.
	type logOf struct {
		server string
		inc    *Incarnation
	}
	logs := map[string]logOf{}
	for s := range tl.Servers {
		for k := range tl.Servers[s].Incarnations {
			inc := &tl.Servers[s].Incarnations[k]
			for _, l := range inc.Logs {
				logs[tl.AuditLogs[l].Name] = logOf{tl.Servers[s].Name, inc}
			}
		}
	}
	for k := range a.Restarts {
		r := &a.Restarts[k]
		r.ServerName = r.Server
		if len(r.Logs) > 0 && logs[r.Logs[0]].server != "" {
			l := logs[r.Logs[0]]
			r.ServerName, r.Closing, r.ClosingBy, r.ClosingSource = l.server, l.inc.Closing, l.inc.ClosingBy, l.inc.ClosingSource
		}
		if r.Closing == 0 && r.SIGTERM != 0 {
			// Its own log, under the name it gives.
			r.Closing = tl.loggedClosing(r.Server, r.SIGTERM, r.Ended)
			r.ClosingBy, r.ClosingSource = r.Closing, ClosingLogged
		}
	}
}

// relistsAfterRestarts counts, for each restart, the relists it caused
// and the clients that made them: a relist after a 410 whose refused
// reconnect resumed a watch the restart ended (past the requests that
// reached no server or failed between them), and came within
// restartReconnectWithin of the last of them. A reconnect minutes later
// went through sessions the records do not show: one server's audit
// logs alone hold a client's watches on it, not those it held on the
// others meanwhile. The wait counts from the new process serving where
// that came later: clients may wait for the restarted server.
func (a *Analysis) relistsAfterRestarts() {
	tl := a.TL
	ended := map[int]int{} // a watch the restart ended -> the restart
	for k, r := range a.Restarts {
		for _, g := range r.Sessions {
			ended[g] = k
		}
	}
	clients := make([]map[int]bool, len(a.Restarts))
	for _, rl := range tl.Relists {
		if rl.Cause != CauseGone || rl.CauseSession < 0 {
			continue
		}
		ss := tl.Files[rl.File].Sessions
		n := slices.Index(ss, rl.CauseSession) - 1
		for n >= 0 && !tl.Sessions[ss[n]].watchStream() {
			n--
		}
		if n < 0 {
			continue
		}
		k, ok := ended[ss[n]]
		if !ok || tl.Sessions[rl.CauseSession].Start-max(lastEnd(tl, ss, n, rl.CauseSession), a.Restarts[k].servedAt()) > restartReconnectWithin {
			continue
		}
		a.Restarts[k].Relists++
		if clients[k] == nil {
			clients[k] = map[int]bool{}
		}
		clients[k][rl.File] = true
	}
	for k := range a.Restarts {
		a.Restarts[k].RelistClients = len(clients[k])
	}
}

// restartReconnectWithin bounds the wait between a watch's end and the
// reconnect that resumes it: client-go's reflector waits at most 30 s
// between attempts (its backoff's cap), with up to as much again of
// jitter (samples-outage's captures show waits of 47-62 s between a
// client's attempts), and a few seconds more cover the request's way.
const restartReconnectWithin = int64(65 * time.Second)

// servedAt is when the restart's new process served, 0 when that is not
// known.
func (d *DetectedRestart) servedAt() int64 {
	if d.Served == never {
		return 0
	}
	return d.Served
}

// lastEnd is when the last of the file's sessions ss[n:k] ended, k being
// the index of session g in ss: the watch the restart ended, or a request
// after it that reached no server or failed.
func lastEnd(tl *Timeline, ss []int, n, g int) int64 {
	end := tl.Sessions[ss[n]].End
	for _, h := range ss[n+1:] {
		if h == g {
			break
		}
		end = max(end, tl.Sessions[h].End)
	}
	return end
}

// addLogRestart adds the restart from audit log i to log next: the
// watches of log i that ended at once at its end, the new log's first
// record as the new process serving.
func (a *Analysis) addLogRestart(i, next int) {
	tl := a.TL
	old, n := &tl.AuditLogs[i], &tl.AuditLogs[next]
	d := DetectedRestart{Ended: old.Last, LastEnded: old.Last, Served: n.First, Logs: []string{old.Name, n.Name}}
	fromLog := func(g int) bool { l, ok := tl.auditLog[g]; return ok && l == i }
	if ss, first := tl.endingWatches(fromLog, old.Last); len(ss) > 0 {
		d.Sessions, d.Ended = ss, first
	}
	files := map[int]bool{}
	for _, g := range d.Sessions {
		files[tl.Sessions[g].File] = true
	}
	d.Files = len(files)
	// The same restart found by its watches' ends: one finding, with the
	// log's evidence of when the new process served.
	for k := range a.Restarts {
		r := &a.Restarts[k]
		if r.Logs == nil && r.Ended <= d.LastEnded+restartCluster && r.LastEnded >= d.Ended-restartCluster {
			r.Ended, r.LastEnded, r.Served, r.Logs = min(r.Ended, d.Ended), max(r.LastEnded, d.LastEnded), d.Served, d.Logs
			return
		}
	}
	a.Restarts = append(a.Restarts, d)
}

// endingWatches are the watches a shutdown ended as its process stopped:
// of the sessions g for which of(g) holds, the watches that ended
// cleanly, before their deadlines, in a run of ends a second apart at
// most that reaches end (an audit log's last record), in order (global
// indices), and the first of those ends; end itself when there are none.
func (tl *Timeline) endingWatches(of func(g int) bool, end int64) (sessions []int, first int64) {
	var ends []int
	for g := range tl.Sessions {
		if s := &tl.Sessions[g]; of(g) && s.watchStream() && s.EndReason == EndEOF {
			ends = append(ends, g)
		}
	}
	sort.Slice(ends, func(x, y int) bool { return tl.Sessions[ends[x]].End > tl.Sessions[ends[y]].End })
	prev := end
	for _, g := range ends {
		s := &tl.Sessions[g]
		if prev-s.End > restartCluster {
			break
		}
		sessions = append(sessions, g)
		prev = s.End
	}
	sort.Ints(sessions)
	return sessions, prev
}

// addServerLogRestart adds the restart a server's own log shows: its old
// process ending its watches from SIGTERM on, its new process started.
// A restart found otherwise in that window is the same one: it gets the
// server's name, and keeps the instants its watches or audit logs show.
func (a *Analysis) addServerLogRestart(r ServerLogRestart) {
	for k := range a.Restarts {
		d := &a.Restarts[k]
		if d.Server == "" && d.Ended <= r.NewStart+restartCluster && d.LastEnded >= r.SIGTERM-restartCluster {
			d.Server, d.SIGTERM = r.Server, r.SIGTERM
			return
		}
	}
	a.Restarts = append(a.Restarts, DetectedRestart{Ended: r.SIGTERM, LastEnded: r.SIGTERM, Served: r.NewStart, Server: r.Server, SIGTERM: r.SIGTERM})
}

// ParseRestart reads a restart as the CLI and the page take it: an RFC
// 3339 instant, or a window FROM/TO (SIGTERM to the new process serving).
func ParseRestart(s string) (Restart, error) {
	from, to, window := strings.Cut(strings.TrimSpace(s), "/")
	f, err := time.Parse(time.RFC3339Nano, from)
	if err != nil {
		return Restart{}, fmt.Errorf("%q is not an RFC 3339 time or a window FROM/TO, such as 2026-11-30T00:58:00Z/2026-11-30T00:59:05Z", s)
	}
	fns, ok := parser.UnixNano(f)
	if !ok {
		return Restart{}, fmt.Errorf("%q is %s", from, parser.TimeRange)
	}
	r := Restart{From: fns, To: fns}
	if window {
		t, err := time.Parse(time.RFC3339Nano, to)
		if err != nil {
			return Restart{}, fmt.Errorf("%q: the window's end is not an RFC 3339 time", s)
		}
		if r.To, ok = parser.UnixNano(t); !ok {
			return Restart{}, fmt.Errorf("%q is %s", to, parser.TimeRange)
		}
		if r.To < r.From {
			return Restart{}, fmt.Errorf("%q: the window ends before it starts", s)
		}
	}
	return r, nil
}

// String is the form ParseRestart reads: the instant, or FROM/TO.
func (r Restart) String() string {
	f := time.Unix(0, r.From).UTC().Format(time.RFC3339Nano)
	if r.To == r.From {
		return f
	}
	return f + "/" + time.Unix(0, r.To).UTC().Format(time.RFC3339Nano)
}
