package engine

import (
	"strings"
	"testing"
	"time"

	"watchlens/timeline"
)

// TestFindReadsAnInstantInTheZoneNamed: an instant of w1's capture,
// typed as a Paris clock shows it, is found at that instant when the
// zone named is Paris, an hour away when it is UTC, and as in UTC for a
// zone the engine does not know; a match crosses a message unchanged.
func TestFindReadsAnInstantInTheZoneNamed(t *testing.T) {
	e, o := sampleEngine(t, "w1-broad-configmaps-bookmarks.ts.http")
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(0, e.Event(o.Events/2).T).Truncate(time.Second)
	typed := at.In(paris).Format("2006-01-02 15:04:05")
	first := func(zone string) timeline.Match {
		t.Helper()
		m := e.Find(typed, 12, zone)
		if len(m) == 0 || m[0].Kind != timeline.MatchTime {
			t.Fatalf("%q in %q: %+v, want an instant first", typed, zone, m)
		}
		return m[0]
	}
	m := first(paris.String())
	_, offset := at.In(paris).Zone()
	if m.T != at.UnixNano() || m.Text != timeline.FormatInstant(at.UnixNano(), paris) || offset == 0 {
		t.Errorf("%q in Paris found %+v, want %v", typed, m, at)
	}
	utc := first("UTC")
	if utc.T != at.UnixNano()+int64(offset)*int64(time.Second) {
		t.Errorf("%q in UTC found %+v, %d s from Paris's", typed, utc, (utc.T-m.T)/int64(time.Second))
	}
	if unknown := first("Nowhere/Atlantis"); unknown.T != utc.T {
		t.Errorf("in an unknown zone %q found %+v, in UTC %+v", typed, unknown, utc)
	}
	roundTrip(t, "Find", e.Find(typed, 12, paris.String()))
	name := e.Event(0).Object
	if names := e.Find(name[strings.LastIndexAny(name, " /")+1:], 12, "UTC"); len(names) == 0 || names[0].Kind != timeline.MatchObject || names[0].Text != name {
		t.Errorf("finding %s: %+v", name, names)
	} else {
		roundTrip(t, "Find by name", names)
	}
}
