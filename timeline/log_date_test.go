package timeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// TestLibLogWithoutDate: fabric8's log in logback's default pattern (a
// time of day, no date), given with the lab capture its informer
// recorded, is read on the capture's date, says so, and joins that
// capture as the dated log does; the Python informer's log in
// BASIC_FORMAT (no time at all) places no event on the clock: it is a
// file of its own with no session, whose diagnostics say where each of
// its events stands and that they have no time.
func TestLibLogWithoutDate(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	tmp := t.TempDir()
	write := func(name, from, pattern, repl string) string {
		b := testsample.Read(t, filepath.Join("..", "parser", "testdata", from))
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, regexp.MustCompile(pattern).ReplaceAll(b, []byte(repl)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fabric8 := write("fabric8-tod.log", "fabric8-informer.log", `(?m)^\d{4}-\d\d-\d\d `, "")
	python := write("python-basic.log", "python-informer.log", `(?m)^\S+ \S+ ([A-Z]+) ([\w.]+): `, "$1:$2:")

	b := NewBuilder()
	addFiles(t, b, filepath.Join(dir, "c097-nobookmarks.ts.http"), fabric8)
	tl := b.Build()
	joined, noDate := false, false
	for _, f := range tl.Files {
		joined = joined || f.Log == "fabric8-tod.log" && !f.Audit && captureStem(f.Name) == "c097-nobookmarks"
		for _, d := range f.Diagnostics {
			noDate = noDate || d.Kind == DiagNoDate && strings.Contains(d.Msg, "2026-12-01, the date of the other files")
		}
	}
	if !joined || !noDate {
		t.Errorf("the time-of-day log: joined with c097 %v, its date said %v", joined, noDate)
	}

	b = NewBuilder()
	addFiles(t, b, python)
	tl = b.Build()
	if len(tl.Files) != 1 || len(tl.Files[0].Sessions) != 0 || tl.Files[0].Start != 0 {
		t.Fatalf("the BASIC_FORMAT log: %d files, the first with sessions %v from %d", len(tl.Files), tl.Files[0].Sessions, tl.Files[0].Start)
	}
	untimed, said := 0, false
	for _, d := range tl.Files[0].Diagnostics {
		switch {
		case d.Kind == parser.DiagNoTime && d.Line > 0:
			untimed++
		case d.Kind == parser.DiagNoTime:
			said = strings.Contains(d.Msg, "its events have no time")
		}
	}
	if untimed == 0 || !said {
		t.Errorf("the BASIC_FORMAT log: %d events diagnosed, the file says they have no time %v: %+v", untimed, said, tl.Files[0].Diagnostics)
	}
}

// nearFiles moves a log read on the clock's date by whole years or days
// to the other files' start, the same way for both: a log that begins
// just before New Year's midnight, or a day's, given with files that
// begin just after, stays before it; with no file of times it stays.
func TestNearFiles(t *testing.T) {
	at := func(s string) int64 {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixNano()
	}
	b := NewBuilder()
	if _, ok := b.nearFiles(at("2025-12-31T23:59:50Z"), leftYear); ok {
		t.Error("a log is moved with no file of times beside it")
	}
	f := b.AddFile("capture")
	for _, c := range []struct {
		start, first string
		part         datePart
		want         int
	}{
		{"2027-01-01T00:00:10Z", "2025-12-31T23:59:50Z", leftYear, 1},
		{"2026-06-01T00:00:10Z", "2025-12-31T23:59:50Z", leftYear, 0},
		{"2026-12-02T00:00:10Z", "2026-12-20T23:59:50Z", leftDay, -19},
		{"2026-12-02T23:59:50Z", "2026-12-20T00:00:10Z", leftDay, -17},
		{"2026-12-02T12:00:00Z", "2026-12-02T11:00:00Z", leftDay, 0},
	} {
		f.file.Start = at(c.start)
		if k, ok := b.nearFiles(at(c.first), c.part); !ok || k != c.want {
			t.Errorf("files from %s, the log from %s: moved by %d (%v), want %d", c.start, c.first, k, ok, c.want)
		}
	}
}
