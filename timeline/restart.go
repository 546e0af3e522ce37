package timeline

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Restarts as the captures show them.
//
// An API server that gets SIGTERM keeps serving its open watches up to its
// shutdown timeout, then ends them all cleanly at once (the terminal
// chunk, no ERROR), and its clients reconnect (watch-protocol.md §6).
// Several streams, in one file or several, ending cleanly within about a
// second of each other before their deadlines, each followed by a
// reconnect, are that signature. The first reconnect answered after them
// is when a server served again: the restarted one when it is the only
// server, another one behind a load balancer. A detected restart is a
// finding, never applied unless the user gives it as Params.Restarts.

// restartCluster is how close together stream ends must be to count as
// one server ending its watches.
const restartCluster = int64(1e9)

// DetectedRestart is a probable restart with its evidence.
type DetectedRestart struct {
	// Ended is the instant the first of the streams ended, LastEnded the
	// last; Served is the first reconnect after them that the server
	// answered with 200.
	Ended, LastEnded, Served int64
	// Sessions are the streams that ended (global indices); Files counts
	// the files they are in.
	Sessions []int
	Files    int
}

// Window is the restart window the detection suggests: from the old
// server ending its watches to a server answering again.
func (d DetectedRestart) Window() Restart {
	return Restart{From: d.Ended, To: max(d.Served, d.LastEnded)}
}

// detectRestarts lists the probable restarts (see above).
func (a *Analysis) detectRestarts() {
	tl := a.TL
	type end struct {
		t    int64
		g    int
		rest []int // the file's sessions after it
	}
	var ends []end
	for _, f := range tl.Files {
		if f.Clock != ClockArrival {
			continue
		}
		for k, g := range f.Sessions {
			s := &tl.Sessions[g]
			if !s.watchStream() || s.EndReason != EndEOF || k+1 == len(f.Sessions) {
				continue
			}
			ends = append(ends, end{s.End, g, f.Sessions[k+1:]})
		}
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i].t < ends[j].t })
	for i := 0; i < len(ends); {
		j := i + 1
		for j < len(ends) && ends[j].t-ends[j-1].t <= restartCluster {
			j++
		}
		if j-i >= 2 {
			d := DetectedRestart{Ended: ends[i].t, LastEnded: ends[j-1].t, Served: never}
			files := map[int]bool{}
			for _, e := range ends[i:j] {
				d.Sessions = append(d.Sessions, e.g)
				files[tl.Sessions[e.g].File] = true
				// The first reconnect answered: a LIST or a watch alike.
				for _, n := range e.rest {
					if s := &tl.Sessions[n]; s.HTTPStatus == 200 || s.HTTPStatus == 0 {
						d.Served = min(d.Served, s.Start)
						break
					}
				}
			}
			d.Files = len(files)
			if d.Served == never {
				d.Served = d.LastEnded
			}
			a.Restarts = append(a.Restarts, d)
		}
		i = j
	}
}

// ParseRestart reads a restart as the CLI and the page take it: an RFC
// 3339 instant, or a window FROM/TO (SIGTERM to the new process serving).
func ParseRestart(s string) (Restart, error) {
	from, to, window := strings.Cut(strings.TrimSpace(s), "/")
	f, err := time.Parse(time.RFC3339Nano, from)
	if err != nil {
		return Restart{}, fmt.Errorf("%q is not an RFC 3339 time or a window FROM/TO, such as 2026-11-30T00:58:00Z/2026-11-30T00:59:05Z", s)
	}
	r := Restart{From: f.UnixNano(), To: f.UnixNano()}
	if window {
		t, err := time.Parse(time.RFC3339Nano, to)
		if err != nil {
			return Restart{}, fmt.Errorf("%q: the window's end is not an RFC 3339 time", s)
		}
		if r.To = t.UnixNano(); r.To < r.From {
			return Restart{}, fmt.Errorf("%q: the window ends before it starts", s)
		}
	}
	return r, nil
}

// String is the form ParseRestart reads: the instant, or FROM/TO.
func (r Restart) String() string {
	f := time.Unix(0, r.From).UTC().Format(time.RFC3339Nano)
	if r.To == r.From {
		return f
	}
	return f + "/" + time.Unix(0, r.To).UTC().Format(time.RFC3339Nano)
}
