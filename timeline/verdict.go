package timeline

import "time"

// ModelVerdict is one model's answer.
type ModelVerdict struct {
	Model   Model
	Outcome Outcome
	// RiskFrom and From are the earliest reconnect instants this model
	// puts at risk and refuses for this cursor value (never when never).
	RiskFrom, From int64
	// Server is the API server it was judged on (an index of
	// Timeline.Servers), -1 for one not known: the load balancer picks.
	Server int
	// incarnation is the process of Server it was judged on, for its
	// reason (Analysis.ModelReason).
	incarnation int
}

// Verdict answers: had the client's watch dropped at T and resumed at
// T+Delay from its cursor, over its open connection while its server
// takes new requests, else through the load balancer, would the server
// have answered 410?
type Verdict struct {
	File int
	Kind CursorKind
	T    int64
	// At is the instant it is judged at: T + Delay, or the instant asked
	// (ResumeAt), or when the server received a recorded reconnect
	// (ServerReceived); where T + Delay or the instant asked falls in an
	// outage of the clients' way to the servers, the outage's end, and
	// Waited is how long the reconnect waited for it (0 otherwise).
	At        int64
	Waited    int64
	HasCursor bool
	RV        uint64
	Since     int64 // the instant the cursor was last known current
	Outcome   Outcome
	Reason    string // of the first refusing model, or why at risk, accepted or unknown
	Models    []ModelVerdict
	// before bounds the evidence the verdict was judged on (seenBy).
	before int64
}

// Asked is the instant a reconnect was asked about: At, less what it
// waited for a server (Waited).
func (v Verdict) Asked() int64 { return v.At - v.Waited }

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

// judge is outcomes and overall, and the verdict in words: the first
// refusing model's reason (decidesOver), else the first putting it at
// risk's, else the time window's. A model's own reason is made when asked
// (ModelReason): a load judges every recorded reconnect, and the words
// of the models that do not decide are most of the time it takes.
func (a *Analysis) judge(file int, st connStint, rv uint64, since, at, before int64) (Outcome, string, []ModelVerdict) {
	mos := a.outcomes(file, st, rv, since, at, before)
	out, why := overall(mos), ""
	reason := func(mo modelOutcome) string {
		return a.reason(mo.model, mo.outcome, file, mo.on, rv, since, at, before)
	}
	ms := make([]ModelVerdict, 0, len(mos))
	decides, found := Model(0), -1
	for k, mo := range mos {
		ms = append(ms, ModelVerdict{Model: mo.model, Outcome: mo.outcome, RiskFrom: mo.risk, From: mo.refused, Server: mo.on.server, incarnation: mo.on.incarnation})
		if (out == Refused || out == AtRisk) && decidesOver(out, mo.outcome, mo.model, decides, found >= 0) {
			decides, found = mo.model, k
		}
	}
	if found >= 0 {
		why = reason(mos[found])
	}
	switch out {
	case AtRisk:
		// Where the server is known, say what its metrics left open; a
		// verdict whose server is not known has each server's answer
		// apart (ResumeAtServers), and nothing to add here.
		for _, mo := range mos {
			if mo.model == ModelServerCache && mo.on.server >= 0 {
				if r := reason(mo); r != why {
					why += "; " + r
				}
			}
		}
	case Unknown:
		why = "no model could decide: the capture has no clock"
	case Accepted:
		why = "no model refuses it"
		decided := -1 // the model whose reason says why
		for k, mo := range mos {
			if mo.held {
				decided = k
				break
			}
			if mo.model == ModelCacheTime || mo.model == ModelEtcd {
				decided = k
			}
		}
		if decided >= 0 {
			why = reason(mos[decided])
		}
	}
	return out, why, ms
}

// decidesOver says whether a model m whose outcome is o decides a
// verdict of outcome out over the model found before it (ok: one was):
// the first with the verdict's outcome decides, but a refusal of every
// server over the metrics of the one a client's connection reaches,
// whose words it holds beside the others'.
func decidesOver(out, o Outcome, m, found Model, ok bool) bool {
	return o == out && (!ok || out == Refused && m == ModelEveryServer && found == ModelServerCache)
}

// ModelReason is model m's reason in verdict v, "" when v has no answer
// of m's.
func (a *Analysis) ModelReason(v Verdict, m Model) string {
	for _, mv := range v.Models {
		if mv.Model == m {
			return a.reason(m, mv.Outcome, v.File, serverRef{mv.Server, mv.incarnation}, v.RV, v.Since, v.At, v.before)
		}
	}
	return ""
}

// modelServer is the server model m judged v on, -1 when not known.
func (v Verdict) modelServer(m Model) int {
	for _, mv := range v.Models {
		if mv.Model == m {
			return mv.Server
		}
	}
	return -1
}

// cursor returns cursor kind of file: one of TL.Cursors, or the
// counterfactual.
func (a *Analysis) cursor(file int, kind CursorKind) *Cursor {
	if kind == HadBookmarks {
		return &a.HadBookmarks[file].Cursor
	}
	if c := a.asked[file]; c != nil && kind == BookmarkAware {
		return c
	}
	return &a.TL.Cursors[2*file+int(kind)]
}

// Verdict answers for cursor (file, kind) dropped at t and resumed at
// t+delay, or, where that falls in an outage of the clients' way to the
// servers, at its end, through the load balancer (reconnectReach).
func (a *Analysis) Verdict(file int, kind CursorKind, t int64, delay time.Duration) Verdict {
	v := Verdict{File: file, Kind: kind, T: t, At: t + int64(delay)}
	rv, since, _, ok := a.cursor(file, kind).At(t)
	return a.verdictOver(v, a.reconnectReach(file, t, v.At), rv, since, ok)
}

// verdictOver judges verdict v, asked about at v.At, where its reconnect
// goes (r): at the end of an outage it falls in, waiting for it, which
// its reason says first.
func (a *Analysis) verdictOver(v Verdict, r reach, rv uint64, since int64, ok bool) Verdict {
	v.At, v.Waited = r.at, r.at-v.At
	if ok && rv != unknownRV && r.at >= a.noneTakingFrom() {
		// No server to answer it: it is not judged.
		v.HasCursor, v.RV, v.Since = true, rv, since
		v.Outcome, v.Reason = Unknown, a.noneTakingWords(r.at)
		return v
	}
	v = a.verdictFor(v, r.st, rv, since, ok, seenBy(r.at))
	if v.HasCursor {
		v.Reason = a.waitedPrefix(r, v.Asked()) + v.Reason
	}
	return v
}

// seenBy is the bound on the evidence (before, exclusive) that a
// question asked of instant at may use: what was observed up to and
// including at. A 410 observed at at is the server refusing at that
// instant, so a reconnect then counts it, as the zones do; what was
// observed after at is hindsight, and does not count. A recorded
// reconnect's own answer is another matter: predicting it (resumes,
// whatIf) uses only what came strictly before it.
func seenBy(at int64) int64 { return at + 1 }

// verdictFor judges the cursor value rv, last current at since, for a
// reconnect over the connection of stint st (reachAt, or onServer for a
// verdict asked of one server).
func (a *Analysis) verdictFor(v Verdict, st connStint, rv uint64, since int64, ok bool, before int64) Verdict {
	if !ok {
		v.Outcome, v.Reason = Unknown, a.noCursorReason(v)
		return v
	}
	if rv == unknownRV {
		v.Since = since
		v.Outcome, v.Reason = Unknown, a.HadBookmarks[v.File].unknownReason(a, since)
		return v
	}
	v.HasCursor, v.RV, v.Since, v.before = true, rv, since, before
	v.Outcome, v.Reason, v.Models = a.judge(v.File, st, rv, since, v.At, before)
	return v
}

// noCursorReason says why verdict v's cursor had no value: before its
// file's recording begins nothing of it is known (a reconnect asked
// before it, on the page's margin or with --resume-at); after, its watch
// started without a resourceVersion and has seen nothing yet, or, for a
// client read from its own log, the log names none, or its records hold
// no watch at all (heldNoWatch).
func (a *Analysis) noCursorReason(v Verdict) string {
	f := &a.TL.Files[v.File]
	switch {
	case f.startsAfter(v.T):
		return "no cursor: the recording begins at " + a.instant(f.Start) + ", and nothing before it was recorded"
	case f.clientLog() && !a.TL.neverSynced(v.File):
		return "cursor not known: the client's own log names no resourceVersion it held then (its library's log names one only in a few messages, such as a watch refused as too old)"
	}
	if held := a.TL.heldNoWatch(v.File); held != "" {
		return "no cursor: " + held
	}
	return "no cursor: the watch started without a resourceVersion and has seen nothing yet"
}
