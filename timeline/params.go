package timeline

import (
	"slices"
	"time"
)

// Restart is an API server restart: From is the SIGTERM (the old process
// stops taking new connections, and ends its open watches up to its
// shutdown timeout later), To the instant the new process serves. An
// instant restart has From == To.
type Restart struct {
	From, To int64
}

// Params are the window models' parameters.
type Params struct {
	// CacheWindow is the watch cache's guaranteed history (eventFreshDuration).
	CacheWindow time.Duration
	// CacheCount is the ring buffer's capacity in events; 0 disables the
	// count model. The default 102400 is the dynamic buffer's upper bound:
	// a cursor older than that many events of its type is surely gone.
	CacheCount int
	// EtcdInterval is --etcd-compaction-interval; 0 disables the model.
	EtcdInterval time.Duration
	// Restarts are API server restarts, in time order.
	Restarts []Restart
	// Servers is how many API servers stand behind the clients' load
	// balancer (1: a restart refuses every older cursor).
	Servers int
	// Delay is the reconnect delay: a cursor dropped at t resumes at t+Delay.
	// client-go re-watches at once after a clean close.
	Delay time.Duration
	// WatchCache false says the server ran with --watch-cache=false, so
	// every watch reads etcd (as Events always do).
	WatchCache bool
	// MinGap is the shortest stale stretch listed as a gap.
	MinGap time.Duration
	// Zone is where the analysis's sentences (the summary, the models'
	// reasons) write times, nil for UTC: the reader's choice, which
	// changes no verdict. The JSON report is written with UTC (a
	// contract, report/REPORT.md).
	Zone *time.Location
}

// DefaultParams returns the documented defaults.
func DefaultParams() Params {
	return Params{CacheWindow: 75 * time.Second, CacheCount: 102400, EtcdInterval: 5 * time.Minute,
		WatchCache: true, MinGap: time.Second, Servers: 1}
}

// instant writes an instant of a sentence in the reader's zone
// (Params.Zone).
func (a *Analysis) instant(t int64) string { return FormatInstant(t, a.Params.Zone) }

// instantFrom is the instant a stretch begins at, as a sentence says it:
// rounded up to the millisecond shown, so that the instant read lies
// within the stretch, and a reconnect asked for then gets its answer
// (CeilMillisecond).
func (a *Analysis) instantFrom(t int64) string { return a.instant(CeilMillisecond(t)) }

// ServerCount is Params.Servers, at least 1 (a zero Params means one server).
func (p Params) ServerCount() int { return max(p.Servers, 1) }

// ServerCount is how many API servers there are: as Params.Servers
// says, or as many as the audit logs, metrics or the servers' own logs
// show, when more.
func (a *Analysis) ServerCount() int {
	logs, logged := a.TL.ServerLogs, 0
	for k, l := range logs {
		// Counted at its first log; a handful of logs, so no map.
		if l.Server != "" && !slices.ContainsFunc(logs[:k], func(o ServerLog) bool { return o.Server == l.Server }) {
			logged++
		}
	}
	return max(a.Params.ServerCount(), len(a.TL.Servers), logged)
}

// restartAfter returns the first restart whose new process served after
// since: the one that a cursor last current at since did not survive.
func (p *Params) restartAfter(since int64) (Restart, bool) {
	for _, r := range p.Restarts {
		if r.To > since {
			return r, true
		}
	}
	return Restart{}, false
}
