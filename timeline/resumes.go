package timeline

import "watchlens/parser"

// Resume is an observed resume (a session that asked for the RV the
// client's cursor held) checked against the models.
type Resume struct {
	Session   int
	RV        string
	Observed  Outcome // Refused when the server answered 410
	Predicted Verdict
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
		if s.answeredGone() {
			r.Observed = Refused
		} else if s.HTTPStatus != 0 && s.HTTPStatus != 200 {
			r.Observed = Unknown
		}
		// Judged when the server received it: a request held up on its
		// way (a load balancer coming back) meets the server as it was
		// then, after the server's own refusals of other clients
		// meanwhile. Strictly before: the session's own answer is what
		// is being predicted, for the server that gave it; in a copy of
		// a recording given before it, before its twin's too, which is
		// the same answer (its clock may put it a second earlier).
		received, _ := tl.ServerReceived(g)
		before := received
		if t, ok := tl.twins[g]; ok {
			before = min(before, tl.Sessions[t].Start)
		}
		a.judging = g
		r.Predicted = a.verdictFor(Verdict{File: s.File, Kind: BookmarkAware, T: s.Start, At: received}, onServer(s.answeredBy()), rv, since, true, before)
		a.judging = -1
		a.Resumes = append(a.Resumes, r)
	}
}

func gone(st *parser.Status) bool {
	return st != nil && (st.Code == 410 || st.Reason == "Expired" || st.Reason == "Gone")
}

// Contradicts says whether the prediction contradicts what the server
// answered: refused where it accepted, or accepted where it refused. At
// risk and unknown contradict neither.
func (r Resume) Contradicts() bool {
	p := r.Predicted.Outcome
	return (p == Refused && r.Observed == Accepted) || (p == Accepted && r.Observed == Refused)
}
