package timeline

import "math"

// Retention window models: when does the API server answer a watch from
// resourceVersion r with 410 Gone? Sources are sections of
// docs/design/watch-protocol.md (§2 "How the server decides 410",
// §6 "Restarts and rolling upgrades").
//
// A model answers with two instants for a cursor value: from when a
// reconnect is at risk (the server may already refuse it, but nothing
// shows that it must) and from when it is refused (the evidence says the
// server must refuse it). Only "refused" makes a red zone and fails
// --fail-on 410; "at risk" is drawn and worded apart.
//
// A cursor's age in time runs from the last instant its value was known
// current (set by an event or bookmark, or re-confirmed by a bookmark at
// the same RV). The time-based models assume the cluster's revision moves
// right after that instant: the revision is cluster-wide and every write
// (node leases renew every 10 s) raises it, and a narrow watch cannot see
// it move. Only while a capture watched the whole resource type (an
// unfiltered request) does the watch-cache model know better: the cache
// evicts only changes of its own type, so there the cursor goes stale at
// the first change past it.
type Model uint8

const (
	// ModelCacheTime: the watch cache's ring buffer keeps at least
	// eventFreshDuration of history (75 s; from 1.33 max(75 s,
	// --request-timeout + 15 s)), and a watch from r is refused when
	// r < oldest_buffered - 1 (apiserver storage/cacher/watch_cache.go).
	// It keeps more while its capacity allows, so past W a reconnect is
	// at risk, not refused: how long the cache holds depends on the event
	// rate (ModelCacheCapacity).
	ModelCacheTime Model = iota
	// ModelCacheCount: the ring buffer holds at most N events of the
	// resource type (100 before 1.19; from 1.19 dynamic in [100, 102400]),
	// cluster-wide, so a cursor N changes of its type behind is refused.
	// The captures count at most the changes there were, so the instant
	// is never early.
	ModelCacheCount
	// ModelEtcd: uncached watches (core/v1 and events.k8s.io Events, or any
	// resource with --watch-cache=false) read etcd, which keeps 5 to 10 min:
	// each compaction run (--etcd-compaction-interval, default 5 min)
	// compacts to the revision recorded at the previous run. At risk from
	// one interval (the worst phase), refused from two (any phase).
	ModelEtcd
	// ModelRestart: an API server restart is a window, from SIGTERM to the
	// new process serving. With one server the new process's cache starts
	// at its fresh LIST RV: a cursor last current before the new process
	// served is refused from the window's start (a reconnect then waits
	// for the new process). With several behind a load balancer, the
	// restarted server's clients move to one whose cache kept its history,
	// and the restart alone refuses nothing: a reconnect that lands on the
	// new process later is at risk.
	ModelRestart
	// ModelCalibration: an observed `too old resource version: X (Y)` is
	// ground truth: from that instant every RV below Y is refused (the
	// oldest buffered only moves forward).
	ModelCalibration
	// ModelCacheCapacity: the watch cache's dynamic ring buffer replayed
	// over the changes of a capture that watched the whole resource type
	// (see capacity.go): refused once the replayed buffer's oldest entry
	// is past the cursor.
	ModelCacheCapacity
	// ModelServerCache: the watch cache of the server that answered, as
	// its own metrics bound it (see cachewindow.go): refused below the
	// RV its cache surely no longer held, then or at an earlier instant
	// (its oldest entry only moves forward, see refusedEarlier), held
	// from the RV it surely still held; between, it decides nothing. Only for a reconnect whose
	// server is known and whose metrics were exported.
	ModelServerCache
	// ModelEveryServer: a reconnect whose server is not known goes to
	// one of the servers (see everyserver.go): refused once each one's
	// own evidence (ModelServerCache, ModelCalibration, ModelRestart, for
	// that server) refuses the cursor, at risk once one's does. Over a
	// client's connection, refused once each one's does, and never at
	// risk: no load balancer picks. Only where several servers are known
	// by name.
	ModelEveryServer
	numModels
)

var modelNames = [...]string{"watch-cache-time", "watch-cache-count", "etcd-compaction", "restart", "calibration", "watch-cache-capacity", "server-cache-metrics", "every-server"}

func (m Model) String() string { return modelNames[m] }

// never is the instant of what does not happen.
const never = int64(math.MaxInt64)

// applicable lists the models that apply to a file's resource type.
func (a *Analysis) applicable(file int) []Model {
	p := a.Params
	var ms []Model
	ms = append(ms, ModelCalibration)
	if a.uncached(file) {
		if p.EtcdInterval > 0 {
			ms = append(ms, ModelEtcd)
		}
		if a.everyServer() {
			ms = append(ms, ModelEveryServer)
		}
		return ms
	}
	if a.TL.serverMetrics() {
		ms = append(ms, ModelServerCache)
	}
	if len(p.Restarts) > 0 || a.TL.restarted() {
		ms = append(ms, ModelRestart)
	}
	if a.capacity[a.TL.Files[file].Kind] != nil {
		ms = append(ms, ModelCacheCapacity)
	}
	if p.CacheCount > 0 {
		ms = append(ms, ModelCacheCount)
	}
	if p.CacheWindow > 0 {
		ms = append(ms, ModelCacheTime)
	}
	if a.everyServer() {
		ms = append(ms, ModelEveryServer)
	}
	return ms
}

// uncached: the file's watches read etcd, not the watch cache.
func (a *Analysis) uncached(file int) bool {
	return !a.Params.WatchCache || isEventKind(a.TL.Files[file].Kind)
}

// isEventKind: Events are not served from the watch cache by default
// (kubeapiserver default_storage_factory_builder.go).
func isEventKind(kind string) bool { return kind == "Event" }

// threshold returns the first reconnect instants model m puts at risk and
// refuses for a cursor at rv last current at since, resuming on the
// server on (never when never);
// before is the bound on evidence (calibration uses only errors observed
// before it). ok is false when the model cannot tell (no clock).
func (a *Analysis) threshold(m Model, file int, on serverRef, rv uint64, since, before int64) (risk, refused int64, ok bool) {
	tl, p := a.TL, &a.Params // not a copy: this runs for every cursor step
	switch m {
	case ModelCacheTime:
		if tl.Files[file].Clock == ClockNone {
			return never, never, false
		}
		_, risk := a.staleFrom(file, rv, since)
		return risk, never, true
	case ModelEtcd:
		if tl.Files[file].Clock == ClockNone {
			return never, never, false
		}
		return since + int64(p.EtcdInterval), since + 2*int64(p.EtcdInterval), true
	case ModelRestart:
		if on.server >= 0 {
			k, _ := a.restartRefusing(on.server, tl.Files[file].Kind, rv)
			switch {
			case k == 0 || on.incarnation >= 0 && on.incarnation < k:
				return never, never, true
			case on.incarnation >= k:
				// The process that answered is known: it never held rv.
				return since, since, true
			}
			from := tl.Servers[on.server].Incarnations[k].From
			return from, from, true
		}
		if r, ok := p.restartAfter(since); ok {
			if a.ServerCount() == 1 {
				return r.From, r.From, true
			}
			return r.To, never, true
		}
	case ModelCalibration:
		refusing, risky := a.floorsOf(file, on.server)
		refused = refusing.refusedFrom(rv, before)
		return min(risky.refusedFrom(rv, before), refused), refused, true
	case ModelCacheCapacity:
		if c, hint, steps := a.capacityOf(file); c != nil {
			if t := c.refusedFrom(rv, hint, steps); t != never {
				if a.ServerCount() > 1 || c.contradicted != "" {
					// Each server's cache grew with its own history
					// (they start at different times): one replay cannot
					// refuse for all of them.
					return t, never, true
				}
				return t, t, true
			}
		}
	case ModelServerCache:
		// On a known server, from the first instant its metrics refused
		// the cursor: its cache's oldest change only moves forward. A
		// verdict at an instant decides it there (outcomes); on a server
		// not known, ModelEveryServer asks each.
		if on.server >= 0 {
			from := a.cacheRefusalsOf(file, on.server).refusedFrom(rv)
			return from, from, true
		}
		return never, never, true
	case ModelEveryServer:
		risk, refused := a.everyServerThreshold(file, rv, since, before)
		if on.server >= 0 {
			// Over a client's connection no load balancer picks: another
			// server's refusal puts it at risk no more, and every
			// server's refuses it, the connection's among them.
			return refused, refused, true
		}
		return risk, refused, true
	case ModelCacheCount:
		s, hint, _, times := a.seriesOf(file)
		if s == nil {
			break
		}
		// Buffer at τ holds the last N changes seen up to τ; refused when
		// its oldest RV exceeds rv+1, i.e. from the (j+N)th change on,
		// j being the first change above rv+1.
		j := hint.firstAbove(&s.maxRV, rv)
		if k := j + p.CacheCount - 1; k < s.len() {
			t := times.at(s, k)
			return t, t, true
		}
	}
	return never, never, true
}

// notBefore bounds from below, when ok, the instants model m's threshold
// returns for a cursor last current at since, whatever its value: the
// time model's cursor is stale at since at the earliest, and etcd's
// compaction puts it at risk one interval after it. A cursor pass needs
// no threshold whose instants are past a step's drops.
func (a *Analysis) notBefore(m Model, since int64) (first int64, ok bool) {
	switch m {
	case ModelCacheTime:
		return since + int64(a.Params.CacheWindow), true
	case ModelEtcd:
		return since + int64(a.Params.EtcdInterval), true
	}
	return 0, false
}

// staleFrom is when the cursor became stale for the watch cache, and
// from when the cache may no longer hold it (see kindSeries.staleFrom).
func (a *Analysis) staleFrom(file int, rv uint64, since int64) (stale, risk int64) {
	window := int64(a.Params.CacheWindow)
	if s, hint, times, _ := a.seriesOf(file); s != nil {
		return s.staleFrom(rv, since, window, hint, times)
	}
	return since, since + window
}

// modelOutcome is one model's answer for a cursor at a reconnect, before
// it is put in words (judge does that).
type modelOutcome struct {
	model         Model
	outcome       Outcome
	risk, refused int64
	// on is the server it was judged on.
	on serverRef
	// held: the evidence says the server held the cursor (its metrics),
	// which the estimates that put it at risk cannot gainsay.
	held bool
}

// outcomes applies every applicable model to a cursor value at a
// reconnect at at over the connection of stint st: each model is judged
// on the server st says it reaches (serverAt); calibration uses the
// errors observed before the instant before.
func (a *Analysis) outcomes(file int, st connStint, rv uint64, since, at, before int64) []modelOutcome {
	models := a.applicable(file)
	out := make([]modelOutcome, 0, len(models))
	for _, m := range models {
		if m == ModelEveryServer && st.all {
			continue // a verdict asked of one server takes its own evidence
		}
		on := st.serverAt(m, at)
		if m == ModelServerCache {
			b := a.serverCache(file, on, at)
			switch {
			case b.refuses(rv):
				out = append(out, modelOutcome{model: m, outcome: Refused, risk: at, refused: at, on: on})
			case on.server >= 0:
				if from, ok := a.refusedEarlier(file, on.server, rv, at); ok {
					out = append(out, modelOutcome{model: m, outcome: Refused, risk: from, refused: from, on: on})
					break
				}
				// A verdict asked of the server holds where its metrics
				// do; one over a client's connection, as the zones take
				// it, where they do and no evidence of its own refused
				// the cursor before (holds).
				held := b.held && rv >= b.heldFrom
				if !st.all {
					held = a.holds(file, on.server, rv, since, at)
				}
				out = append(out, modelOutcome{model: m, outcome: Accepted, risk: never, refused: never, on: on, held: held})
			default:
				out = append(out, modelOutcome{model: m, outcome: Accepted, risk: never, refused: never, on: on, held: a.holds(file, on.server, rv, since, at)})
			}
			continue
		}
		risk, refused, ok := a.threshold(m, file, on, rv, since, before)
		o := Accepted
		switch {
		case !ok:
			o = Unknown
		case at >= refused:
			o = Refused
		case at >= risk:
			o = AtRisk
		}
		out = append(out, modelOutcome{model: m, outcome: o, risk: risk, refused: refused, on: on})
	}
	return out
}
