package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// TestAnalyzeAuditLogCutFirstLine (#26): an audit log whose first line is
// cut (tail -c +100) was read as a watch capture, of 668 "Event"
// objects, with a wrong verdict and exit 0. Cut so, samples-fleet's
// audit-b-1.log is read as the audit log it is: the cut line is a
// diagnostic that says it was skipped, and the clients, the summary's
// first line and the exit status under --fail-on 410 are the whole log's.
func TestAnalyzeAuditLogCutFirstLine(t *testing.T) {
	whole := filepath.Join(testsample.Recording(t, "samples-fleet"), "audit-b-1.log")
	cut := filepath.Join(t.TempDir(), "audit-b-1-cut.log")
	if err := os.WriteFile(cut, testsample.Read(t, whole)[99:], 0o644); err != nil {
		t.Fatal(err)
	}
	type report struct {
		Files       []json.RawMessage      `json:"files"`
		Summary     []timeline.SummaryLine `json:"summary"`
		Diagnostics []struct {
			Offset  int64  `json:"offset"`
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"diagnostics"`
	}
	read := func(path string) (int, report) {
		t.Helper()
		code, out, errOut := analyze(t, "--format", "json", "--fail-on", "410", path)
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Summary) == 0 {
			t.Fatalf("%s: exit %d (%s): %v", path, code, errOut, err)
		}
		return code, r
	}
	wholeCode, w := read(whole)
	cutCode, c := read(cut)
	if wholeCode != 1 || len(w.Files) < 20 {
		t.Fatalf("the whole log: exit %d, %d clients; the test proves nothing", wholeCode, len(w.Files))
	}
	if cutCode != wholeCode || len(c.Files) != len(w.Files) || c.Summary[0].Text != w.Summary[0].Text {
		t.Errorf("cut: exit %d, %d clients, %q; whole: exit %d, %d clients, %q",
			cutCode, len(c.Files), c.Summary[0].Text, wholeCode, len(w.Files), w.Summary[0].Text)
	}
	if len(c.Diagnostics) == 0 || c.Diagnostics[0].Offset != 0 || c.Diagnostics[0].Kind != "bad-json" || !strings.HasSuffix(c.Diagnostics[0].Message, "skipped") {
		t.Errorf("the cut first line is not a diagnostic saying it was skipped: %+v", c.Diagnostics)
	}
}
