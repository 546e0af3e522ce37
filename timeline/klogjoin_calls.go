package timeline

import (
	"cmp"

	"watchlens/parser"
)

// auditCalls is what the join reads of an audit-log client: its
// User-Agent, the kind it lists and watches, and its requests in order.
// It reads a file of the timeline, or the requests the audit-log reader
// is still grouping into informers.
type auditCalls struct {
	ua, kind string
	calls    []auditCall
}

// auditCall is one request of an audit-log client.
type auditCall struct {
	req *parser.Request
	// start is when the server received it, started when it started its
	// response (start where the log does not say), end when it completed
	// it.
	start, started, end int64
	// gone: the audit log's signature of a 410 (see inferGone).
	gone bool
}

// fileCalls reads an audit-log client's file.
func (b *Builder) fileCalls(f *FileBuilder) auditCalls {
	a := auditCalls{ua: f.file.Client, kind: f.kindHint, calls: make([]auditCall, len(f.file.Sessions))}
	for n, g := range f.file.Sessions {
		s := &b.sessions[g]
		a.calls[n] = auditCall{req: s.Request, start: s.Start, started: cmp.Or(s.auditStarted, s.Start), end: s.End, gone: s.inferredGone}
	}
	return a
}

// chainCalls reads an informer's requests as the audit-log reader split
// them (see splitInformers), in the order they were received.
func chainCalls(k groupKey, reqs []auditReq) auditCalls {
	a := auditCalls{ua: k.ua, kind: cmp.Or(kindOfResource[k.resource], k.resource), calls: make([]auditCall, len(reqs))}
	for n := range reqs {
		q := &reqs[n]
		c := auditCall{req: q.Request, start: q.Received, started: cmp.Or(q.Started, q.Received), end: q.Completed}
		if n+1 < len(reqs) && q.Completed != 0 && cmp.Or(q.Code, 200) == 200 {
			c.gone = goneSignature(q.Request, reqs[n+1].Request, q.Received, q.Completed)
		}
		a.calls[n] = c
	}
	return a
}

// ends are the instants the client's requests ended.
func (a *auditCalls) ends() []int64 {
	out := make([]int64, len(a.calls))
	for n := range a.calls {
		out[n] = a.calls[n].end
	}
	return out
}

// watchListStarts are the instants the server started its responses to
// the client's WatchList requests.
func (a *auditCalls) watchListStarts() []int64 {
	var out []int64
	for n := range a.calls {
		if r := a.calls[n].req; r != nil && r.Watch && r.SendInitialEvents {
			out = append(out, a.calls[n].started)
		}
	}
	return out
}

// watchedAt says whether the client sent a watch from rv.
func (a *auditCalls) watchedAt(rv string) bool {
	for n := range a.calls {
		if r := a.calls[n].req; r != nil && r.Watch && r.ResourceVersion == rv {
			return true
		}
	}
	return false
}

// inferredGone counts the 410s the audit log's signature shows.
func (a *auditCalls) inferredGone() int {
	n := 0
	for k := range a.calls {
		if a.calls[k].gone {
			n++
		}
	}
	return n
}
