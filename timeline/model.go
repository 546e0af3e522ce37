package timeline

import (
	"fmt"
	"math"
	"time"

	"watchlens/parser"
)

// Retention window models: when does the API server answer a watch from
// resourceVersion r with 410 Gone? Sources are sections of
// /work/shared/design/watch-protocol.md (§2 "How the server decides 410").
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
	// Modelled as exactly W of history: refused when the cursor was last
	// current W or more before the reconnect.
	ModelCacheTime Model = iota
	// ModelCacheCount: the ring buffer holds the last N events of the
	// resource type (100 before 1.19; from 1.19 dynamic in [100, 102400]),
	// cluster-wide. Exact only when the captures saw the whole type
	// (no namespace, label or field selector); otherwise it counts too few
	// events and is optimistic.
	ModelCacheCount
	// ModelEtcd: uncached watches (core/v1 and events.k8s.io Events, or any
	// resource with --watch-cache=false) read etcd, which keeps 5 to 10 min:
	// each compaction run (--etcd-compaction-interval, default 5 min)
	// compacts to the revision recorded at the previous run. Modelled at the
	// worst phase: refused when last current the interval or more ago
	// (refused at any phase from twice the interval).
	ModelEtcd
	// ModelRestart: after an API server restart the cache starts at its
	// fresh LIST RV, so any cursor last current before the restart is
	// refused at once, whatever its age.
	ModelRestart
	// ModelCalibration: an observed `too old resource version: X (Y)` is
	// ground truth: from that instant every RV below Y is refused (the
	// oldest buffered only moves forward).
	ModelCalibration
	numModels
)

var modelNames = [...]string{"watch-cache-time", "watch-cache-count", "etcd-compaction", "restart", "calibration"}

func (m Model) String() string { return modelNames[m] }

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
	// Restarts are API server restart instants (Unix ns).
	Restarts []int64
	// Delay is the reconnect delay: a cursor dropped at t resumes at t+Delay.
	// client-go re-watches at once after a clean close.
	Delay time.Duration
	// WatchCache false says the server ran with --watch-cache=false, so
	// every watch reads etcd (as Events always do).
	WatchCache bool
	// MinGap is the shortest stale stretch listed as a gap.
	MinGap time.Duration
}

// DefaultParams returns the documented defaults.
func DefaultParams() Params {
	return Params{CacheWindow: 75 * time.Second, CacheCount: 102400, EtcdInterval: 5 * time.Minute,
		WatchCache: true, MinGap: time.Second}
}

// ParamsReport is Params as the report shows them.
type ParamsReport struct {
	CacheWindowSeconds  float64  `json:"cacheWindowSeconds"`
	CacheCount          int      `json:"cacheCount"`
	EtcdIntervalSeconds float64  `json:"etcdIntervalSeconds"`
	Restarts            []string `json:"restarts"`
	DelaySeconds        float64  `json:"reconnectDelaySeconds"`
	WatchCache          bool     `json:"watchCache"`
}

func (p Params) report() ParamsReport {
	r := ParamsReport{CacheWindowSeconds: p.CacheWindow.Seconds(), CacheCount: p.CacheCount,
		EtcdIntervalSeconds: p.EtcdInterval.Seconds(), DelaySeconds: p.Delay.Seconds(), WatchCache: p.WatchCache,
		Restarts: []string{}}
	for _, t := range p.Restarts {
		r.Restarts = append(r.Restarts, fmtTime(t, ClockArrival))
	}
	return r
}

// Outcome is a model's answer for one reconnect.
type Outcome uint8

const (
	Accepted Outcome = iota
	Refused
	Unknown
)

var outcomeNames = [...]string{"accepted", "refused", "unknown"}

func (o Outcome) String() string { return outcomeNames[o] }

// ModelVerdict is one model's answer.
type ModelVerdict struct {
	Model   Model
	Outcome Outcome
	// From is the earliest reconnect instant this model refuses for this
	// cursor value (math.MaxInt64 when never).
	From   int64
	Reason string
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
	Reason    string // of the first refusing model, or why accepted/unknown
	Models    []ModelVerdict
}

// Analysis is the timeline under one set of parameters.
type Analysis struct {
	TL     *Timeline
	Params Params
	pass   *passState // set during a cursor pass
	pace   pacer      // pauses the cursor passes (see AnalyzePausing)
	// Zones are the red zones: per cursor and model, the instants at which
	// a drop-and-resume (after Params.Delay) would have got 410.
	Zones []Zone
	// Gaps are the stretches where a cursor stood still while the head
	// moved past it, at least Params.MinGap long.
	Gaps    []Gap
	Ages    []CursorAge // per cursor, same order as TL.Cursors
	Resumes []Resume
	WhatIf  WhatIf
}

// Zone is an interval [From, To) of drop instants refused by one model.
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
// would have needed a relist, with and without bookmarks.
type WhatIf struct {
	Reconnects                  int
	RelistsWith                 int // bookmark-aware cursor refused
	RelistsWithout              int // bookmark-ignoring cursor refused
	LongestAgeWith              int64
	LongestAgeWithout           int64
	Saved                       int
	SavedPercent                float64
	Points                      []ReconnectPoint
	UnknownWith, UnknownWithout int
}

// ReconnectPoint is one reconnect of the what-if.
type ReconnectPoint struct {
	Session       int // the session that ended
	At            int64
	With, Without Verdict
}

// applicable lists the models that apply to a file's resource type.
func (a *Analysis) applicable(file int) []Model {
	p := a.Params
	var ms []Model
	uncached := !p.WatchCache || isEventKind(a.TL.Files[file].Kind)
	ms = append(ms, ModelCalibration)
	if uncached {
		if p.EtcdInterval > 0 {
			ms = append(ms, ModelEtcd)
		}
		return ms
	}
	if len(p.Restarts) > 0 {
		ms = append(ms, ModelRestart)
	}
	if p.CacheCount > 0 {
		ms = append(ms, ModelCacheCount)
	}
	if p.CacheWindow > 0 {
		ms = append(ms, ModelCacheTime)
	}
	return ms
}

// isEventKind: Events are not served from the watch cache by default
// (kubeapiserver default_storage_factory_builder.go).
func isEventKind(kind string) bool { return kind == "Event" }

// threshold returns the first reconnect instant model m refuses for a
// cursor at rv last current at since; before is the bound on evidence
// (calibration uses only errors observed before it).
func (a *Analysis) threshold(m Model, file int, rv uint64, since, before int64) (int64, Outcome) {
	tl, p := a.TL, &a.Params // not a copy: this runs for every cursor step
	timed := tl.Files[file].Clock != ClockNone
	never := int64(math.MaxInt64)
	switch m {
	case ModelCacheTime:
		if !timed {
			return never, Unknown
		}
		return a.staleFrom(file, rv, since) + int64(p.CacheWindow), Refused
	case ModelEtcd:
		if !timed {
			return never, Unknown
		}
		return since + int64(p.EtcdInterval), Refused
	case ModelRestart:
		for _, r := range p.Restarts {
			if r > since {
				return r, Refused
			}
		}
	case ModelCalibration:
		if f := a.floorsOf(file); f != nil {
			if k := f.floor(rv, before); k >= 0 {
				return f.t[k], Refused
			}
		}
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
			return s.t(k), Refused
		}
	}
	return never, Accepted
}

// passState caches, for the walk over one cursor's steps, its kind's
// series and calibration floors (map lookups by kind otherwise made at
// every step), and where the last search landed.
type passState struct {
	file   int
	series *kindSeries
	floors *floorSteps
	hint   searchHint
}

// floorsOf returns the calibration floors of the file's kind.
func (a *Analysis) floorsOf(file int) *floorSteps {
	if a.pass != nil && a.pass.file == file {
		return a.pass.floors
	}
	return a.TL.floors[a.TL.Files[file].Kind]
}

// seriesOf returns the change series of the file's kind, and a search
// hint when inside a cursor pass.
func (a *Analysis) seriesOf(file int) (*kindSeries, *searchHint) {
	if a.pass != nil && a.pass.file == file {
		return a.pass.series, &a.pass.hint
	}
	return a.TL.series[a.TL.Files[file].Kind], nil
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
// answer when rv did not go down. It calls no predicate: as wasm, calls
// through a closure were a third of the searches' time.
func (h *searchHint) firstAbove(maxRV *packed[uint64], rv uint64) int {
	n, x := maxRV.len(), rv+1
	lo, hi := 0, n
	if h != nil && rv >= h.rv && h.ans <= n {
		lo, hi = h.ans, h.ans
		if lo < n && maxRV.at(lo) <= x {
			step := 1
			for lo+step < n && maxRV.at(lo+step) <= x {
				lo += step
				step *= 2
			}
			lo, hi = lo+1, min(lo+step, n)
		}
	}
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); maxRV.at(m) > x {
			hi = m
		} else {
			lo = m + 1
		}
	}
	if h != nil {
		h.rv, h.ans = rv, lo
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
func (a *Analysis) reason(m Model, o Outcome, file int, rv uint64, since, at int64) string {
	p := a.Params
	age := time.Duration(at - since).Round(time.Millisecond)
	if m == ModelCacheTime {
		if stale := a.staleFrom(file, rv, since); stale > since {
			age = time.Duration(at - stale).Round(time.Millisecond)
			since = stale
			switch o {
			case Accepted:
				return fmt.Sprintf("watch cache (time): cursor %d stale for %s (a watch of the whole type saw no change past it until then), less than the %s of history", rv, age, p.CacheWindow)
			case Refused:
				return fmt.Sprintf("watch cache (time): cursor %d stale for %s (since the first change past it, or the end of the watch that saw every change), not less than the %s of history the cache is sure to keep; refused when r < oldest buffered - 1", rv, age, p.CacheWindow)
			}
		}
	}
	switch o {
	case Unknown:
		return m.String() + ": the capture has no clock"
	case Accepted:
		switch m {
		case ModelCacheTime:
			return fmt.Sprintf("watch cache (time): cursor %d last current %s before, less than the %s of history", rv, age, p.CacheWindow)
		case ModelEtcd:
			return fmt.Sprintf("etcd: cursor %d last current %s before, less than the %s compaction interval", rv, age, p.EtcdInterval)
		}
		return m.String() + ": no refusal"
	}
	switch m {
	case ModelCacheTime:
		return fmt.Sprintf("watch cache (time): cursor %d last current %s before the reconnect, not less than the %s of history the cache is sure to keep; refused when r < oldest buffered - 1", rv, age, p.CacheWindow)
	case ModelEtcd:
		s := fmt.Sprintf("etcd compaction: cursor %d last current %s before the reconnect, not less than the %s compaction interval", rv, age, p.EtcdInterval)
		if at-since >= 2*int64(p.EtcdInterval) {
			s += " (compacted at any phase)"
		} else {
			s += " (compacted at the worst phase)"
		}
		return s
	case ModelRestart:
		for _, r := range p.Restarts {
			if r > since {
				return fmt.Sprintf("API server restart at %s: the cache restarts at its fresh LIST RV; cursor %d was last current before it", fmtTime(r, ClockArrival), rv)
			}
		}
	case ModelCalibration:
		if f := a.TL.floors[a.TL.Files[file].Kind]; f != nil {
			if k := f.floor(rv, math.MaxInt64); k >= 0 {
				ev := a.TL.Event(int(f.ev[k]))
				return fmt.Sprintf("calibration: %q observed at %s: every RV below %d refused from then", ev.Status.Message, fmtTime(ev.T, a.TL.Files[file].Clock), f.y[k])
			}
		}
	case ModelCacheCount:
		s := fmt.Sprintf("watch cache (count): more than %d changes of %s after RV %d, so the buffer's oldest entry is past it", p.CacheCount, a.TL.Files[file].Kind, rv+1)
		if sr := a.TL.series[a.TL.Files[file].Kind]; sr != nil && !sr.exact {
			s += " (approximate: the captures do not see the whole resource type, so they undercount)"
		}
		return s
	}
	return m.String()
}

// judge applies every applicable model to a cursor value at a reconnect;
// calibration uses the errors observed before the instant before.
func (a *Analysis) judge(file int, rv uint64, since, at, before int64) (Outcome, string, []ModelVerdict) {
	out, why := Accepted, ""
	var ms []ModelVerdict
	unknown := false
	for _, m := range a.applicable(file) {
		thr, o := a.threshold(m, file, rv, since, before)
		if o == Refused && at < thr {
			o = Accepted
		}
		r := a.reason(m, o, file, rv, since, at)
		ms = append(ms, ModelVerdict{Model: m, Outcome: o, From: thr, Reason: r})
		switch {
		case o == Refused && out != Refused:
			out, why = Refused, r
		case o == Unknown:
			unknown = true
		}
	}
	if out == Accepted {
		if unknown {
			out, why = Unknown, "no model could decide: the capture has no clock"
		} else {
			why = "no model refuses it"
			for _, m := range ms {
				if m.Model == ModelCacheTime || m.Model == ModelEtcd {
					why = m.Reason
				}
			}
		}
	}
	return out, why, ms
}

// Verdict answers for cursor (file, kind) dropped at t and resumed at
// t+delay.
func (a *Analysis) Verdict(file int, kind CursorKind, t int64, delay time.Duration) Verdict {
	c := &a.TL.Cursors[2*file+int(kind)]
	v := Verdict{File: file, Kind: kind, T: t, At: t + int64(delay)}
	rv, since, _, ok := c.At(t)
	return a.verdictFor(v, rv, since, ok, v.At+1)
}

func (a *Analysis) verdictFor(v Verdict, rv uint64, since int64, ok bool, before int64) Verdict {
	if !ok {
		v.Outcome, v.Reason = Unknown, "no cursor: the watch started without a resourceVersion and has seen nothing yet"
		return v
	}
	v.HasCursor, v.RV, v.Since = true, rv, since
	v.Outcome, v.Reason, v.Models = a.judge(v.File, rv, since, v.At, before)
	return v
}

// Analyze applies the window models with parameters p.
func (tl *Timeline) Analyze(p Params) *Analysis {
	return tl.AnalyzePausing(p, nil)
}

// pauseEvery is how many items (events, steps) building or analysing
// walks between calls of its pause function: a few milliseconds' work,
// even as wasm.
const pauseEvery = 1 << 13

// AnalyzePausing is Analyze calling pause (when not nil) every few
// thousand steps, so that a caller on a browser's main thread can let the
// page paint and take input: over a million events the analysis takes
// half a second as wasm.
func (tl *Timeline) AnalyzePausing(p Params, pause func()) *Analysis {
	a := &Analysis{TL: tl, Params: p, pace: pacer{pause: pause}}
	for k := range tl.Cursors {
		c := &tl.Cursors[k]
		a.cursorPass(c)
	}
	a.resumes()
	a.whatIf()
	return a
}

// cursorPass derives zones, gaps and ages of one cursor in one walk over
// its steps.
func (a *Analysis) cursorPass(c *Cursor) {
	tl, p := a.TL, a.Params
	d := int64(p.Delay)
	age := CursorAge{File: c.File, Kind: c.Kind}
	models := a.applicable(c.File)
	open := make([]int, numModels) // index in a.Zones of the zone still growing, per model, or -1
	for i := range open {
		open[i] = -1
	}
	kind := tl.Files[c.File].Kind
	a.pass = &passState{file: c.File, series: tl.series[kind], floors: tl.floors[kind]}
	defer func() { a.pass = nil }()
	// The head step in force at the current step's end (steps are in time
	// order), its value, and the next step's instant.
	head := &tl.head
	hk, h := -1, uint64(0)
	hnext, hnextRV := int64(math.MaxInt64), uint64(0)
	if head.Len() > 0 {
		hnext, hnextRV = head.Step(0)
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
		to := c.End
		if k+1 < n {
			next, nextRV = c.Step(k + 1)
			to = next
		}
		if rv == unsetRV {
			age.HasFinal = false
			for i := range open {
				open[i] = -1
			}
			continue
		}
		age.Final, age.HasFinal = rv, true
		if to-from > age.MaxAge {
			age.MaxAge, age.MaxAgeAt, age.MaxAgeRV = to-from, to, rv
		}
		for hnext <= to-1 {
			hk, h = hk+1, hnextRV
			hnext = math.MaxInt64
			if hk+1 < head.Len() {
				hnext, hnextRV = head.Step(hk + 1)
			}
		}
		if hk >= 0 && h > rv {
			if h-rv > age.MaxRVAge {
				age.MaxRVAge, age.MaxRVAgeAt = h-rv, to
			}
			if passed, ok := tl.headPassed(rv); ok && passed < to {
				if gs := max(passed, from); to-gs >= int64(p.MinGap) {
					a.Gaps = append(a.Gaps, Gap{File: c.File, Kind: c.Kind, From: gs, To: to, RV: rv, HeadRV: h, AgeTime: to - from, AgeRV: h - rv})
				}
			}
		}
		for _, m := range models {
			thr, o := a.threshold(m, c.File, rv, from, math.MaxInt64)
			zs := max(from, thr-d)
			if o != Refused || thr == math.MaxInt64 || zs >= to {
				open[m] = -1
				continue
			}
			if z := open[m]; z >= 0 && a.Zones[z].To == zs {
				a.Zones[z].To, a.Zones[z].ToRV = to, rv
				continue
			}
			a.Zones = append(a.Zones, Zone{File: c.File, Kind: c.Kind, Model: m, From: zs, To: to, FromRV: rv, ToRV: rv,
				Reason: a.reason(m, Refused, c.File, rv, from, zs+d)})
			open[m] = len(a.Zones) - 1
		}
	}
	a.Ages = append(a.Ages, age)
}

// resumes checks each observed resume: a session that asked for exactly
// the RV the client's (bookmark-aware) cursor held just before it.
func (a *Analysis) resumes() {
	tl := a.TL
	for g, s := range tl.Sessions {
		if s.Request == nil || !s.Request.Watch || s.Request.ResourceVersion == "" || s.Request.ResourceVersion == "0" {
			continue
		}
		c := &tl.Cursors[2*s.File]
		rv, since, _, ok := c.At(s.Start - 1)
		if !ok || formatRV(rv) != s.Request.ResourceVersion {
			continue
		}
		r := Resume{Session: g, RV: s.Request.ResourceVersion, Observed: Accepted}
		if gone(s.Error) || (s.HTTPStatus == 410) {
			r.Observed = Refused
		} else if s.HTTPStatus != 0 && s.HTTPStatus != 200 {
			r.Observed = Unknown
		}
		// Strictly before: the session's own answer is what is being predicted.
		r.Predicted = a.verdictFor(Verdict{File: s.File, Kind: BookmarkAware, T: s.Start, At: s.Start}, rv, since, true, s.Start)
		a.Resumes = append(a.Resumes, r)
	}
}

func gone(st *parser.Status) bool {
	return st != nil && (st.Code == 410 || st.Reason == "Expired" || st.Reason == "Gone")
}

// whatIf evaluates every reconnect of the capture as recorded: the end of
// each watch that ended without a 410 (a 410 is itself the relist's
// cause, counted at the reconnect that drew it) and was a watch stream.
// A session followed by another resumes at the next one's start; the last
// resumes after Params.Delay.
func (a *Analysis) whatIf() {
	tl := a.TL
	w := &a.WhatIf
	for fi, f := range tl.Files {
		for k, g := range f.Sessions {
			s := tl.Sessions[g]
			if gone(s.Error) || !s.watchStream() {
				continue
			}
			at := s.End + int64(a.Params.Delay)
			if k+1 < len(f.Sessions) {
				at = tl.Sessions[f.Sessions[k+1]].Start
			}
			state := s.End // the cursor as the stream left it
			if k+1 < len(f.Sessions) && at > s.End {
				state = at - 1 // the gap may have moved it (another file's evidence does not)
			}
			pt := ReconnectPoint{Session: g, At: at}
			for _, kind := range CursorKinds {
				c := &tl.Cursors[2*fi+int(kind)]
				rv, since, _, ok := c.At(state)
				v := a.verdictFor(Verdict{File: fi, Kind: kind, T: s.End, At: at}, rv, since, ok, at)
				if kind == BookmarkAware {
					pt.With = v
				} else {
					pt.Without = v
				}
			}
			w.Reconnects++
			w.count(pt.With, &w.RelistsWith, &w.LongestAgeWith, &w.UnknownWith)
			w.count(pt.Without, &w.RelistsWithout, &w.LongestAgeWithout, &w.UnknownWithout)
			w.Points = append(w.Points, pt)
		}
	}
	w.Saved = w.RelistsWithout - w.RelistsWith
	if w.RelistsWithout > 0 {
		w.SavedPercent = 100 * float64(w.Saved) / float64(w.RelistsWithout)
	}
}

func (w *WhatIf) count(v Verdict, relists *int, longest *int64, unknown *int) {
	switch v.Outcome {
	case Refused:
		*relists++
	case Unknown:
		*unknown++
	}
	if v.HasCursor && v.At-v.Since > *longest {
		*longest = v.At - v.Since
	}
}
