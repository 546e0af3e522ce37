package report

import "testing"

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
