package report

import (
	"bytes"
	"strings"
	"testing"

	"watchlens/timeline"
)

// TestRelistDueAtRecordsEnd: samples-real's w4-then-resume ends at the
// 410 that refused its reconnect. Its fleet row holds no relist, says
// one is due in the text's and the Markdown's "relists at" column, marks
// it in the JSON (endsAtGone), and counts it without bookmarks, the side
// it recorded.
func TestRelistDueAtRecordsEnd(t *testing.T) {
	r := New(loadRecording(t, "samples-real", "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(timeline.DefaultParams()), nil)
	if r.Fleet == nil {
		t.Fatal("no fleet of two captures")
	}
	ended := 0
	for _, c := range r.Fleet.Rows {
		if !c.EndsAtGone {
			continue
		}
		ended++
		if c.File != "w4-then-resume.ts.http" || len(c.Relists) != 0 || c.Without != 1 {
			t.Errorf("%s: %d relists, %d without bookmarks; want w4-then-resume.ts.http, 0 and 1", c.File, len(c.Relists), c.Without)
		}
	}
	if ended != 1 || r.Fleet.Observed != 0 || r.Fleet.Without != 1 {
		t.Errorf("%d rows end at a 410, %d relists observed, %d without bookmarks; want 1, 0, 1", ended, r.Fleet.Observed, r.Fleet.Without)
	}
	for _, md := range []bool{false, true} {
		var b bytes.Buffer
		if err := r.write(&b, md); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "one more due (its records end at a 410)"); n != 1 {
			t.Errorf("md %v: the relist due is said %d times, want once", md, n)
		}
	}
}
