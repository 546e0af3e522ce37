package timeline

import (
	"strings"
	"testing"
)

// TestBookmarksLineOfACaptureWithoutReconnect: client-go's golden watch
// has no reconnect, as the summary's first line says; the bookmarks line
// then tells of a reconnect supposed as its recording ends, not "at a
// reconnect at 15:17:06" as if one had been recorded. Asked about an
// instant before the recording, it says the cursor is not known then,
// not "unknown and unknown".
func TestBookmarksLineOfACaptureWithoutReconnect(t *testing.T) {
	a := loadSamples(t, "client-go-golden-watch.http").Analyze(DefaultParams())
	topics := func(qs []ResumeQuery) map[string]string {
		out := map[string]string{}
		for _, l := range a.Summary(qs) {
			out[l.Topic] = l.Text
		}
		return out
	}
	lines := topics(nil)
	if !strings.Contains(lines["observed"], "has no reconnect") ||
		!strings.Contains(lines["bookmarks"], "at a reconnect as its recording ends (2024-09-18 15:17:06.000 UTC) its cursor was 0s old") {
		t.Errorf("the summary says %q", lines)
	}
	before := topics([]ResumeQuery{{At: instant(t, "2024-09-18T15:17:00Z")}})["bookmarks"]
	if !strings.Contains(before, "it had no cursor: the recording begins at 2024-09-18 15:17:06.000 UTC") || strings.Contains(before, "unknown") {
		t.Errorf("before the recording, the bookmarks line says %q", before)
	}
}
