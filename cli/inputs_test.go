package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// A folder given to analyze is read as every record under it: samples-lab
// whole gives the report of its records named one by one, and says which
// of its files it left out. A folder with no record gets no verdict and
// exits 3.
func TestAnalyzeFolder(t *testing.T) {
	lab := testsample.Recording(t, "samples-lab")
	code, folder, errOut := analyze(t, "--format", "json", lab)
	if code != 0 {
		t.Fatalf("analyze %s: exit %d: %s", lab, code, errOut)
	}
	if !strings.Contains(errOut, "left out 222 files found in the folders given that hold no watch record: "+filepath.Join(lab, "README.md")) {
		t.Errorf("analyze %s does not say what it left out: %s", lab, errOut)
	}
	if strings.Contains(errOut, "nothing to judge") {
		// prometheus/range.txt, two numbers, was said to hold nothing.
		t.Errorf("analyze %s keeps a file that holds nothing to judge: %s", lab, errOut)
	}
	var records []string
	for _, pattern := range []string{"*.http", "*.log", "prometheus/query_range/*.json.gz"} {
		m, err := filepath.Glob(filepath.Join(lab, pattern))
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, m...)
	}
	_, named, _ := analyze(t, append([]string{"--format", "json"}, records...)...)
	// The folder's walk and the globs give the files in other orders:
	// the summary and the fleet's figures are the same.
	fromFolder, fromNamed := reportFigures(t, folder), reportFigures(t, named)
	if fromFolder != fromNamed {
		t.Errorf("analyze of the folder and of its %d records named one by one differ:\n%s\n%s", len(records), fromFolder, fromNamed)
	}
	if !strings.Contains(fromFolder, `"relistsObserved":81,`) {
		t.Errorf("the folder's report does not hold the lab's 81 relists: %s", fromFolder)
	}

	notes := t.TempDir()
	if err := os.WriteFile(filepath.Join(notes, "README.md"), []byte("# notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := analyze(t, notes)
	if code != exitUnread || !strings.Contains(out, "* Nothing to judge: no watch capture, audit log or client log was given") {
		t.Errorf("analyze of a folder of notes: exit %d, stderr %q, report:\n%.400s", code, errOut, out)
	}
}

// reportFigures is a JSON report's summary and fleet figures, without
// the per-client rows, whose order follows the files'.
func reportFigures(t *testing.T, report string) string {
	t.Helper()
	var r struct {
		Summary []struct{ Topic, Text string }
		Fleet   map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		t.Fatal(err)
	}
	delete(r.Fleet, "perClient")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
