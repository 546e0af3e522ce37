package timeline

import (
	"math"
	"slices"
	"sort"
)

// Which server a reconnect reaches. client-go resumes over its open
// HTTP/2 connection unless that was closed (issue 22: in the lab no
// reused connection ever changed server), and keeps it from one watch to
// the next, so while a session of the client is open on a process that
// still takes new requests, or between two of its sessions on that
// process, a reconnect goes to that server and process; otherwise (the
// process shutting down or gone, the connection shut in an outage) the
// load balancer picks, and the server is not known.

// connStint is a span [from, to) during which the client's open
// connection says which server a reconnect reaches.
type connStint struct {
	from, to int64
	on       serverRef
	// all: every model's threshold is taken on on, not only those that
	// depend on the server: a verdict asked of one server's process
	// (onServer).
	all bool
}

// onServer is the stint of a verdict asked of the process on at any
// instant: per server (ResumeAtServers), or for the server that answered
// a resume (its prediction, the what-if of its gap).
func onServer(on serverRef) connStint { return connStint{math.MinInt64, never, on, true} }

// reachAt is the stint of the file's connection at instant t: the server
// a reconnect then reaches, as a verdict and the horizons take it (the
// zones take it over drops: dropStints).
func (a *Analysis) reachAt(file int, t int64) connStint { return stintAt(a.connStints(file), t) }

// connStints are the file's spans of known servers, in time order: each
// session's span, up to its process's last record or its closing, two
// of one server and process that follow each other merged, with the time
// between them: the client's next request reached the same process,
// over the connection it kept (client-go keeps it from one watch to the
// next), and that process took requests throughout, its closing ending
// a stint. Between them, a request that reached no server known (one
// that failed: the load balancer shut the connections in an outage), a
// session on another process, or an outage the records show (from audit
// logs, which hold no failed request) keeps them apart.
func (a *Analysis) connStints(file int) []connStint {
	tl := a.TL
	if len(tl.Servers) == 0 {
		return nil
	}
	var outages []Outage
	if !tl.Files[file].Loopback {
		outages = tl.Outages() // the servers' own informers bypass the balancer
	}
	var out []connStint
	apart := false // since the last stint ended, something kept the next apart
	for _, g := range tl.Files[file].Sessions {
		s := &tl.Sessions[g]
		n := len(out)
		if s.Server < 0 || s.Incarnation < 0 {
			apart = apart || n > 0 && s.Start >= out[n-1].to
			continue
		}
		to := min(s.End+1, tl.Servers[s.Server].Incarnations[s.Incarnation].closedFrom())
		if to <= s.Start {
			apart = apart || n > 0 && out[n-1].on != s.answeredBy()
			continue
		}
		st := connStint{from: s.Start, to: to, on: s.answeredBy()}
		if n > 0 && out[n-1].on == st.on && (out[n-1].to >= st.from || !apart && !outageIn(outages, out[n-1].to, st.from)) {
			out[n-1].to = max(out[n-1].to, st.to)
			apart = false
			continue
		}
		apart = false
		if n := len(out); n > 0 && out[n-1].to > st.from {
			out[n-1].to = st.from // a session opens while another ends
		}
		out = append(out, st)
	}
	return out
}

// outageIn says whether an outage of outages falls within [from, to).
func outageIn(outages []Outage, from, to int64) bool {
	return slices.ContainsFunc(outages, func(o Outage) bool { return o.From < to && o.To > from })
}

// dropStints are the file's stints over drop instants: a drop reaches a
// stint's server when its reconnect, d later, comes before the stint
// ends, as a verdict of the drop judges it (connStint.serverAt).
func (a *Analysis) dropStints(file int, d int64) []connStint {
	stints := a.connStints(file) // its own copy
	out := stints[:0]
	for _, st := range stints {
		if st.to -= d; st.to > st.from {
			out = append(out, st)
		}
	}
	return out
}

// stintAt is the stint holding instant t, with on anyServer and to the
// next stint's start (never after the last) when none does.
func stintAt(stints []connStint, t int64) connStint {
	k := sort.Search(len(stints), func(i int) bool { return stints[i].to > t })
	switch {
	case k == len(stints):
		return throughBalancer(t)
	case stints[k].from <= t:
		return stints[k]
	}
	return connStint{from: t, to: stints[k].from, on: anyServer}
}

// throughBalancer is the stint of reconnects from t on that no
// connection of the client carries: the load balancer picks.
func throughBalancer(t int64) connStint { return connStint{from: t, to: never, on: anyServer} }

// serverDependent says whether model m's threshold for a drop depends
// on the server its connection reaches: the servers' own 410s do, their
// metrics' refusals, and their restarts (a new process refuses what it
// never held); and every server's, which over a connection refuses
// where every server does but puts nothing at risk: no load balancer
// picks the server (threshold). A connection's stint ends where its
// process stops taking requests, before the drop a restart causes, whose
// reconnect the load balancer sends.
func serverDependent(m Model) bool {
	return m == ModelCalibration || m == ModelServerCache || m == ModelRestart || m == ModelEveryServer
}

// thresholdVia is threshold for a reconnect over the connection of
// stint st: on its server until the stint ends, on a server not known
// after.
func (a *Analysis) thresholdVia(m Model, file int, st connStint, rv uint64, since, before int64) (risk, refused int64, ok bool) {
	if st.on.server < 0 || !serverDependent(m) {
		return a.threshold(m, file, anyServer, rv, since, before)
	}
	r1, f1, ok1 := a.threshold(m, file, st.on, rv, since, before)
	if ok1 && f1 < st.to {
		return min(r1, f1), f1, true
	}
	r0, f0, ok0 := a.threshold(m, file, anyServer, rv, since, before)
	after := func(v int64) int64 {
		if v == never {
			return never
		}
		return max(v, st.to)
	}
	switch {
	case !ok1:
		return r0, f0, ok0
	case r1 < st.to:
		return r1, after(f0), true
	}
	return after(r0), after(f0), ok0
}

// serverAt is the server a reconnect over stint st's connection at
// instant t reaches, as model m's reason names it.
func (st connStint) serverAt(m Model, t int64) serverRef {
	if t < st.to && (st.all || serverDependent(m)) {
		return st.on
	}
	return anyServer
}
