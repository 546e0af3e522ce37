package timeline

import (
	"testing"
	"time"
)

// How often etcd compacted, as the exports show it, is what each
// recording's README says its servers ran with
// (--etcd-compaction-interval): the outage 30 s, the WatchList recording
// 45 s, the lab 60 s.
func TestCompactionEvery(t *testing.T) {
	for rec, want := range map[string]time.Duration{"samples-outage": 30 * time.Second, "samples-watchlist": 45 * time.Second, "samples-lab": time.Minute} {
		tl := buildRecording(t, rec, "prometheus/query_range/etcd_debugging_mvcc_compact_revision.json.gz")
		if got := tl.Metrics.CompactionEvery(); got != want {
			t.Errorf("%s: etcd compacting every %v, want %v", rec, got, want)
		}
	}
	if got := buildRecording(t, "samples-lab", "prometheus/query_range/apiserver_watch_cache_resource_version.json.gz").Metrics.CompactionEvery(); got != 0 {
		t.Errorf("exports without etcd's compactions: every %v", got)
	}
}
