package engine

import "watchlens/timeline"

// RangeStats answers what [from, to) holds on an axis (resourceVersions
// when axisRV, else Unix ns) under the latest analysis: events by type
// and kind, bookmarks, errors, each cursor's oldest age and the zones
// (timeline.Analysis.RangeStats). Its cursors and zones name their
// files by index into Opened.Files.
func (e *Engine) RangeStats(axisRV bool, from, to int64) timeline.RangeStats {
	if axisRV {
		return e.an.RangeStatsRV(uint64(max(from, 0)), uint64(max(to, 0)))
	}
	return e.an.RangeStats(from, to)
}
