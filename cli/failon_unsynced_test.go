package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// TestFailOnJudgesNeverSynced: samples-watchlist's p03 watched an empty
// selection with WatchList requests that did not ask for bookmarks: no
// event ever came, and its client never synced, as the summary says. It
// is judged, so under --fail-on 410 the recording passes (no 410 in it),
// where it exited 3, "nothing to judge", beside a summary that judged it.
func TestFailOnJudgesNeverSynced(t *testing.T) {
	dir := testsample.Recording(t, "samples-watchlist")
	p03 := filepath.Join(dir, "p03-proto-secret-nobookmarks.ts.http")
	code, out, errOut := analyze(t, "--fail-on", "410", "--format", "summary", p03)
	if code != 0 || strings.Contains(errOut, "nothing to judge") || !strings.Contains(out, "p03-proto-secret-nobookmarks.ts.http never synced") {
		t.Errorf("analyze --fail-on 410 p03: exit %d, stderr %q, summary %q; want 0 and the client never synced", code, errOut, out)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.ts.http"))
	if err != nil || len(files) != 99 {
		t.Fatalf("samples-watchlist's captures: %d, %v", len(files), err)
	}
	if code, _, errOut := analyze(t, append([]string{"--fail-on", "410"}, files...)...); code != 0 {
		t.Errorf("analyze --fail-on 410 on samples-watchlist's 99 captures: exit %d (%s), want 0: no 410, every capture judged", code, errOut)
	}
}
