package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// TestNotCapture: of the files an incident's folder holds (samples-lab),
// selected one by one as a user selects them all, its README and its
// tables and notes are told apart from its records, each with the
// reason the verdict gives for it. Its Prometheus config (YAML, read as
// an object with no kind) and its file of two numbers (read as a chunk
// size) were told as captures whose input had problems.
func TestNotCapture(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	want := map[string]NotCapture{
		"README.md":              LooksLikeOther,
		"TRUTH.tsv":              Unreadable,
		"SUMMARY.txt":            Unreadable,
		"loadavg.txt":            Unreadable,
		"prometheus.yml":         Unreadable,
		"range.txt":              Unreadable,
		"c000-bookmarks.ts.http": IsCapture,
		"empty.log":              Empty,
	}
	b := NewBuilder()
	for _, name := range []string{"README.md", "TRUTH.tsv", "SUMMARY.txt", "loadavg.txt", "prometheus/prometheus.yml", "prometheus/range.txt", "c000-bookmarks.ts.http", "audit-a-1.log"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AddReader(filepath.Base(name), bytes.NewReader(data), parser.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AddReader("empty.log", bytes.NewReader(nil), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	reasons := map[string]string{}
	for _, u := range tl.Unjudged() {
		reasons[u.Name] = u.Reason
	}
	seen, audit := map[string]bool{}, 0
	for fi, f := range tl.Files {
		got := tl.NotCapture(fi)
		if f.Audit {
			audit++
			if got != IsCapture {
				t.Errorf("%s, a client of an audit log, is no capture: %d", f.Name, got)
			}
			continue
		}
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		seen[f.Name] = true
		if got != w {
			t.Errorf("%s: NotCapture %d, want %d (diagnostics %v)", f.Name, got, w, f.Diagnostics)
		}
		if r := reasons[f.Name]; w != IsCapture && !strings.HasPrefix(r, "it is not a watch capture: ") {
			t.Errorf("%s is no capture, but the verdict says %q", f.Name, r)
		}
	}
	if len(seen) != len(want) || audit == 0 {
		t.Errorf("files seen %v and %d clients of the audit log, want %d files", seen, audit, len(want))
	}
}

// TestNotCaptureSplitReadme: split into virtual clients (--split-by), a
// README is read all the same, and samples-outage's holds a request that
// makes it a session; it is no capture all the same, and the page says
// what it looks like, as it did before NotCapture.
func TestNotCaptureSplitReadme(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testsample.Recording(t, "samples-outage"), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ParseSplit("namespace")
	if err != nil {
		t.Fatal(err)
	}
	b := NewBuilder()
	if err := b.AddReaderSplit("README.md", bytes.NewReader(data), parser.Options{}, sp); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	if len(tl.Files[0].Sessions) == 0 {
		t.Fatal("the README read split has no session: the test proves nothing")
	}
	if got := tl.NotCapture(0); got != LooksLikeOther {
		t.Errorf("the README read split: NotCapture %d, want LooksLikeOther", got)
	}
}
