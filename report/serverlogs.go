package report

import "watchlens/timeline"

// ServerLogReport is an API server's own log (timeline.ServerLog).
// It is the JSON contract's `serverLogs[]` (REPORT.md).
type ServerLogReport struct {
	Name      string   `json:"name"`
	Server    string   `json:"server"`
	First     string   `json:"first"`
	Last      string   `json:"last"`
	Starts    []string `json:"starts"`
	Shutdowns []string `json:"shutdowns"`
	Closings  []string `json:"closings"`
	Exits     []string `json:"exits"`
	// CacheReinits are the watch caches that ended every watch of their
	// resource with no restart.
	CacheReinits []CacheReinitReport `json:"cacheReinits"`
}

// CacheReinitReport is a watch cache re-initialised with no restart.
type CacheReinitReport struct {
	Resource string `json:"resource"`
	Time     string `json:"time"`
}

func times(ts []int64) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, timeline.FormatTime(t, timeline.ClockArrival))
	}
	return out
}

// addServerLogs fills the API servers' own logs.
func (r *Report) addServerLogs(tl *timeline.Timeline) {
	for _, l := range tl.ServerLogs {
		lr := ServerLogReport{Name: l.Name, Server: l.Server, First: timeline.FormatTime(l.First, timeline.ClockArrival),
			Last: timeline.FormatTime(l.Last, timeline.ClockArrival), Starts: times(l.Starts), Shutdowns: times(l.Shutdowns),
			Closings: times(l.Closings), Exits: times(l.Exits), CacheReinits: []CacheReinitReport{}}
		for _, c := range l.Caches {
			if c.Reinit {
				lr.CacheReinits = append(lr.CacheReinits, CacheReinitReport{Resource: c.Resource, Time: timeline.FormatTime(c.T, timeline.ClockArrival)})
			}
		}
		r.ServerLogs = append(r.ServerLogs, lr)
	}
}
