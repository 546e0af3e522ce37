package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestFleetSavingsOfAtLeastNothing: from samples-outage's audit logs
// alone, bookmarks save at least nothing; the fleet section says what
// they would save is not known, as the verdict does, where it said
// "bookmarks save at least 0 (0.0 %)".
func TestFleetSavingsOfAtLeastNothing(t *testing.T) {
	r := New(loadRecording(t, "samples-outage", "audit-*.log").Analyze(realServer()), nil)
	if r.Fleet == nil || !r.Fleet.WithoutAtLeast || r.Fleet.Saved != 0 || !r.Fleet.SavingsKnown {
		t.Fatalf("the outage's audit logs: fleet %+v", r.Fleet)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "had none: at least as many; what bookmarks would save is not known.") || strings.Contains(text.String(), "save at least 0") {
		t.Errorf("the fleet section:\n%s", text.String())
	}
}
