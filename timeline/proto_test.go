package timeline

import (
	"path/filepath"
	"testing"
)

// c41, the protobuf client without bookmarks, resumed five times: from
// the LIST's RV, and twice from a stale one the server refused with 410.
// Read from protobuf, those resumes come out as the server answered,
// alone and with the broad capture and both restarts on the clock, and
// c40, with bookmarks, has its own resumes accepted.
func TestProtobufResumesAgree(t *testing.T) {
	rel := func(n string) string { return filepath.Join("..", "testdata", "fleet", n) }
	p := fleetParams(t)
	for _, c := range []struct {
		set             []string
		judged, refused int
	}{
		{[]string{"c41-proto-nobookmarks.ts.http"}, 5, 2},
		{[]string{"c41-proto-nobookmarks.ts.http", "broad-a.ts.http"}, 5, 2},
		{[]string{"c40-proto-bookmarks.ts.http", "broad-a.ts.http"}, 3, 0},
	} {
		set := c.set
		var names []string
		for _, n := range set {
			names = append(names, rel(n))
		}
		a := loadSamples(t, names...).Analyze(p)
		judged, refused := 0, 0
		for _, r := range a.Resumes {
			if a.TL.Sessions[r.Session].File != 0 {
				continue
			}
			judged++
			if r.Observed == Refused {
				refused++
			}
			if r.Contradicts() {
				t.Errorf("%v: resume from %s at %s: predicted %v, the server %v (%s)", set, r.RV, FormatTime(a.TL.Sessions[r.Session].Start, ClockArrival), r.Predicted.Outcome, r.Observed, r.Predicted.Reason)
			}
		}
		if judged != c.judged || refused != c.refused {
			t.Errorf("%v: %d resumes judged, %d refused; want %d, %d", set, judged, refused, c.judged, c.refused)
		}
		t.Logf("%v: %d resumes judged, %d refused by the server", set, judged, refused)
	}
}
