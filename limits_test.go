//go:build !wasm

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnalyzeMaxEvents: past --max-events the CLI stops reading, says so on
// stderr and in the report, and reports what it read.
func TestAnalyzeMaxEvents(t *testing.T) {
	code, out, errOut := analyze(t, "--max-events", "3", "--format", "json", "samples/w1-broad-configmaps-bookmarks.ts.http")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "stopped reading") || !strings.Contains(errOut, "--max-events") {
		t.Errorf("stderr %q does not say that reading stopped at --max-events", errOut)
	}
	var rep struct {
		Files []struct {
			Events int `json:"events"`
		} `json:"files"`
		Diagnostics []struct {
			Kind string `json:"kind"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Events != 3 {
		t.Errorf("files %+v, want one of 3 events", rep.Files)
	}
	if n := len(rep.Diagnostics); n == 0 || rep.Diagnostics[n-1].Kind != "too-many-events" {
		t.Errorf("diagnostics %+v do not end with too-many-events", rep.Diagnostics)
	}
	if _, _, errOut := analyze(t, "samples/w4-then-resume.http"); errOut != "" {
		t.Errorf("under the default cap: stderr %q", errOut)
	}
	for _, n := range []string{"0", "-1"} {
		if code, _, _ := analyze(t, "--max-events", n, "samples/w4-then-resume.http"); code != 2 {
			t.Errorf("--max-events %s: exit %d, want 2", n, code)
		}
	}
}
