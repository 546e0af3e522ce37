package timeline

import "math"

// Zone is an interval [From, To) of drop instants refused (or, in
// RiskZones, put at risk) by one model; why is Analysis.ZoneReason.
type Zone struct {
	File         int
	Kind         CursorKind
	Model        Model
	From, To     int64
	FromRV, ToRV uint64
	// outcome is Refused or AtRisk; on, since and at are the server the
	// model judged the first reconnect on, when its cursor was last
	// current, and that reconnect's instant: what its reason says.
	outcome Outcome
	// heldBefore: the model puts the cursor at risk earlier, but the
	// server its connection reached, or every server the load balancer
	// could pick, held it by its metrics until the zone begins (holds).
	heldBefore bool
	on         serverRef
	since, at  int64
	// outage is the outage of the clients' way to the servers whose end,
	// at, the zone's reconnects wait for (zoneWaited); nil for none.
	outage *Outage
}

// ZoneReason says why z's model refuses, or puts at risk, the reconnects
// of its first drop. It is made when asked: a load of an incident has
// thousands of zones, and only a few of them are read.
func (a *Analysis) ZoneReason(z Zone) string {
	at := z.at
	if z.outage != nil {
		at = z.From + int64(a.Params.Delay) // its reconnect waited from then
	}
	why := a.waitedReason(z.Model, z.outcome, z.File, z.on, z.FromRV, z.since, at, z.outage)
	if z.heldBefore {
		// Held over the drops just before it, by the server their
		// connection reached, or by every server.
		on := stintAt(a.dropStints(z.File, int64(a.Params.Delay)), z.From-1).on.server
		why += a.heldUntilWords(z.File, on, z.FromRV, z.since, z.at)
	}
	return why
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

// passState caches, for the walk over one cursor's steps, its kind's
// series, replayed cache and calibration floors for a reconnect to a
// server not known (map lookups by kind otherwise made at every step),
// where the last search landed, and readers of the steps and of the
// series' instants: each model's reads move forward with the cursor's
// value. One serves every pass of an analysis, so that its readers'
// buffers are allocated once, not at each of thousands of cursors.
type passState struct {
	active                   bool // inside a cursor pass
	file                     int
	series                   *kindSeries
	capacity                 *cacheReplay
	refuseFloors, riskFloors *floorSteps
	hint                     searchHint
	replay                   replayHint
	// The instants the time model reads (staleFrom) and the count
	// model's.
	staleTimes, countTimes timeReader
	steps, head            stepReader
	// bounds are, per model, the earliest instant its threshold gave
	// for the pass's last value computed (see thresholdBound).
	bounds [numModels]thresholdBound
	clear  stepsClear
	// stints are the cursor's connection's (connStints).
	stints []connStint
	// cuts are the last heldCut asked per server (index on+1): a step's
	// models ask it of the same value in turn.
	cuts []valueMemo[int64]
	// held is the cursor's kind's heldPieces, once asked.
	held *heldPieces
	// everyServer is the last everyServerThreshold of the pass's zones
	// (all the evidence), risk and refused: a step's models and stints
	// ask it in turn.
	everyServer valueMemo[[2]int64]
}

// valueMemo is the last answer asked of a cursor value rv last current
// at since: a step's models and stints ask the same value's in turn.
type valueMemo[T any] struct {
	rv    uint64
	since int64
	v     T
	set   bool
}

// of is the answer for rv and since, found by find unless it is the
// last one's.
func (m *valueMemo[T]) of(rv uint64, since int64, find func() T) T {
	if !m.set || m.rv != rv || m.since != since {
		*m = valueMemo[T]{rv: rv, since: since, v: find(), set: true}
	}
	return m.v
}

// thresholdBound is the earlier of a model's risk and refusal instants
// for a cursor at rv resuming on the server on. For the models whose
// thresholds do not fall as the value rises, over a timeline in time
// order (risesWithRV), it bounds from below those of any value from rv
// up: a cursor pass, whose values mostly rise and whose thresholds are
// mostly far past each step, needs no threshold of a step whose drops
// end before that bound.
type thresholdBound struct {
	rv  uint64
	on  serverRef
	t   int64
	set bool
}

// risesWithRV says model m's threshold, for a cursor resuming on one
// server, does not move back in time as the cursor's value rises: the
// count model's change is the N-th after the first above the value
// (the series' running maximum RV does not fall), the capacity model's
// the first replay step buffering nothing at or below it, calibration's
// the first floor above it (floors rise), each over changes or errors in
// time order when the timeline is; the server metrics' is never (it
// decides at the reconnect, not by a threshold); every server's is the
// earliest and the latest of each server's (its calibration's, its
// restart's, its cache's first refusal of a value, which rises).
func risesWithRV(m Model) bool {
	return m == ModelCacheCount || m == ModelCacheCapacity || m == ModelCalibration || m == ModelServerCache || m == ModelEveryServer
}

// startPass readies a.pass for a pass over c's steps.
func (a *Analysis) startPass(c *Cursor) *passState {
	if a.pass == nil {
		a.pass = &passState{}
	}
	ps, kind := a.pass, a.TL.Files[c.File].Kind
	ps.active, ps.file, ps.series, ps.capacity = true, c.File, a.TL.series[kind], a.capacity[kind]
	ps.refuseFloors, ps.riskFloors = a.calibrationFloors(kind, -1)
	ps.hint.asked = false
	if s := ps.series; s != nil {
		ps.staleTimes.reuse(s)
		ps.countTimes.reuse(s)
	}
	if c := ps.capacity; c != nil {
		ps.replay.first, ps.replay.ans = 0, 0
		ps.replay.from.reuse(newBlockReader(&c.from))
		ps.replay.at.reuse(newBlockReader(&c.at))
		ps.replay.times.reuse(c.s)
	}
	ps.steps.reuse(&c.Steps)
	ps.head.reuse(&a.TL.head)
	ps.bounds = [numModels]thresholdBound{}
	ps.clear = stepsClear{}
	ps.cuts = append(ps.cuts[:0], make([]valueMemo[int64], len(a.TL.Servers)+1)...)
	ps.held = nil
	ps.everyServer = valueMemo[[2]int64]{}
	return ps
}

// passOf returns the pass state when inside a pass over a cursor of file,
// else nil.
func (a *Analysis) passOf(file int) *passState {
	if ps := a.pass; ps != nil && ps.active && ps.file == file {
		return ps
	}
	return nil
}

// floorsOf returns the calibration floors of the file's kind that refuse
// a reconnect to server (-1: not known) and those that only put it at
// risk (see Timeline.calibrationFloors).
func (a *Analysis) floorsOf(file, server int) (refuse, risk *floorSteps) {
	if ps := a.passOf(file); ps != nil && server < 0 {
		return ps.refuseFloors, ps.riskFloors
	}
	return a.calibrationFloors(a.TL.Files[file].Kind, server)
}

// calibrationFloors is Timeline.calibrationFloors with the servers the
// analysis counts: with several servers and their records naming at most
// one (-servers N, their own logs alone), a too-old error is one
// server's, and a reconnect may land on another, whose own history may
// still hold the cursor: it is at risk, not refused. The lab's captures
// alone, given -servers 3, had 5 reconnects accepted where one server's
// 410 refused them.
func (a *Analysis) calibrationFloors(kind string, server int) (refuse, risk *floorSteps) {
	if len(a.TL.Servers) <= 1 && a.ServerCount() > 1 {
		return nil, a.TL.floors[kind]
	}
	return a.TL.calibrationFloors(kind, server)
}

// seriesOf returns the change series of the file's kind, and a search
// hint and the readers of the instants the time and count models read
// when inside a cursor pass.
func (a *Analysis) seriesOf(file int) (s *kindSeries, hint *searchHint, stale, count *timeReader) {
	if ps := a.passOf(file); ps != nil {
		return ps.series, &ps.hint, &ps.staleTimes, &ps.countTimes
	}
	return a.TL.series[a.TL.Files[file].Kind], nil, nil, nil
}

// capacityOf returns the replayed cache of the file's kind (nil when
// none), and, inside a cursor pass, the search hints over the kind's
// series and over the replay's steps.
func (a *Analysis) capacityOf(file int) (*cacheReplay, *searchHint, *replayHint) {
	if ps := a.passOf(file); ps != nil {
		return ps.capacity, &ps.hint, &ps.replay
	}
	return a.capacity[a.TL.Files[file].Kind], nil, nil
}

// searchHint speeds up the models' searches over a cursor pass's series:
// cursor values mostly rise, and then the answer can only move forward;
// the models of one step ask the same question.
type searchHint struct {
	maxRV blockReader // reads the series' maxRV, once asked
	rv    uint64
	ans   int  // the previous answer: no change below it is above rv+1, for any rv >= this rv
	asked bool // rv and ans hold a question and its answer
}

// firstAbove returns the first change whose largest RV so far (maxRV) is
// above rv+1, the change from which a buffer of the changes up to it no
// longer holds rv+1; with a hint, it reads forward from the previous
// answer when rv did not go down.
func (h *searchHint) firstAbove(maxRV *packed[uint64], rv uint64) int {
	if h == nil {
		return gallopAbove(maxRV, -1, rv+1)
	}
	switch {
	case !h.asked:
		h.maxRV.reuse(newBlockReader(maxRV))
		h.ans = gallopAbove(maxRV, -1, rv+1)
	case rv == h.rv:
		return h.ans
	case rv > h.rv:
		h.ans = firstAboveFrom(&h.maxRV, maxRV, h.ans, rv+1)
	default:
		h.ans = gallopAbove(maxRV, -1, rv+1)
	}
	h.rv, h.asked = rv, true
	return h.ans
}

// gallopAbove returns the first index k of p, a column whose values do
// not fall, with p.at(k) > v, or p's length. From start >= 0, known to be
// at or before the answer, it gallops forward first: a cursor's searches
// mostly move forward by a little. It calls no predicate: as wasm, calls
// through a closure are a large part of the searches' time.
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

// zoneSink grows the zones of one cursor pass, one open zone per model.
type zoneSink struct {
	zones   *[]Zone
	outcome Outcome        // of its zones: Refused or AtRisk
	open    [numModels]int // index in *zones of the zone still growing, or -1
}

func newZoneSink(zones *[]Zone, outcome Outcome) *zoneSink {
	z := &zoneSink{zones: zones, outcome: outcome}
	z.close()
	return z
}

func (z *zoneSink) close() {
	for i := range z.open {
		z.open[i] = -1
	}
}

// add extends model m's open zone when [from, to) continues it, else
// opens a new one, whose first reconnect, at, reaches the server on with
// the cursor at rv, last current at since.
func (z *zoneSink) add(c *Cursor, m Model, from, to int64, rv uint64, on serverRef, since, at int64) {
	if k := z.open[m]; k >= 0 {
		if open := &(*z.zones)[k]; open.To == from {
			open.To, open.ToRV = to, rv
			return
		}
	}
	*z.zones = append(*z.zones, Zone{File: c.File, Kind: c.Kind, Model: m, From: from, To: to, FromRV: rv, ToRV: rv,
		outcome: z.outcome, on: on, since: since, at: at})
	z.open[m] = len(*z.zones) - 1
}

// cursorPass derives zones, gaps and ages of one cursor in one walk over
// its steps. The zones run on past the cursor's file to the shared
// clock's end (a reconnect after the capture stopped is still a
// question), its last instant included: a zone is [From, To), and a
// reconnect at that instant is answered as any other; ages and gaps stop
// with the file.
func (a *Analysis) cursorPass(c *Cursor) {
	tl, p := a.TL, a.Params
	d := int64(p.Delay)
	age := CursorAge{File: c.File, Kind: c.Kind}
	models := a.applicable(c.File)
	refused, risky := newZoneSink(&a.Zones, Refused), newZoneSink(&a.RiskZones, AtRisk)
	ps := a.startPass(c)
	defer func() { ps.active = false }()
	// The servers its connection says a reconnect reaches, and, per
	// model, the one of its zone still growing.
	stints := a.dropStints(c.File, d)
	ps.stints = stints
	// Whether some drops' reconnects wait for an outage's end; where
	// none do and there are no stints, runs of steps are walked apart.
	waits := a.outageAfter(c.File, math.MinInt64) != nil
	walkable := len(stints) == 0 && !waits
	var lastOn [numModels]serverRef
	for m := range lastOn {
		lastOn[m] = anyServer
	}
	zoneEnd := c.End
	if tl.Files[c.File].Clock != ClockNone {
		zoneEnd = max(c.End, a.end) + 1
	}
	// A drop whose reconnect, d later, finds no server to answer it
	// (noneTakingFrom) is in no zone.
	zoneCap := a.noneTakingFrom() - d
	zoneEnd = min(zoneEnd, zoneCap)
	// The head step in force at the current step's end (steps are in time
	// order), its value, and the next step's instant.
	head, steps := &ps.head, &ps.steps
	hk, h := -1, uint64(0)
	hnext := int64(math.MaxInt64)
	if tl.head.Len() > 0 {
		hnext = head.time(0)
	}
	n := c.Len()
	var next int64 // step k, decoded as step k-1's end
	var nextRV uint64
	if n > 0 {
		next, nextRV = steps.step(0)
	}
	for k := 0; k < n; k++ {
		if walkable && ps.clear.ok && k+1 < n {
			// A run of steps that the last bounds clear, walked apart.
			w := clearWalk{k: k, next: next, nextRV: nextRV, hk: hk, h: h, hnext: hnext}
			if w.walk(c, &tl.head, min(n-1, k+pauseEvery), ps.clear, d, &age) {
				refused.close()
				risky.close()
				a.pace.tick(w.k - k)
				k, next, nextRV, hk, h, hnext = w.k, w.next, w.nextRV, w.hk, w.h, w.hnext
			}
		}
		a.pace.tick(1)
		from, rv := next, nextRV
		to, zto := c.End, zoneEnd
		if k+1 < n {
			next, nextRV = steps.step(k + 1)
			to, zto = next, min(next, zoneCap)
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
			hk, hnext = headBefore(head, hk+1, to)
			_, h = head.step(hk)
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
		if from >= zoneCap {
			// Past where a drop's reconnect finds a server.
			refused.close()
			risky.close()
			continue
		}
		if walkable && ps.clear.holds(rv, from, zto, d) {
			refused.close()
			risky.close()
			continue
		}
		for _, m := range models {
			if !waits && (!serverDependent(m) || len(stints) == 0) {
				// Checked here, where it is inlined: at every step of
				// every cursor, for every model, a call costs as much as
				// the check as wasm.
				if a.beyond(m, anyServer, rv, from, zto, d) {
					refused.open[m], risky.open[m] = -1, -1
				} else {
					a.zoneSpan(refused, risky, c, m, anyServer, rv, from, from, zto, d)
				}
				continue
			}
			// A reconnect from a drop in each stint reaches its server;
			// one that falls in an outage waits for its end.
			for t := from; t < zto; {
				end, on := zto, anyServer
				// The drops whose reconnects, d later, fall in o wait
				// for its end.
				if o := a.outageAfter(c.File, t+d); o != nil && o.From-d <= t {
					end = min(o.To-d, zto)
					a.zoneWaited(refused, risky, c, m, rv, from, t, end, o)
					lastOn[m] = waiting
					t = end
					continue
				} else if o != nil {
					end = min(end, o.From-d)
				}
				if serverDependent(m) && len(stints) > 0 {
					st := stintAt(stints, t)
					end, on = min(end, st.to), st.on
				}
				if on != lastOn[m] {
					refused.open[m], risky.open[m], lastOn[m] = -1, -1, on
				}
				if a.beyond(m, on, rv, from, end, d) {
					refused.open[m], risky.open[m] = -1, -1
				} else {
					a.zoneSpan(refused, risky, c, m, on, rv, from, t, end, d)
				}
				t = end
			}
		}
		if walkable {
			ps.clear = a.clearOf(models)
		}
	}
	a.Ages = append(a.Ages, age)
}

// clearWalk is where a cursor pass stands: step k is next, its instant
// and value decoded; hk is the head step in force at step k's start, h
// its value, hnext the next head step's instant.
type clearWalk struct {
	k      int
	next   int64
	nextRV uint64
	hk     int
	h      uint64
	hnext  int64
}

// walk walks the steps from w.k, up to end (exclusive, before the
// cursor's last step), as cursorPass's loop walks a step that sc, the
// pass's last bounds, clears, and whose head is not above it: it keeps
// the cursor's age, and stops at the first step that is otherwise, or
// that is no event, or whose head moves other than by the one step
// headBefore looks at first. It says whether it walked any. It makes no
// call: as wasm, a loop with calls in it keeps its values in memory, and
// most steps of a busy capture are such.
func (w *clearWalk) walk(c *Cursor, head *Steps, end int, sc stepsClear, d int64, age *CursorAge) bool {
	// The columns it reads are copied to locals: the loop stores nothing,
	// but what it reads through a pointer (each column's list of blocks)
	// the compiler reads again at every read.
	cev, hev, ts, rvs := c.ev, head.ev, c.tl.tab.t, c.tl.tab.rv
	k, next, nextRV, hk, h, hnext := w.k, w.next, w.nextRV, w.hk, w.h, w.hnext
	hn := head.Len()
	maxAge, maxAt, maxRV := age.MaxAge, age.MaxAgeAt, age.MaxAgeRV
	var last uint64 // the value of the last step walked
	for ; k < end; k++ {
		from, rv := next, nextRV
		i := cev.at(k + 1)
		if i < 0 || rv == unsetRV || rv == unknownRV {
			break
		}
		to := ts.at(int(i))
		hk1, h1, hnext1 := hk, h, hnext
		if hnext <= to-1 {
			// headBefore(head, hk+1, to), when the step after hk+1 is
			// at or past to, or there is none.
			hk1, hnext1 = hk+1, math.MaxInt64
			if hk+2 < hn {
				j := hev.at(hk + 2)
				if j < 0 {
					break
				}
				if hnext1 = ts.at(int(j)); hnext1 < to {
					break
				}
			}
			j := hev.at(hk1)
			if j < 0 {
				break
			}
			h1 = rvs.at(int(j))
		}
		if hk1 >= 0 && h1 > rv || !sc.holds(rv, from, to, d) {
			break
		}
		hk, h, hnext, last = hk1, h1, hnext1, rv
		if to-from > maxAge {
			maxAge, maxAt, maxRV = to-from, to, rv
		}
		next, nextRV = to, rvs.at(int(i))
	}
	if k == w.k {
		return false
	}
	age.Final, age.HasFinal = last, true
	age.MaxAge, age.MaxAgeAt, age.MaxAgeRV = maxAge, maxAt, maxRV
	w.k, w.next, w.nextRV, w.hk, w.h, w.hnext = k, next, nextRV, hk, h, hnext
	return true
}

// stepsClear is what beyond says of every model at once, for a pass
// whose reconnects go to no server known: no model's zone reaches the
// drops of a step at a value from rv up that ends by t-d, and lasts at
// most w-d. Most steps of a busy capture are such, and one check for
// them all is cheaper than one per model, as wasm.
type stepsClear struct {
	rv   uint64
	t, w int64
	ok   bool
}

// holds says the step at rv, from since to hi, is clear (see stepsClear).
func (sc stepsClear) holds(rv uint64, since, hi, d int64) bool {
	return sc.ok && rv >= sc.rv && sc.t-d >= hi && hi-since <= sc.w-d
}

// clearOf is what beyond's bounds say of every model in models, for a
// reconnect to no server known; not ok when one has no bound yet.
func (a *Analysis) clearOf(models []Model) stepsClear {
	sc := stepsClear{t: never, w: math.MaxInt64, ok: true}
	for _, m := range models {
		if w, ok := a.notBefore(m, 0); ok {
			sc.w = min(sc.w, w)
			continue
		}
		b := &a.pass.bounds[m]
		if !b.set || b.on != anyServer {
			return stepsClear{}
		}
		sc.rv, sc.t = max(sc.rv, b.rv), min(sc.t, b.t)
	}
	return sc
}

// headBefore returns the last head step before to, k or later (k, known
// to be before to, is the first step past the one in force), and the
// instant of the step after it (math.MaxInt64 when none). It looks at the
// next few steps first: a busy capture's cursor steps with the head, one
// head step at a time. Then it gallops: a cursor with few steps over a
// long capture (a virtual client's) must not walk every head step
// between.
func headBefore(head *stepReader, k int, to int64) (last int, next int64) {
	n := head.s.Len()
	for end := min(k+readAhead, n); k+1 < end; k++ {
		if t := head.time(k + 1); t >= to {
			return k, t
		}
	}
	if k+1 < n {
		k = head.s.SearchT(k+1, n, to) - 1
	}
	if k+1 < n {
		return k, head.time(k + 1)
	}
	return k, math.MaxInt64
}

// beyond says model m's threshold for a cursor at rv, last current at
// since, resuming on the server on, is known to lie past hi+d without
// computing it (notBefore, the pass's bounds): drops before hi are in
// neither zone, and zoneSpan need not run.
func (a *Analysis) beyond(m Model, on serverRef, rv uint64, since, hi, d int64) bool {
	if first, ok := a.notBefore(m, since); ok && first-d >= hi {
		return true
	}
	b := &a.pass.bounds[m]
	return b.set && b.t-d >= hi && rv >= b.rv && on == b.on
}

// waiting is the server of a zone's drops that wait for an outage's end
// (zoneWaited): none, the load balancer picking once it ends; a cursor
// pass's zone of other drops does not continue it.
var waiting = serverRef{-2, -2}

// zoneWaited adds model m's zone of a cursor at rv, last current at
// since, for drops in [lo, hi) whose reconnects wait for outage o's end:
// each is answered then, through the load balancer, so one outcome
// holds them all. It continues the zone of the drops before that wait
// for o too (a step of the cursor in the wait), and stands apart from
// the zones of drops whose reconnects are answered as they come.
func (a *Analysis) zoneWaited(refused, risky *zoneSink, c *Cursor, m Model, rv uint64, since, lo, hi int64, o *Outage) {
	var sink *zoneSink
	switch a.waitedOutcome(m, c.File, rv, since, o) {
	case Refused:
		sink = refused
	case AtRisk:
		sink = risky
	}
	for _, z := range [...]*zoneSink{refused, risky} {
		if z != sink || !z.waitsFor(m, o) {
			z.open[m] = -1
		}
	}
	if sink != nil {
		sink.add(c, m, lo, hi, rv, anyServer, since, o.To)
		(*sink.zones)[sink.open[m]].outage = o
	}
}

// waitedOutcome is model m's outcome for a reconnect of the file's
// cursor at rv, last current at since, that waits for outage o's end: it
// is answered then, through the load balancer, judged as a zone is, by
// all the evidence; Unknown where the model cannot tell.
func (a *Analysis) waitedOutcome(m Model, file int, rv uint64, since int64, o *Outage) Outcome {
	risk, ref, ok := a.threshold(m, file, anyServer, rv, since, math.MaxInt64)
	switch {
	case !ok:
		return Unknown
	case ref <= o.To:
		return Refused
	case risk <= o.To && !a.holds(file, -1, rv, since, o.To):
		return AtRisk
	}
	return Accepted
}

// waitsFor says model m's open zone is one of drops that wait for
// outage o's end.
func (z *zoneSink) waitsFor(m Model, o *Outage) bool {
	k := z.open[m]
	return k >= 0 && (*z.zones)[k].outage == o
}

// zoneSpan adds model m's zones of a cursor at rv, last current at
// since, for drops in [lo, hi) whose reconnects, d later, reach the
// server on; the caller has checked that beyond does not rule them out.
func (a *Analysis) zoneSpan(refused, risky *zoneSink, c *Cursor, m Model, on serverRef, rv uint64, since, lo, hi, d int64) {
	risk, ref, ok := a.threshold(m, c.File, on, rv, since, math.MaxInt64)
	if ok && a.TL.timeOrdered && risesWithRV(m) {
		a.pass.bounds[m] = thresholdBound{rv: rv, on: on, t: min(risk, ref), set: true}
	}
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
		refused.add(c, m, zs, hi, rv, on, since, zs+d)
	}
	if re := min(zs, hi); rs >= re {
		risky.open[m] = -1
	} else {
		// Where the server a reconnect reaches, or every server that
		// could answer, holds the cursor, it is accepted (holds): no
		// risk there.
		added := false
		a.eachUnheld(c.File, rv, since, rs, re, d, a.pass.stints, func(from, to int64) {
			risky.add(c, m, from, to, rv, on, since, from+d)
			if from > rs {
				// After a stretch held: a zone of its own.
				(*risky.zones)[risky.open[m]].heldBefore = true
			}
			added = true
		})
		if !added {
			risky.open[m] = -1
		}
	}
}
