package timeline

// Analysis is the timeline under one set of parameters.
type Analysis struct {
	TL     *Timeline
	Params Params
	pass   *passState // set during Analyze's cursor passes, nil after them
	pace   pacer      // pauses the cursor passes (see Builder.Pause)
	// end is the last instant the zones and horizons reach (a zone
	// covers it, ending just past it): the shared clock's end, past the
	// end of a file that stopped earlier.
	end int64
	// noneFrom is noneTakingFrom's, asked of every verdict.
	noneFrom int64
	// capacity replays the watch cache per kind (nil: no capture of the
	// whole type); headOf is the head of each kind as the watch cache of
	// that kind knew it (see counterfactual.go).
	capacity map[string]*cacheReplay
	headOf   map[string]*kindHead
	// awareSteps reads the bookmark-aware cursor that each file's
	// counterfactual copies (see synthesize), its buffers allocated once
	// for every file of a fleet, while buildHadBookmarks runs.
	awareSteps stepReader
	// asked is, for a client of the audit logs whose watches asked for
	// bookmarks, its bookmark-aware cursor with the bookmarks the server
	// sent placed in it (see buildHadBookmarks): the log shows the
	// requests, not the bookmarks.
	asked map[int]*Cursor
	// askedUnknown: some bookmark placed in those came at an instant
	// when nothing shows the head, so its RV is not known.
	askedUnknown bool
	// resources are the metrics' resource of each kind of the files,
	// when servers' metrics were exported.
	resources map[string]string
	// observed are the servers' own answers to watches from an RV, per
	// kind and server (see observeServers).
	observed map[floorKey][]cacheObservation
	// changes are each kind's changes in RV order (see changesOf).
	changes map[string]*changeIndex
	// cacheAnswers are the servers' cache bounds asked so far (see
	// cacheOf).
	cacheAnswers map[cacheAsked]cacheBounds
	// cacheRefusals are the servers' caches' rising refusals built so
	// far (see cacheRefusalsOf).
	cacheRefusals map[cacheRefusalsKey]*cacheRefusals
	// processLists are the LISTs server processes' caches are known to
	// have started from (restartfloor.go).
	processLists map[processListKey]processList
	// judging is the session whose recorded reconnect resumes() judges,
	// -1 otherwise: a LIST its own 410 shows is not taken for it.
	judging int
	// everyHeld are, per kind, when each server, and every server the
	// load balancer can pick, holds a cursor (see heldPiecesOf).
	everyHeld map[string]*heldPieces
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

// pauseEvery is how many items (events, steps) building or analysing
// walks between calls of Builder.Pause: a few milliseconds' work, even as
// wasm.
const pauseEvery = 1 << 13

// Analyze applies the window models with parameters p, pausing as the
// Builder's Pause says.
func (tl *Timeline) Analyze(p Params) *Analysis {
	a := &Analysis{TL: tl, Params: p, pace: pacer{pause: tl.pause}, judging: -1}
	a.end = tl.End()
	a.noneFrom = a.findNoneTakingFrom()
	if tl.serverMetrics() {
		a.resources = map[string]string{}
		for _, f := range tl.Files {
			if _, ok := a.resources[f.Kind]; !ok {
				a.resources[f.Kind] = tl.resourceOfKind(f.Kind)
			}
		}
		a.observeServers()
	}
	a.findProcessLists()
	a.replayCaches()
	a.buildHadBookmarks()
	for k := range tl.Cursors {
		c := &tl.Cursors[k]
		a.cursorPass(a.cursor(c.File, c.Kind))
	}
	for f := range a.HadBookmarks {
		if hb := &a.HadBookmarks[f]; hb.Synthetic {
			a.cursorPass(&hb.Cursor)
		}
	}
	// The pass state's readers hold block buffers and the columns they
	// read; an Analysis kept (each what-if) needs none of them.
	a.pass = nil
	a.Gaps, a.GapCount = a.gaps.longest()
	a.resumes()
	a.whatIf()
	a.horizons()
	a.detectRestarts()
	return a
}
