package timeline

import (
	"math"

	"watchlens/parser"
)

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
