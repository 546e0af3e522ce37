package report

import (
	"strings"
	"testing"

	"watchlens/timeline"
)

// TestFleetSavingsOfAtLeastNothing: where the relists without bookmarks
// are a least (clients that asked for them, read from audit logs) and no
// more than those with them, bookmarks save at least nothing; the fleet
// section says what they would save is not known, as the verdict does,
// where it said "bookmarks save at least 0 (0.0 %)". (samples-outage's
// audit logs gave this once; its WatchList clients now count each
// reconnect without bookmarks, and save at least 26.)
func TestFleetSavingsOfAtLeastNothing(t *testing.T) {
	fr := &FleetReport{With: 74, Without: 74, WithoutAtLeast: true, SavingsKnown: true}
	if got := fr.savingsWords(); got != "Relists had every client asked for bookmarks: 74; had none: at least as many; what bookmarks would save is not known." {
		t.Errorf("the fleet section: %q", got)
	}
	fr.Without, fr.Saved, fr.SavedPercent = 100, 26, 26
	if got := fr.savingsWords(); got != "Relists had every client asked for bookmarks: 74; had none: at least 100; bookmarks save at least 26 (26.0 %)." {
		t.Errorf("the fleet section: %q", got)
	}
}

// TestWhatIfBesideFleetSaysWhatItCounts: the note beside the what-if's
// figures says why the fleet's differ: samples-outage's clients all
// asked for bookmarks, and its WatchList clients' every reconnect counts
// without them, which the note says; samples-fleet's has none, and the
// note does not speak of them.
func TestWhatIfBesideFleetSaysWhatItCounts(t *testing.T) {
	for _, c := range []struct {
		recording  string
		watchLists bool
	}{{"samples-outage", true}, {"samples-fleet", false}} {
		r := New(loadRecording(t, c.recording, "*.ts.http").Analyze(timeline.DefaultParams()), nil)
		if r.Fleet == nil || (r.Fleet.WatchListsAsked > 0) != c.watchLists {
			t.Fatalf("%s: fleet %+v, want WatchList clients that asked: %v", c.recording, r.Fleet, c.watchLists)
		}
		note := WhatIfBesideFleet(r.WhatIf.RelistsWithBookmarks, r.Fleet.Observed, r.Fleet.With, r.Fleet.Without, r.Fleet.WithoutAtLeast, r.Fleet.WatchListsAsked)
		if said := strings.Contains(note, "each reconnect of a WatchList client that asked for bookmarks"); said != c.watchLists || !strings.HasSuffix(note, "not the models' verdicts.") {
			t.Errorf("%s: %q", c.recording, note)
		}
	}
}
