package timeline

import (
	"fmt"
	"math"
	"slices"
	"time"

	"watchlens/parser"
)

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
	// RV its cache surely no longer held, held from the RV it surely
	// still held; between, it decides nothing. Only for a reconnect whose
	// server is known and whose metrics were exported.
	ModelServerCache
	numModels
)

var modelNames = [...]string{"watch-cache-time", "watch-cache-count", "etcd-compaction", "restart", "calibration", "watch-cache-capacity", "server-cache-metrics"}

func (m Model) String() string { return modelNames[m] }

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

// Outcome is a model's answer for one reconnect.
type Outcome uint8

const (
	Accepted Outcome = iota
	Refused
	Unknown
	// AtRisk: past what the server is sure to keep, and nothing shows it
	// must refuse.
	AtRisk
)

var outcomeNames = [...]string{"accepted", "refused", "unknown", "at-risk"}

func (o Outcome) String() string { return outcomeNames[o] }

// MarshalText writes the outcome as its name, the form the report's JSON
// contract gives it ("accepted", "refused", "unknown", "at-risk").
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome from its name, so a report's JSON reads
// back.
func (o *Outcome) UnmarshalText(b []byte) error {
	for k, name := range outcomeNames {
		if string(b) == name {
			*o = Outcome(k)
			return nil
		}
	}
	return fmt.Errorf("unknown outcome %q", b)
}

// never is the instant of what does not happen.
const never = int64(math.MaxInt64)

// ModelVerdict is one model's answer.
type ModelVerdict struct {
	Model   Model
	Outcome Outcome
	// RiskFrom and From are the earliest reconnect instants this model
	// puts at risk and refuses for this cursor value (never when never).
	RiskFrom, From int64
	Reason         string
}

// Verdict answers: had the client's connection dropped at T and resumed
// at T+Delay from its cursor, would the server have answered 410?
type Verdict struct {
	File      int
	Kind      CursorKind
	T         int64
	At        int64 // the reconnect instant, T + Delay
	HasCursor bool
	RV        uint64
	Since     int64 // the instant the cursor was last known current
	Outcome   Outcome
	Reason    string // of the first refusing model, or why at risk, accepted or unknown
	Models    []ModelVerdict
}

// Analysis is the timeline under one set of parameters.
type Analysis struct {
	TL     *Timeline
	Params Params
	pass   *passState // set during a cursor pass
	pace   pacer      // pauses the cursor passes (see Builder.Pause)
	// end is the last instant the zones and horizons reach: the shared
	// clock's end, past the end of a file that stopped earlier.
	end int64
	// capacity replays the watch cache per kind (nil: no capture of the
	// whole type); headOf is the head of each kind as the watch cache of
	// that kind knew it (see counterfactual.go).
	capacity map[string]*cacheReplay
	headOf   map[string]*kindHead
	// resources are the metrics' resource of each kind of the files,
	// when servers' metrics were exported.
	resources map[string]string
	// observed are the servers' own answers to watches from an RV, per
	// kind and server (see observeServers).
	observed map[floorKey][]cacheObservation
	// changes are each kind's changes in RV order (see changesOf).
	changes map[string]*changeIndex
	// Zones are the red zones: per cursor and model, the instants at which
	// a drop-and-resume (after Params.Delay) would have got 410.
	Zones []Zone
	// RiskZones are the stretches where such a resume is at risk and not
	// refused: past what the server is sure to keep.
	RiskZones []Zone
	// Gaps are the longest stretches (at most MaxGapsKept, longest first)
	// where a cursor stood still while the head moved past it, at least
	// Params.MinGap long; GapCount counts them all. Ten thousand split
	// clients make millions, and a report lists twenty.
	Gaps     []Gap
	GapCount int
	gaps     gapKeeper
	// Ages are per cursor: TL.Cursors' order, then HadBookmarks' (one
	// per file with a counterfactual).
	Ages    []CursorAge
	Resumes []Resume
	WhatIf  WhatIf
	// HadBookmarks is, per file, the cursor the client would have had had
	// it asked for bookmarks (see counterfactual.go).
	HadBookmarks []Counterfactual
	// Horizons are, per drop (each watch's end) and cursor, the earliest
	// reconnect instants at risk and refused.
	Horizons []Horizon
	// Restarts are the restarts the captures suggest (never applied
	// unless the user gives them as Params.Restarts).
	Restarts []DetectedRestart
	// fleet is Fleet's answer, once built.
	fleet      *Fleet
	fleetBuilt bool
}

// Zone is an interval [From, To) of drop instants refused (or, in
// RiskZones, put at risk) by one model.
type Zone struct {
	File         int
	Kind         CursorKind
	Model        Model
	From, To     int64
	FromRV, ToRV uint64
	Reason       string
}

// Gap is an interval where a cursor stood still while the head moved.
type Gap struct {
	File     int
	Kind     CursorKind
	From, To int64
	RV       uint64
	HeadRV   uint64 // head at To
	AgeTime  int64  // To minus the instant the cursor was last current
	AgeRV    uint64 // HeadRV - RV
}

// CursorAge is a cursor's final value and longest age.
type CursorAge struct {
	File       int
	Kind       CursorKind
	Final      uint64
	HasFinal   bool
	MaxAge     int64 // longest time the cursor went unconfirmed, ns
	MaxAgeAt   int64 // instant at which that age was reached
	MaxAgeRV   uint64
	MaxRVAge   uint64 // largest head - cursor
	MaxRVAgeAt int64
}

// Resume is an observed resume (a session that asked for the RV the
// client's cursor held) checked against the models.
type Resume struct {
	Session   int
	RV        string
	Observed  Outcome // Refused when the server answered 410
	Predicted Verdict
}

// WhatIf counts, for the capture as recorded, the reconnects whose cursor
// would have needed a relist, with and without bookmarks, and had the
// client asked for them.
type WhatIf struct {
	Reconnects                  int
	RelistsWith                 int // bookmark-aware cursor refused
	RelistsWithout              int // bookmark-ignoring cursor refused
	RelistsHad                  int // had-bookmarks cursor refused
	LongestAgeWith              int64
	LongestAgeWithout           int64
	LongestAgeHad               int64
	Saved                       int
	SavedPercent                float64
	Points                      []ReconnectPoint
	UnknownWith, UnknownWithout int
	UnknownHad                  int
	AtRiskWith, AtRiskWithout   int
	AtRiskHad                   int
}

// ReconnectPoint is one reconnect of the what-if.
type ReconnectPoint struct {
	Session            int // the session that ended
	At                 int64
	With, Without, Had Verdict
}

// applicable lists the models that apply to a file's resource type.
func (a *Analysis) applicable(file int) []Model {
	p := a.Params
	var ms []Model
	ms = append(ms, ModelCalibration)
	if a.uncached(file) {
		if p.EtcdInterval > 0 {
			ms = append(ms, ModelEtcd)
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
	timed := tl.Files[file].Clock != ClockNone
	switch m {
	case ModelCacheTime:
		if !timed {
			return never, never, false
		}
		return a.staleFrom(file, rv, since) + int64(p.CacheWindow), never, true
	case ModelEtcd:
		if !timed {
			return never, never, false
		}
		return since + int64(p.EtcdInterval), since + 2*int64(p.EtcdInterval), true
	case ModelRestart:
		if on.server >= 0 {
			k, _ := tl.restartRefusing(on.server, rv)
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
		if c := a.capacity[tl.Files[file].Kind]; c != nil {
			_, hint := a.seriesOf(file)
			if t := c.refusedFrom(rv, hint, a.replayHintOf(file)); t != never {
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
		// Decided at the reconnect's instant (outcomes), not as a
		// threshold: the bounds do not move with the cursor's age.
		return never, never, true
	case ModelCacheCount:
		s, hint := a.seriesOf(file)
		if s == nil {
			break
		}
		// Buffer at τ holds the last N changes seen up to τ; refused when
		// its oldest RV exceeds rv+1, i.e. from the (j+N)th change on,
		// j being the first change above rv+1.
		j := hint.firstAbove(&s.maxRV, rv)
		if k := j + p.CacheCount - 1; k < s.len() {
			return s.t(k), s.t(k), true
		}
	}
	return never, never, true
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

// passState caches, for the walk over one cursor's steps, its kind's
// series and calibration floors for a reconnect to a server not known
// (map lookups by kind otherwise made at every step), and where the last
// search landed.
type passState struct {
	file                     int
	series                   *kindSeries
	refuseFloors, riskFloors *floorSteps
	hint                     searchHint
	replay                   replayHint
}

// floorsOf returns the calibration floors of the file's kind that refuse
// a reconnect to server (-1: not known) and those that only put it at
// risk (see Timeline.calibrationFloors).
func (a *Analysis) floorsOf(file, server int) (refuse, risk *floorSteps) {
	if a.pass != nil && a.pass.file == file && server < 0 {
		return a.pass.refuseFloors, a.pass.riskFloors
	}
	return a.TL.calibrationFloors(a.TL.Files[file].Kind, server)
}

// seriesOf returns the change series of the file's kind, and a search
// hint when inside a cursor pass.
func (a *Analysis) seriesOf(file int) (*kindSeries, *searchHint) {
	if a.pass != nil && a.pass.file == file {
		return a.pass.series, &a.pass.hint
	}
	return a.TL.series[a.TL.Files[file].Kind], nil
}

// replayHintOf returns the search hint over the replayed cache's steps
// inside a cursor pass, else nil.
func (a *Analysis) replayHintOf(file int) *replayHint {
	if a.pass != nil && a.pass.file == file {
		return &a.pass.replay
	}
	return nil
}

// searchHint speeds up the count model's search over a cursor's steps:
// cursor values mostly rise, and then the answer can only move forward.
type searchHint struct {
	rv  uint64
	ans int // the previous answer: no change below it is above rv+1, for any rv >= this rv
}

// firstAbove returns the first change whose largest RV so far (maxRV) is
// above rv+1, the change from which a buffer of the changes up to it no
// longer holds rv+1; with a hint, it gallops forward from the previous
// answer when rv did not go down.
func (h *searchHint) firstAbove(maxRV *packed[uint64], rv uint64) int {
	start := -1
	if h != nil && rv >= h.rv {
		start = h.ans
	}
	k := gallopAbove(maxRV, start, rv+1)
	if h != nil {
		h.rv, h.ans = rv, k
	}
	return k
}

// gallopAbove returns the first index k of p, a column whose values do
// not fall, with p.at(k) > v, or p's length. From start >= 0, known to be
// at or before the answer, it gallops forward first: a cursor's searches
// mostly move forward by a little. It calls no predicate: as wasm, calls
// through a closure were a third of the searches' time.
func gallopAbove[T integer](p *packed[T], start int, v T) int {
	n := p.len()
	lo, hi := 0, n
	if start >= 0 && start <= n {
		lo, hi = start, start
		if lo < n && p.at(lo) <= v {
			step := 1
			for lo+step < n && p.at(lo+step) <= v {
				lo += step
				step *= 2
			}
			lo, hi = lo+1, min(lo+step, n)
		}
	}
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); p.at(m) > v {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// staleFrom is when the cursor became stale for the watch cache (see
// kindSeries.staleFrom).
func (a *Analysis) staleFrom(file int, rv uint64, since int64) int64 {
	if s, hint := a.seriesOf(file); s != nil {
		return s.staleFrom(rv, since, hint)
	}
	return since
}

// reason explains a model's verdict in words, with the numbers.
func (a *Analysis) reason(m Model, o Outcome, file int, on serverRef, rv uint64, since, at int64) string {
	p := a.Params
	age := FormatDuration(at - since)
	if o == Unknown {
		return m.String() + ": the capture has no clock"
	}
	switch m {
	case ModelCacheTime:
		stale := a.staleFrom(file, rv, since)
		what := fmt.Sprintf("last current %s before", age)
		switch {
		case stale > at:
			what = "last current " + age + " before and not yet stale (a watch of the whole type saw no change past it) at"
		case stale > since:
			what = fmt.Sprintf("last current %s and stale for %s (a watch of the whole type saw no change past it until then) before", age, FormatDuration(at-stale))
		}
		if o == Accepted {
			return fmt.Sprintf("watch cache (time): cursor %d %s the reconnect, less than the %s of history the cache is sure to keep", rv, what, p.CacheWindow)
		}
		return fmt.Sprintf("watch cache (time): cursor %d %s the reconnect, past the %s of history the cache is sure to keep; it keeps more while its capacity allows, so the server may or may not still have it", rv, what, p.CacheWindow)
	case ModelEtcd:
		switch o {
		case Accepted:
			return fmt.Sprintf("etcd: cursor %d last current %s before, less than the %s compaction interval", rv, age, p.EtcdInterval)
		case AtRisk:
			return fmt.Sprintf("etcd compaction: cursor %d last current %s before the reconnect, not less than the %s compaction interval (compacted at the worst phase)", rv, age, p.EtcdInterval)
		}
		return fmt.Sprintf("etcd compaction: cursor %d last current %s before the reconnect, at least twice the %s compaction interval (compacted at any phase)", rv, age, p.EtcdInterval)
	case ModelRestart:
		if on.server >= 0 {
			return a.TL.restartReason(on.server, rv, a.Params.Zone)
		}
		r, ok := p.restartAfter(since)
		if !ok || o == Accepted {
			return "restart: no restart after the cursor was last current"
		}
		if o == AtRisk {
			return fmt.Sprintf("API server restart (new process serving at %s): cursor %d was last current before it; with %d servers a reconnect that lands on the restarted one is refused, one that lands on another is not", a.instant(r.To), rv, a.ServerCount())
		}
		return fmt.Sprintf("API server restart from %s (the only server; new process serving at %s): its cache starts at its fresh LIST RV, and cursor %d was last current before it", a.instant(r.From), a.instant(r.To), rv)
	case ModelCalibration:
		if o == Accepted {
			if len(a.TL.Servers) > 1 && on.server >= 0 {
				return fmt.Sprintf("calibration: no too-old error observed from server %s refuses it", a.TL.Servers[on.server].Name)
			}
			return "calibration: no observed too-old error refuses it"
		}
		return a.calibrationReason(o, file, on.server, rv)
	case ModelServerCache:
		return a.serverCacheReason(file, on, rv, at)
	case ModelCacheCapacity:
		c := a.capacity[a.TL.Files[file].Kind]
		if o == Accepted || c == nil {
			return "watch cache (capacity): the replayed cache still holds it"
		}
		if o == AtRisk {
			if c.contradicted != "" {
				return c.reason(rv, a.Params.Zone) + "; but " + c.contradicted + ", so it may still hold this one"
			}
			if a.ServerCount() > 1 {
				return c.reason(rv, a.Params.Zone) + fmt.Sprintf("; with %d servers, each cache grew with its own history, so another may still hold it", a.ServerCount())
			}
		}
		// With one server the replay refuses from the instant it puts at
		// risk (a horizon's risk reason is asked at that instant).
		return c.reason(rv, a.Params.Zone)
	case ModelCacheCount:
		if o == Accepted {
			return fmt.Sprintf("watch cache (count): fewer than %d changes of %s after it", p.CacheCount, a.TL.Files[file].Kind)
		}
		s := fmt.Sprintf("watch cache (count): more than %d changes of %s after RV %d, so the buffer's oldest entry is past it", p.CacheCount, a.TL.Files[file].Kind, rv+1)
		if sr := a.TL.series[a.TL.Files[file].Kind]; sr != nil && !sr.exact {
			s += " (approximate: the captures do not see the whole resource type, so they undercount)"
		}
		return s
	}
	return m.String()
}

// modelOutcome is one model's answer for a cursor at a reconnect, before
// it is put in words (judge does that).
type modelOutcome struct {
	model         Model
	outcome       Outcome
	risk, refused int64
	// held: the evidence says the server held the cursor (its metrics),
	// which the estimates that put it at risk cannot gainsay.
	held bool
}

// outcomes applies every applicable model to a cursor value at a
// reconnect to the server on; calibration uses the errors
// observed before the instant before.
func (a *Analysis) outcomes(file int, on serverRef, rv uint64, since, at, before int64) []modelOutcome {
	var out []modelOutcome
	for _, m := range a.applicable(file) {
		if m == ModelServerCache {
			b := a.serverCache(file, on, at)
			switch {
			case b.refusedBelow > 0 && rv < b.refusedBelow:
				out = append(out, modelOutcome{model: m, outcome: Refused, risk: at, refused: at})
			default:
				out = append(out, modelOutcome{model: m, outcome: Accepted, risk: never, refused: never, held: b.held && rv >= b.heldFrom})
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
		out = append(out, modelOutcome{model: m, outcome: o, risk: risk, refused: refused})
	}
	return out
}

// overall is a verdict's outcome from its models': refused when any
// refuses, else accepted when the server's metrics say it held the
// cursor, else at risk when any puts it at risk, else unknown when a
// model could not tell, else accepted.
func overall(ms []modelOutcome) Outcome {
	out, unknown, held := Accepted, false, false
	for _, m := range ms {
		switch m.outcome {
		case Refused:
			return Refused
		case AtRisk:
			out = AtRisk
		case Unknown:
			unknown = true
		}
		held = held || m.held
	}
	if held {
		return Accepted
	}
	if out == Accepted && unknown {
		return Unknown
	}
	return out
}

// judge is outcomes and overall, in words: each model's reason, and the
// verdict's (the first refusing model's, else the first putting it at
// risk, else the time window's).
func (a *Analysis) judge(file int, on serverRef, rv uint64, since, at, before int64) (Outcome, string, []ModelVerdict) {
	mos := a.outcomes(file, on, rv, since, at, before)
	out, why := overall(mos), ""
	ms := make([]ModelVerdict, 0, len(mos))
	for _, mo := range mos {
		r := a.reason(mo.model, mo.outcome, file, on, rv, since, at)
		ms = append(ms, ModelVerdict{Model: mo.model, Outcome: mo.outcome, RiskFrom: mo.risk, From: mo.refused, Reason: r})
		if why == "" && mo.outcome == out && (out == Refused || out == AtRisk) {
			why = r
		}
	}
	switch out {
	case AtRisk:
		// Where the server is known, say what its metrics left open.
		for _, m := range ms {
			if m.Model == ModelServerCache && m.Reason != why {
				why += "; " + m.Reason
			}
		}
	case Unknown:
		why = "no model could decide: the capture has no clock"
	case Accepted:
		why = "no model refuses it"
		for k, m := range ms {
			if mos[k].held {
				why = m.Reason
				break
			}
			if m.Model == ModelCacheTime || m.Model == ModelEtcd {
				why = m.Reason
			}
		}
	}
	return out, why, ms
}

// cursor returns cursor kind of file: one of TL.Cursors, or the
// counterfactual.
func (a *Analysis) cursor(file int, kind CursorKind) *Cursor {
	if kind == HadBookmarks {
		return &a.HadBookmarks[file].Cursor
	}
	return &a.TL.Cursors[2*file+int(kind)]
}

// Verdict answers for cursor (file, kind) dropped at t and resumed at
// t+delay.
func (a *Analysis) Verdict(file int, kind CursorKind, t int64, delay time.Duration) Verdict {
	v := Verdict{File: file, Kind: kind, T: t, At: t + int64(delay)}
	rv, since, _, ok := a.cursor(file, kind).At(t)
	return a.verdictFor(v, anyServer, rv, since, ok, v.At+1)
}

// verdictFor judges the cursor value rv, last current at since, for a
// reconnect to the server on.
func (a *Analysis) verdictFor(v Verdict, on serverRef, rv uint64, since int64, ok bool, before int64) Verdict {
	if !ok {
		v.Outcome, v.Reason = Unknown, "no cursor: the watch started without a resourceVersion and has seen nothing yet"
		return v
	}
	if rv == unknownRV {
		v.Since = since
		v.Outcome, v.Reason = Unknown, a.HadBookmarks[v.File].unknownReason(a, since)
		return v
	}
	v.HasCursor, v.RV, v.Since = true, rv, since
	v.Outcome, v.Reason, v.Models = a.judge(v.File, on, rv, since, v.At, before)
	return v
}

// pauseEvery is how many items (events, steps) building or analysing
// walks between calls of Builder.Pause: a few milliseconds' work, even as
// wasm.
const pauseEvery = 1 << 13

// Analyze applies the window models with parameters p, pausing as the
// Builder's Pause says.
func (tl *Timeline) Analyze(p Params) *Analysis {
	a := &Analysis{TL: tl, Params: p, pace: pacer{pause: tl.pause}}
	a.end = tl.End()
	if tl.serverMetrics() {
		a.resources = map[string]string{}
		for _, f := range tl.Files {
			if _, ok := a.resources[f.Kind]; !ok {
				a.resources[f.Kind] = tl.resourceOfKind(f.Kind)
			}
		}
		a.observeServers()
	}
	a.replayCaches()
	a.buildHadBookmarks()
	for k := range tl.Cursors {
		a.cursorPass(&tl.Cursors[k])
	}
	for f := range a.HadBookmarks {
		if hb := &a.HadBookmarks[f]; hb.Synthetic {
			a.cursorPass(&hb.Cursor)
		}
	}
	a.Gaps, a.GapCount = a.gaps.longest()
	a.resumes()
	a.whatIf()
	a.horizons()
	a.detectRestarts()
	return a
}

// zoneSink grows the zones of one cursor pass, one open zone per model.
type zoneSink struct {
	zones *[]Zone
	open  [numModels]int // index in *zones of the zone still growing, or -1
}

func newZoneSink(zones *[]Zone) *zoneSink {
	z := &zoneSink{zones: zones}
	z.close()
	return z
}

func (z *zoneSink) close() {
	for i := range z.open {
		z.open[i] = -1
	}
}

// add extends model m's open zone when [from, to) continues it, else
// opens a new one (reason is called only then).
func (z *zoneSink) add(c *Cursor, m Model, from, to int64, rv uint64, reason func() string) {
	if k := z.open[m]; k >= 0 && (*z.zones)[k].To == from {
		(*z.zones)[k].To, (*z.zones)[k].ToRV = to, rv
		return
	}
	*z.zones = append(*z.zones, Zone{File: c.File, Kind: c.Kind, Model: m, From: from, To: to, FromRV: rv, ToRV: rv, Reason: reason()})
	z.open[m] = len(*z.zones) - 1
}

// cursorPass derives zones, gaps and ages of one cursor in one walk over
// its steps. The zones run on past the cursor's file to the shared
// clock's end (a reconnect after the capture stopped is still a
// question); ages and gaps stop with the file.
func (a *Analysis) cursorPass(c *Cursor) {
	tl, p := a.TL, a.Params
	d := int64(p.Delay)
	age := CursorAge{File: c.File, Kind: c.Kind}
	models := a.applicable(c.File)
	refused, risky := newZoneSink(&a.Zones), newZoneSink(&a.RiskZones)
	kind := tl.Files[c.File].Kind
	a.pass = &passState{file: c.File, series: tl.series[kind]}
	a.pass.refuseFloors, a.pass.riskFloors = tl.calibrationFloors(kind, -1)
	defer func() { a.pass = nil }()
	// The servers its connection says a reconnect reaches, and, per
	// model, the one of its zone still growing.
	stints := a.connStints(c.File)
	var lastOn [numModels]serverRef
	for m := range lastOn {
		lastOn[m] = anyServer
	}
	zoneEnd := c.End
	if tl.Files[c.File].Clock != ClockNone {
		zoneEnd = max(c.End, a.end)
	}
	// The head step in force at the current step's end (steps are in time
	// order), its value, and the next step's instant.
	head := &tl.head
	hk, h := -1, uint64(0)
	hnext := int64(math.MaxInt64)
	if head.Len() > 0 {
		hnext = head.T(0)
	}
	n := c.Len()
	var next int64 // step k, decoded as step k-1's end
	var nextRV uint64
	if n > 0 {
		next, nextRV = c.Step(0)
	}
	for k := 0; k < n; k++ {
		a.pace.tick(1)
		from, rv := next, nextRV
		to, zto := c.End, zoneEnd
		if k+1 < n {
			next, nextRV = c.Step(k + 1)
			to, zto = next, next
		}
		if rv == unsetRV || rv == unknownRV {
			age.HasFinal = false
			refused.close()
			risky.close()
			continue
		}
		age.Final, age.HasFinal = rv, true
		if to-from > age.MaxAge {
			age.MaxAge, age.MaxAgeAt, age.MaxAgeRV = to-from, to, rv
		}
		if hnext <= to-1 {
			// The last head step before to, galloping from the one in
			// force: a cursor with few steps over a long capture (a
			// virtual client's) must not walk every head step between.
			hk = head.SearchT(hk+1, head.Len(), to) - 1
			_, h = head.Step(hk)
			hnext = math.MaxInt64
			if hk+1 < head.Len() {
				hnext = head.T(hk + 1)
			}
		}
		if hk >= 0 && h > rv {
			if h-rv > age.MaxRVAge {
				age.MaxRVAge, age.MaxRVAgeAt = h-rv, to
			}
			if passed, ok := tl.HeadPassed(rv); ok && passed < to {
				if gs := max(passed, from); to-gs >= int64(p.MinGap) {
					a.gaps.add(Gap{File: c.File, Kind: c.Kind, From: gs, To: to, RV: rv, HeadRV: h, AgeTime: to - from, AgeRV: h - rv})
				}
			}
		}
		for _, m := range models {
			if !serverDependent(m) || len(stints) == 0 {
				a.zoneSpan(refused, risky, c, m, anyServer, rv, from, from, zto, d)
				continue
			}
			// A reconnect from a drop in each stint reaches its server.
			for t := from; t < zto; {
				st := stintAt(stints, t)
				end := min(st.to, zto)
				if st.on != lastOn[m] {
					refused.open[m], risky.open[m], lastOn[m] = -1, -1, st.on
				}
				a.zoneSpan(refused, risky, c, m, st.on, rv, from, t, end, d)
				t = end
			}
		}
	}
	a.Ages = append(a.Ages, age)
}

// zoneSpan adds model m's zones of a cursor at rv, last current at
// since, for drops in [lo, hi) whose reconnects, d later, reach the
// server on.
func (a *Analysis) zoneSpan(refused, risky *zoneSink, c *Cursor, m Model, on serverRef, rv uint64, since, lo, hi, d int64) {
	risk, ref, ok := a.threshold(m, c.File, on, rv, since, math.MaxInt64)
	if !ok {
		refused.open[m], risky.open[m] = -1, -1
		return
	}
	// Refused from zs on, at risk from rs until then.
	zs, rs := hi, hi
	if ref != never {
		zs = max(lo, ref-d)
	}
	if risk != never {
		rs = max(lo, risk-d)
	}
	if zs >= hi {
		refused.open[m] = -1
	} else {
		refused.add(c, m, zs, hi, rv, func() string { return a.reason(m, Refused, c.File, on, rv, since, zs+d) })
	}
	if re := min(zs, hi); rs >= re {
		risky.open[m] = -1
	} else {
		risky.add(c, m, rs, re, rv, func() string { return a.reason(m, AtRisk, c.File, on, rv, since, rs+d) })
	}
}

// resumes checks each observed resume: a session that asked for exactly
// the RV the client's (bookmark-aware) cursor held just before it.
func (a *Analysis) resumes() {
	tl := a.TL
	for g, s := range tl.Sessions {
		// A WatchList is never refused as too old: NotOlderThan takes any
		// newer state.
		if s.Request == nil || !s.Request.Watch || s.IsWatchList() || s.Unanswered() || s.Request.ResourceVersion == "" || s.Request.ResourceVersion == "0" {
			continue
		}
		c := &tl.Cursors[2*s.File]
		rv, since, _, ok := c.At(s.Start - 1)
		if !ok || FormatRV(rv) != s.Request.ResourceVersion {
			continue
		}
		r := Resume{Session: g, RV: s.Request.ResourceVersion, Observed: Accepted}
		if gone(s.Error) || (s.HTTPStatus == 410) {
			r.Observed = Refused
		} else if s.HTTPStatus != 0 && s.HTTPStatus != 200 {
			r.Observed = Unknown
		}
		// Strictly before: the session's own answer is what is being
		// predicted, for the server that gave it.
		r.Predicted = a.verdictFor(Verdict{File: s.File, Kind: BookmarkAware, T: s.Start, At: s.Start}, s.answeredBy(), rv, since, true, s.Start)
		a.Resumes = append(a.Resumes, r)
	}
}

func gone(st *parser.Status) bool {
	return st != nil && (st.Code == 410 || st.Reason == "Expired" || st.Reason == "Gone")
}

// whatIf evaluates every reconnect of the capture as recorded: the end of
// each watch stream that ended without a 410 (a 410 is itself the
// relist's cause, counted at the reconnect that drew it) and that another
// session of the same file followed, resuming at its start. The end of a
// capture is no reconnect: what one after it would get is its horizon.
func (a *Analysis) whatIf() {
	tl := a.TL
	w := &a.WhatIf
	for fi, f := range tl.Files {
		for k, g := range f.Sessions {
			s := tl.Sessions[g]
			if gone(s.Error) || !s.watchStream() || tl.unsynced(&s) {
				continue
			}
			// Attempts that reached no server are the same reconnect,
			// retried: it happens when one is answered, and is judged for
			// the server that answered it.
			next := k + 1
			for next < len(f.Sessions) && tl.Sessions[f.Sessions[next]].Unanswered() {
				next++
			}
			if next == len(f.Sessions) {
				continue
			}
			answer := &tl.Sessions[f.Sessions[next]]
			at := answer.Start
			state := s.End // the cursor as the stream left it
			if at > s.End {
				state = at - 1 // the gap may have moved it (another file's evidence does not)
			}
			pt := ReconnectPoint{Session: g, At: at}
			for _, kind := range [...]CursorKind{BookmarkAware, BookmarkIgnoring, HadBookmarks} {
				rv, since, _, ok := a.cursor(fi, kind).At(state)
				v := a.verdictFor(Verdict{File: fi, Kind: kind, T: s.End, At: at}, answer.answeredBy(), rv, since, ok, at)
				switch kind {
				case BookmarkAware:
					pt.With = v
				case BookmarkIgnoring:
					pt.Without = v
				default:
					pt.Had = v
				}
			}
			w.Reconnects++
			w.count(pt.With, &w.RelistsWith, &w.LongestAgeWith, &w.UnknownWith, &w.AtRiskWith)
			w.count(pt.Without, &w.RelistsWithout, &w.LongestAgeWithout, &w.UnknownWithout, &w.AtRiskWithout)
			w.count(pt.Had, &w.RelistsHad, &w.LongestAgeHad, &w.UnknownHad, &w.AtRiskHad)
			w.Points = append(w.Points, pt)
		}
	}
	w.Saved = w.RelistsWithout - w.RelistsWith
	if w.RelistsWithout > 0 {
		w.SavedPercent = 100 * float64(w.Saved) / float64(w.RelistsWithout)
	}
}

func (w *WhatIf) count(v Verdict, relists *int, longest *int64, unknown, atRisk *int) {
	switch v.Outcome {
	case Refused:
		*relists++
	case Unknown:
		*unknown++
	case AtRisk:
		*atRisk++
	}
	if v.HasCursor && v.At-v.Since > *longest {
		*longest = v.At - v.Since
	}
}

// Contradicts says whether the prediction contradicts what the server
// answered: refused where it accepted, or accepted where it refused. At
// risk and unknown contradict neither.
func (r Resume) Contradicts() bool {
	p := r.Predicted.Outcome
	return (p == Refused && r.Observed == Accepted) || (p == Accepted && r.Observed == Refused)
}

// calibrationReason explains a calibration verdict other than accepted:
// the too-old error that decided it, and which server answered it.
func (a *Analysis) calibrationReason(o Outcome, file, server int, rv uint64) string {
	tl := a.TL
	refusing, risky := a.floorsOf(file, server)
	f := refusing
	if o == AtRisk && risky != nil {
		f = risky
	}
	k := f.floor(rv, math.MaxInt64)
	if k < 0 {
		return ModelCalibration.String()
	}
	ev := tl.Event(int(f.ev[k]))
	at := "an unknown time"
	if tl.Files[file].Clock != ClockNone {
		at = a.instant(ev.T)
	}
	from := "a server not known"
	if n := tl.ServerName(ev.Session); n != "" {
		from = "server " + n
	}
	switch {
	case len(tl.Servers) <= 1:
		return fmt.Sprintf("calibration: %q observed at %s: every RV below %d refused from then", ev.Status.Message, at, f.y[k])
	case server >= 0:
		return fmt.Sprintf("calibration: %s's own 410 at %s (%q) said it kept nothing older than RV %d, and it refuses every RV below that from then", from, a.instant(ev.T), ev.Status.Message, f.y[k])
	case o == AtRisk:
		return fmt.Sprintf("calibration: %q observed at %s from %s, which refuses every RV below %d from then; the reconnect may land on it: which server it reaches would decide (the audit log holding the reconnect's Audit-Id names it)", ev.Status.Message, at, from, f.y[k])
	}
	return fmt.Sprintf("calibration: by %s each of the %d servers had answered a too-old error, none keeping an RV below %d (%q from %s)", at, len(tl.Servers), f.y[k], ev.Status.Message, from)
}
