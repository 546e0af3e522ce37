package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestKlogFleetSaysWhatItsLogsCannotShow: the lab's informers' klog
// alone. The fleet section and its table said 'bookmarks save 81 (100.0
// %)' and 'yes' for every client's bookmarks, half of which asked for
// none: a client's own log shows neither. The section now says the
// savings are not known, each row 'unknown' for both, and the summary's
// worst moment counts the clients without splitting them by bookmarks.
// What the relists read is not said to be "0 objects, 0 B" either.
func TestKlogFleetSaysWhatItsLogsCannotShow(t *testing.T) {
	r := New(loadRecording(t, "samples-lab", "fleet-klog.log").Analyze(realServer()), nil)
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if !strings.Contains(text, "81 relists observed. The clients' logs show neither the bookmarks each asked for nor those it received: what bookmarks would have saved is not known.") ||
		strings.Contains(text, "bookmarks save") {
		t.Errorf("the fleet section:\n%.2000s", text[strings.Index(text, "Fleet ("):])
	}
	// Nor do the logs show what the relists read.
	if !strings.Contains(text, "Served from the watch cache: 81 relists (the logs do not show what they read)") {
		t.Errorf("the fleet's cost:\n%.1200s", text[strings.Index(text, "Fleet ("):])
	}
	if r.Fleet == nil || len(r.Fleet.Rows) != 207 {
		t.Fatalf("the klog's fleet: %+v", r.Fleet)
	}
	for _, c := range r.Fleet.Rows {
		if !c.BookmarksUnseen {
			t.Errorf("%s: its bookmarks are taken as seen", c.Client)
		}
	}
	if !strings.Contains(text, "  unknown    ") {
		t.Error("no row of the fleet's table says its bookmarks are unknown")
	}
	for _, l := range r.Summary {
		if l.Topic == "fleet" && (strings.Contains(l.Text, "with them") || !strings.Contains(l.Text, "whether they asked for bookmarks, their logs do not show")) {
			t.Errorf("the fleet line: %q", l.Text)
		}
	}
}
