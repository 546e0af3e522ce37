package timeline

import "watchlens/parser"

// ObservedError is an error the server sent: a response that is a Status
// (a LIST's 410 Gone, a 504), or an ERROR event in a watch's stream.
type ObservedError struct {
	Session int   // global session index
	Event   int   // the ERROR event's table index, -1 for a response
	T       int64 // when it came: the session's start for a response
	Status  *parser.Status
}

// ObservedErrors lists the errors the server sent: the responses that are a
// Status in session order, then the ERROR events in the timeline's order.
func (tl *Timeline) ObservedErrors() []ObservedError {
	var out []ObservedError
	for g, s := range tl.Sessions {
		if s.Status != nil {
			out = append(out, ObservedError{Session: g, Event: -1, T: s.Start, Status: s.Status})
		}
	}
	for _, i := range tl.special {
		if parser.EventType(tl.tab.typ.at(int(i))) == parser.Error {
			if st := tl.status[int(i)]; st != nil {
				out = append(out, ObservedError{Session: int(tl.tab.sess.at(int(i))), Event: int(i), T: tl.tab.t.at(int(i)), Status: st})
			}
		}
	}
	return out
}

// GoneUnlisted says the session was refused with a 410 that neither an
// ERROR event nor a Status response of its own shows, so ObservedErrors
// does not list it: a 410 response with no Status body, or a 410 its
// client's log or an audit log shows. Gones lists it beside them.
func (s *Session) GoneUnlisted() bool {
	return s.Status == nil && s.ErrorEvent < 0 && (s.inferredGone || s.answeredGone())
}

// answeredGone says the server's answer to the session's request was a
// 410 Gone: the response's status, or the error that ended its stream.
func (s *Session) answeredGone() bool { return s.HTTPStatus == 410 || gone(s.Error) }

// GoneInferred says the session's 410 is inferred from an audit log,
// which records a watch's 200 header, never the ERROR in its stream.
func (s *Session) GoneInferred() bool { return s.inferredGone }

// EndsAtGone says the file's records end at a watch refused with 410
// Gone: the client must list again, and the recording stopped before it
// did. (A LIST refused so is itself a relist, counted as one.)
func (tl *Timeline) EndsAtGone(file int) bool {
	ss := tl.Files[file].Sessions
	if len(ss) == 0 {
		return false
	}
	s := &tl.Sessions[ss[len(ss)-1]]
	return !s.isList() && (s.inferredGone || s.answeredGone() || gone(s.Status))
}

// Gone is one 410 Gone the record shows, whether or not a cursor explains
// the request it answered: an ERROR event in a stream, a response that
// is a 410 (with a Status body or none), or a 410 an audit log implies.
type Gone struct {
	Session int
	T       int64
	// Status is what the server said; nil for a 410 response with no
	// Status body.
	Status *parser.Status
	// Inferred: an audit log implies it (see Builder.inferGone); it
	// records a watch's 200 header, never the ERROR in its stream.
	Inferred bool
}

// Gones lists every 410 Gone the record shows: the observed errors that
// are one, in their order, then the sessions answered 410 with no Status
// and those an audit log implies were refused. A headline and an exit
// code that both read this list cannot disagree about a 410.
func (tl *Timeline) Gones() []Gone {
	var out []Gone
	said := map[int]bool{}
	for _, e := range tl.ObservedErrors() {
		if gone(e.Status) {
			out = append(out, Gone{Session: e.Session, T: e.T, Status: e.Status})
			said[e.Session] = true
		}
	}
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		switch {
		case said[g]:
		case s.inferredGone:
			out = append(out, Gone{Session: g, T: s.Start, Status: s.Error, Inferred: true})
		case s.answeredGone():
			out = append(out, Gone{Session: g, T: s.Start, Status: s.Error})
		}
	}
	return out
}
