//go:build !wasm

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func analyze(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runCLI(append([]string{"analyze"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestAnalyzeFailOn410 is what a CI job relies on: the capture whose resume
// the real server refused fails, the one whose resume it accepted passes.
func TestAnalyzeFailOn410(t *testing.T) {
	for _, tc := range []struct {
		file string
		want int
	}{
		{"samples/w4-then-resume.http", 1},
		{"samples/w4-then-resume.ts.http", 1},
		{"samples/w3-then-resume.ts.http", 0},
	} {
		code, _, errOut := analyze(t, "--fail-on", "410", tc.file)
		if code != tc.want {
			t.Errorf("analyze --fail-on 410 %s: exit %d, want %d (%s)", tc.file, code, tc.want, errOut)
		}
	}
	if code, _, _ := analyze(t, "samples/w4-then-resume.http"); code != 0 {
		t.Errorf("without --fail-on, a 410 is reported, not an exit status: exit %d", code)
	}
}

func TestAnalyzeJSONContract(t *testing.T) {
	code, out, errOut := analyze(t, "--format", "json", "samples/w4-then-resume.ts.http")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%.300s", err, out)
	}
	for _, key := range []string{"counts", "sessions", "observedErrors", "cursors", "zones", "whatIf", "anomalies", "diagnostics"} {
		if _, ok := rep[key]; !ok {
			t.Errorf("the JSON report lacks %q", key)
		}
	}
	var errs []struct {
		Code int    `json:"code"`
		X    string `json:"x"`
		Y    string `json:"y"`
	}
	if err := json.Unmarshal(rep["observedErrors"], &errs); err != nil || len(errs) != 1 || errs[0].Code != 410 || errs[0].X != "389" || errs[0].Y != "1411" {
		t.Errorf("observedErrors = %s, want the one 410: too old resource version: 389 (1411)", rep["observedErrors"])
	}
}

func TestAnalyzeFormats(t *testing.T) {
	_, text, _ := analyze(t, "samples/w3-then-resume.http")
	_, md, _ := analyze(t, "--format", "markdown", "samples/w3-then-resume.http")
	if !strings.Contains(text, "samples/w3-then-resume.http") || !strings.HasPrefix(md, "#") {
		t.Errorf("text or markdown report malformed:\n%.300s\n---\n%.300s", text, md)
	}
}

func TestAnalyzeModelFlagsChangeTheVerdict(t *testing.T) {
	// With a watch cache that keeps an hour of history and no etcd model,
	// no model refuses w4's resume until the observed 410 calibrates it.
	_, def, _ := analyze(t, "--format", "json", "samples/w4-then-resume.ts.http")
	_, wide, _ := analyze(t, "--format", "json", "--cache-window", "1h", "--etcd-interval", "0", "samples/w4-then-resume.ts.http")
	if def == wide {
		t.Error("--cache-window and --etcd-interval changed nothing in the report")
	}
}

func TestAnalyzeUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--format", "pdf", "samples/w4-then-resume.http"},
		{"--fail-on", "500", "samples/w4-then-resume.http"},
		{"--cache-window", "-1s", "samples/w4-then-resume.http"},
		{"--no-such-flag"},
	} {
		if code, _, errOut := analyze(t, args...); code != 2 || errOut == "" {
			t.Errorf("analyze %v: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
	if code, _, errOut := analyze(t, "no-such-file.log"); code != 1 || !strings.Contains(errOut, "no-such-file.log") {
		t.Errorf("a missing file: exit %d, stderr %q; want 1 naming the file", code, errOut)
	}
}
