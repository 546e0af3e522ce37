package report

import (
	"testing"

	"watchlens/timeline"
)

// TestNoCursorOfAFileThatIsNoCapture: the README and the table given
// with an incident's capture (samples-lab) are listed among the files,
// but hold no cursor and no "had it asked for bookmarks" of their own:
// the text report gave each two cursors aged 0s, and said the README
// had no clock to place bookmarks on.
func TestNoCursorOfAFileThatIsNoCapture(t *testing.T) {
	r := New(loadRecording(t, "samples-lab", "README.md", "TRUTH.tsv", "c000-bookmarks.ts.http").Analyze(timeline.DefaultParams()), nil)
	if len(r.Files) != 3 {
		t.Fatalf("%d files listed, want the README, the table and the capture", len(r.Files))
	}
	for _, c := range r.Cursors {
		if c.File != "c000-bookmarks.ts.http" {
			t.Errorf("a cursor of %s", c.File)
		}
	}
	for _, h := range r.HadBookmarks {
		if h.File != "c000-bookmarks.ts.http" {
			t.Errorf("had it asked for bookmarks, of %s", h.File)
		}
	}
	if len(r.Cursors) != 2 || len(r.HadBookmarks) != 1 {
		t.Errorf("%d cursors and %d had-bookmarks, want the capture's 2 and 1", len(r.Cursors), len(r.HadBookmarks))
	}
}
