package report

import "watchlens/timeline"

// ParamsReport is Params as the report shows them.
// It is the JSON contract's `params` (REPORT.md).
type ParamsReport struct {
	CacheWindowSeconds  float64  `json:"cacheWindowSeconds"`
	CacheCount          int      `json:"cacheCount"`
	EtcdIntervalSeconds float64  `json:"etcdIntervalSeconds"`
	Restarts            []string `json:"restarts"`
	DelaySeconds        float64  `json:"reconnectDelaySeconds"`
	WatchCache          bool     `json:"watchCache"`
	// RestartWindows are the restarts as windows (SIGTERM to the new
	// process serving); Restarts lists their ends.
	RestartWindows []RestartReport `json:"restartWindows"`
	Servers        int             `json:"servers"`
	// EtcdCompactedEverySeconds is how often the exports show etcd
	// compacting (timeline.Metrics.CompactionEvery), 0 when they do not.
	EtcdCompactedEverySeconds float64 `json:"etcdCompactedEverySeconds"`
}

// RestartReport is a restart window.
type RestartReport struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// paramsReport is the parameters of the analysis as the report gives them.
func paramsReport(p timeline.Params) ParamsReport {
	r := ParamsReport{CacheWindowSeconds: p.CacheWindow.Seconds(), CacheCount: p.CacheCount,
		EtcdIntervalSeconds: p.EtcdInterval.Seconds(), DelaySeconds: p.Delay.Seconds(), WatchCache: p.WatchCache,
		Restarts: []string{}, RestartWindows: []RestartReport{}, Servers: p.ServerCount()}
	for _, w := range p.Restarts {
		r.Restarts = append(r.Restarts, timeline.FormatTime(w.To, timeline.ClockArrival))
		r.RestartWindows = append(r.RestartWindows, RestartReport{From: timeline.FormatTime(w.From, timeline.ClockArrival), To: timeline.FormatTime(w.To, timeline.ClockArrival)})
	}
	return r
}
