package timeline

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Outages: stretches when no request of any client reached a server. A
// client that loses its API server (a load balancer or a network down,
// every server restarting at once) retries its watch with a backoff, and
// a capture records each attempt with no response. Once a server answers
// again, the clients come back together: the stampede the seeds ask
// about.

// Outage is one stretch with attempts and no answer.
type Outage struct {
	// From is the first attempt that reached no server, To the start of
	// the first request answered after it: the server came back at most
	// then.
	From, To int64
	// LastAttempt is the last attempt that reached no server: the
	// outage ended after it and by To. A capture shows no more than
	// that of its end.
	LastAttempt int64
	// Attempts counts the requests that reached no server, Clients the
	// files that made them.
	Attempts, Clients int
}

// minOutageClients is how many clients must fail together for an
// outage: one client's refused connection is its own trouble.
// minOutage is how long: as the fleet comes back, a few of its
// connections time out (TLS handshakes of a loaded server) among the
// answered ones.
const (
	minOutageClients = 2
	minOutage        = int64(5 * time.Second)
)

// Outages lists the outages in time order.
func (tl *Timeline) Outages() []Outage {
	type attempt struct {
		t        int64
		file     int
		answered bool
	}
	var as []attempt
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if s.Request == nil {
			continue
		}
		as = append(as, attempt{s.Start, s.File, !s.Unanswered()})
	}
	sort.Slice(as, func(i, j int) bool { return as[i].t < as[j].t })
	var out []Outage
	for k := 0; k < len(as); {
		if as[k].answered {
			k++
			continue
		}
		o := Outage{From: as[k].t}
		files := map[int]bool{}
		for ; k < len(as) && !as[k].answered; k++ {
			o.Attempts++
			o.LastAttempt = as[k].t
			files[as[k].file] = true
		}
		if k == len(as) || len(files) < minOutageClients || as[k].t-o.From < minOutage {
			continue // still down when the captures end: no return to speak of
		}
		o.To, o.Clients = as[k].t, len(files)
		out = append(out, o)
	}
	return out
}

// OutageReturn is what the fleet did once an outage ended: the relists
// from its end to the next outage (or the captures' end).
type OutageReturn struct {
	Outage
	Relists, RelistClients int
	// First and Last are the relists' delays after the outage's end.
	First, Last int64
}

// OutageReturns pairs each outage with the relists that followed it.
func (tl *Timeline) OutageReturns() []OutageReturn {
	os := tl.Outages()
	out := make([]OutageReturn, len(os))
	for k, o := range os {
		r := OutageReturn{Outage: o}
		until := int64(math.MaxInt64)
		if k+1 < len(os) {
			until = os[k+1].From
		}
		clients := map[int]bool{}
		for _, rl := range tl.Relists {
			if rl.T < o.To || rl.T >= until {
				continue
			}
			d := rl.T - o.To
			if r.Relists == 0 || d < r.First {
				r.First = d
			}
			r.Last = max(r.Last, d)
			r.Relists++
			clients[rl.File] = true
		}
		r.RelistClients = len(clients)
		out[k] = r
	}
	return out
}

// maxEndWindow is how far apart the last attempt that reached no server
// and the first answer may be for the outage's end to be taken as
// between them: further apart, the delays are counted from the first
// answer, and the words say so.
const maxEndWindow = int64(time.Second)

// End is the instant the relists' delays count from, and whether it is
// the last attempt that reached no server (else the first answer). A
// capture shows the end only as that last attempt and the first answer
// after it. When those are within maxEndWindow the delays count from
// the last attempt: the first answer comes later than the end by the
// time a new connection takes (a TLS handshake with a server that many
// clients reach at once), the last refused attempt only by the clients'
// retry spacing, which is shortest then, with the whole fleet retrying.
func (o OutageReturn) End() (end int64, lastAttempt bool) {
	if o.To-o.LastAttempt <= maxEndWindow {
		return o.LastAttempt, true
	}
	return o.To, false
}

// AfterEnd is the first and last relists' delays after End.
func (o OutageReturn) AfterEnd() (first, last int64) {
	end, _ := o.End()
	return o.First + o.To - end, o.Last + o.To - end
}

// RelistDelayWords says when relists came after an outage's end, as the
// fleet's summary and the report's outage table both say it: "between 8
// and 77 s after the outage ended" (the end taken as the last attempt
// that reached no server), or "... after the first answer after the
// outage".
func RelistDelayWords(first, last int64, lastAttempt bool) string {
	after := "the first answer after the outage"
	if lastAttempt {
		after = "the outage ended"
	}
	between := FormatDuration(first) + " and " + FormatDuration(last)
	if last >= int64(2*time.Second) {
		between = fmt.Sprintf("%.0f and %.0f s", float64(first)/1e9, float64(last)/1e9)
	}
	return "between " + between + " after " + after
}
