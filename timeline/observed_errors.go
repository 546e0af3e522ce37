package timeline

import "watchlens/parser"

// ObservedError is an error the server sent: a response whose body is a
// Status, or an in-stream ERROR event.
type ObservedError struct {
	Session int   // global index into Sessions
	T       int64 // the ERROR event's instant, or the response's (its session's start)
	Status  *parser.Status
}

// ObservedErrors lists the errors the server sent: every response that is
// a Status in session order, then every ERROR event in time order.
func (tl *Timeline) ObservedErrors() []ObservedError {
	var out []ObservedError
	for g, s := range tl.Sessions {
		if s.Status != nil {
			out = append(out, ObservedError{Session: g, T: s.Start, Status: s.Status})
		}
	}
	// Errors have no lane: the specials hold them all, in time order.
	for _, k := range tl.special {
		i := int(k)
		if parser.EventType(tl.tab.typ.at(i)) == parser.Error {
			if st := tl.status[i]; st != nil {
				out = append(out, ObservedError{Session: int(tl.tab.sess.at(i)), T: tl.tab.t.at(i), Status: st})
			}
		}
	}
	return out
}
