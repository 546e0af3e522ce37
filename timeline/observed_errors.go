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
