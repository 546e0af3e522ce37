package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func analyze(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(append([]string{"analyze"}, args...), &out, &errOut)
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
	if code, short, errOut := analyze(t, "--format", "md", "samples/w3-then-resume.http"); code != 0 || short != md {
		t.Errorf("--format md: exit %d (%s), or not the markdown report", code, errOut)
	}
}

// --format summary is what the page's Copy summary pastes into a
// postmortem: the verdict's lines and the key figures, a few lines of
// Markdown, not the whole report.
func TestAnalyzeSummaryToPaste(t *testing.T) {
	_, js, _ := analyze(t, "--format", "json", "samples/w4-then-resume.ts.http")
	_, md, _ := analyze(t, "--format", "markdown", "samples/w4-then-resume.ts.http")
	code, paste, errOut := analyze(t, "--format", "summary", "samples/w4-then-resume.ts.http")
	var rep struct {
		Summary []struct{ Text string } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Summary) == 0 {
		t.Fatalf("the JSON report's summary: %v", err)
	}
	if code != 0 || !strings.HasPrefix(paste, "**watchlens** on `samples/w4-then-resume.ts.http`") || len(paste)*4 > len(md) {
		t.Errorf("--format summary: exit %d (%s), %d bytes against the Markdown report's %d:\n%.400s", code, errOut, len(paste), len(md), paste)
	}
	for _, l := range rep.Summary {
		if first, _, _ := strings.Cut(l.Text, ":"); !strings.Contains(paste, "- "+first) {
			t.Errorf("the paste leaves out the summary's line %q", first)
		}
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

// cutCapture writes the timestamped capture's bytes before its line that
// starts with prefix (after the time stamp) to a temporary file.
func cutCapture(t *testing.T, path, before string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(before))
	if i < 0 {
		t.Fatalf("%s has no %q", path, before)
	}
	i = bytes.LastIndexByte(data[:i], '\n') + 1
	out := filepath.Join(t.TempDir(), "cut-"+filepath.Base(path))
	if err := os.WriteFile(out, data[:i], 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAnalyzeResumeAt asks what w4's client, cut where it dropped, would
// have got at the instant it really resumed: with the broad capture on
// the clock, refused as the server did (exit 1 under --fail-on 410);
// alone, at risk (exit 0 under --fail-on 410, 1 under --fail-on risk).
// The instant may be typed as the report writes it, or as a time of day
// in --time-zone; one the captures do not span is refused (exit 2).
func TestAnalyzeResumeAt(t *testing.T) {
	w4 := cutCapture(t, "samples/w4-then-resume.ts.http", "GET /api/v1/namespaces/quiet/configmaps?labelSelector=app%3Dquiet&resourceVersion=389")
	broad := "samples/w1-broad-configmaps-bookmarks.ts.http"
	outcomes := func(out string) map[string]string {
		var rep struct {
			ResumeAt []struct{ File, Cursor, Outcome string } `json:"resumeAt"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		got := map[string]string{}
		for _, q := range rep.ResumeAt {
			if q.File == w4 {
				got[q.Cursor] = q.Outcome
			}
		}
		return got
	}
	code, out, errOut := analyze(t, "--format", "json", "--fail-on", "410", "--resume-at", "2026-11-30T01:04:24.98Z", w4, broad)
	if code != 1 {
		t.Errorf("with the broad capture: exit %d, want 1 (%s)", code, errOut)
	}
	if got := outcomes(out); got["bookmark-aware"] != "refused" || got["bookmark-ignoring"] != "refused" || got["had-bookmarks"] != "accepted" {
		t.Errorf("with the broad capture: %v", got)
	}
	code, out, _ = analyze(t, "--format", "json", "--fail-on", "410", "--resume-at", "+1.2s", w4)
	if got := outcomes(out); code != 0 || got["bookmark-aware"] != "at-risk" || got["had-bookmarks"] != "unknown" {
		t.Errorf("alone, --fail-on 410: exit %d, %v", code, got)
	}
	if code, _, errOut := analyze(t, "--fail-on", "risk", "--resume-at", "+1.2s", w4); code != 1 ||
		!strings.HasPrefix(errOut, "watchlens analyze: --fail-on risk: ") || !strings.Contains(errOut, "w4-then-resume") {
		t.Errorf("alone, --fail-on risk: exit %d, stderr %q; want 1 and the reason", code, errOut)
	}
	for _, bad := range []string{"tomorrow", "+later", "-5m", "23:59", "25:61"} {
		if code, _, _ := analyze(t, "--resume-at", bad, w4); code != 2 {
			t.Errorf("--resume-at %q: exit %d, want 2", bad, code)
		}
	}
	// The instant as the report writes it, or a time of day in the zone
	// asked (01:04:24.98 UTC is 02:04:24.98 in Paris), asks the same.
	for _, typed := range [][]string{{"--resume-at", "2026-11-30 01:04:24.980 UTC"}, {"--time-zone", "Europe/Paris", "--resume-at", "02:04:24.98"}} {
		code, out, errOut := analyze(t, append(append([]string{"--format", "json"}, typed...), w4, broad)...)
		if got := outcomes(out); code != 0 || got["bookmark-aware"] != "refused" || got["bookmark-ignoring"] != "refused" || got["had-bookmarks"] != "accepted" {
			t.Errorf("%q: exit %d (%s), %v", typed, code, errOut, got)
		}
	}
}

// TestAnalyzeRestartFlags: a window, an instant and "detected" are taken,
// a window that ends before it starts is not, and the report's params
// carry the windows and the scope.
func TestAnalyzeRestartFlags(t *testing.T) {
	code, out, errOut := analyze(t, "--format", "json", "-servers", "2", "-restart", "2026-11-30T00:58:00Z/2026-11-30T00:59:05Z",
		"-restart", "2026-11-30T01:00:00Z", "samples/w3-then-resume.ts.http")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Params struct {
			Servers        int
			Restarts       []string
			RestartWindows []struct{ From, To string } `json:"restartWindows"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if p := rep.Params; p.Servers != 2 || len(p.RestartWindows) != 2 || p.RestartWindows[0].To != "2026-11-30T00:59:05.000000000Z" || p.Restarts[1] != "2026-11-30T01:00:00.000000000Z" {
		t.Errorf("params %+v", p)
	}
	if code, _, _ := analyze(t, "-restart", "2026-11-30T00:59:05Z/2026-11-30T00:58:00Z", "samples/w3-then-resume.ts.http"); code != 2 {
		t.Errorf("a window ending before it starts: exit %d, want 2", code)
	}
	if code, _, errOut := analyze(t, "-restart", "detected", "-servers", "2", "samples/w3-then-resume.ts.http"); code != 0 {
		t.Errorf("-restart detected: exit %d (%s)", code, errOut)
	}
	// The probable restarts' heading says whether the models apply
	// restarts: the fleet's, detected and applied, or not given.
	fleet, _ := filepath.Glob("testdata/fleet/c0*.ts.http")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append([]string{"-restart", "detected", "-servers", "2"}, fleet...), "Probable restarts (the models apply the -restart windows"},
		{fleet, "Probable restarts (not applied unless given with -restart)"},
	} {
		if _, out, _ := analyze(t, tc.args...); !strings.Contains(out, tc.want) {
			t.Errorf("analyze %v: no %q", tc.args[:min(4, len(tc.args))], tc.want)
		}
	}
}

// TestAnalyzePerfetto: --format perfetto writes a trace (report's
// WritePerfetto holds its content to the format).
func TestAnalyzePerfetto(t *testing.T) {
	code, out, errOut := analyze(t, "--format", "perfetto", "samples/w3-then-resume.ts.http")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var tr struct {
		TraceEvents []struct{ Ph string } `json:"traceEvents"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil || len(tr.TraceEvents) < 16 {
		t.Fatalf("not a trace (%v): %.200s", err, out)
	}
}

// TestAnalyzeSplitBy: --split-by label=shard makes the broad capture's
// shares clients of their own, named by their selector, in the fleet
// section; a split of one connection is no restart.
func TestAnalyzeSplitBy(t *testing.T) {
	code, out, errOut := analyze(t, "--format", "json", "--split-by", "label=shard", "testdata/fleet/broad-a.ts.http")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Files []struct{ Name string }
		Fleet *struct {
			Rows []struct{ Client string } `json:"perClient"`
		}
		Restarts []json.RawMessage `json:"detectedRestarts"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 21 || rep.Files[11].Name != "testdata/fleet/broad-a.ts.http [shard=s10]" {
		t.Fatalf("files %+v", rep.Files)
	}
	if rep.Fleet == nil || len(rep.Fleet.Rows) != 21 || !strings.Contains(rep.Fleet.Rows[0].Client, "[shard=s") {
		t.Errorf("fleet %+v", rep.Fleet)
	}
	if len(rep.Restarts) != 0 {
		t.Errorf("one connection's ends, split, are no restart: %d found", len(rep.Restarts))
	}
	// An audit log has its clients already: --split-by reads it as without.
	_, with, _ := analyze(t, "--format", "json", "--split-by", "label=shard", "testdata/fleet/audit-a-1.log")
	_, without, _ := analyze(t, "--format", "json", "testdata/fleet/audit-a-1.log")
	if with != without || !strings.Contains(with, `"perClient"`) {
		t.Errorf("an audit log split reads differently (%d and %d bytes)", len(with), len(without))
	}
	if code, _, _ := analyze(t, "--split-by", "labels", "testdata/fleet/broad-a.ts.http"); code != 2 {
		t.Errorf("a bad --split-by: exit %d, want 2", code)
	}
}
