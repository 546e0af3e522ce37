package app

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/engine/enginetest"
	"watchlens/app/load"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// TestFileNamesHoldTheExports: a Prometheus export dropped alone is
// named in the header, though it makes no capture; dropped with a
// capture, it comes after it.
func TestFileNamesHoldTheExports(t *testing.T) {
	name := "apiserver_watch_cache_resource_version.json.gz"
	export := filepath.Join(testsample.Recording(t, "samples-lab"), "prometheus", "query_range", name)
	capture1 := "w3-then-resume.ts.http"
	w3 := testsample.Sample(t, capture1)
	for _, want := range [][]string{{name}, {capture1, name}} {
		paths := []string{export}
		if len(want) > 1 {
			paths = []string{w3, export}
		}
		_, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
		c := &capture{&load.Capture{Opened: o}}
		if got := c.fileNames(); len(o.Files) != len(want)-1 || len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != name {
			t.Errorf("%d captures, and the header names %q; want %q", len(o.Files), got, want)
		}
	}
}

// TestUnsureSplitIsADoubt: from samples-outage's audit logs alone, the
// informers the log cannot tell apart say so as a doubt in plain words,
// each file's own paragraph, and not among the problems in its input,
// which the page counts as such (before, an unsure split was one of
// them).
func TestUnsureSplitIsADoubt(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-outage"), "audit-*.log"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("samples-outage's audit logs: %v %v", paths, err)
	}
	e, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	tl := e.Analysis().TL
	r := e.Files("", len(tl.Files))
	doubting := 0
	for _, f := range r.Shown {
		html := goapp.HTMLString(renderFile(&f, false))
		mayMix := tl.Files[f.Index].MayMix()
		if mayMix {
			doubting++
		}
		if got := strings.Count(html, `<p class="doubt">At line `); (got > 0) != mayMix || got != len(f.Doubts) {
			t.Errorf("%s: %d doubts said, %d in its report, may mix %v", f.Name, got, len(f.Doubts), mayMix)
		}
		if strings.Contains(html, string(timeline.DiagUnsureSplit)) || f.Problems != o.Files[f.Index].Problems {
			t.Errorf("%s: a doubt among its %d problems in the input (%d on opening): %s", f.Name, f.Problems, o.Files[f.Index].Problems, html)
		}
	}
	if doubting != 20 {
		t.Errorf("%d files say a doubt, want samples-outage's 20 informers the audit log alone is unsure of", doubting)
	}
}

// TestSameRecordingTwiceIsADoubt: samples-real's w4-then-resume.http
// and its .ts.http copy, given together, are one recording: the copy's
// paragraph says so as a doubt, naming the other, and its count of
// problems in the input stays 0.
func TestSameRecordingTwiceIsADoubt(t *testing.T) {
	names := []string{"w4-then-resume.http", "w4-then-resume.ts.http"}
	e, _ := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, testsample.Sample(t, names[0]), testsample.Sample(t, names[1]))
	r := e.Files("", 2)
	for _, f := range r.Shown {
		html := goapp.HTMLString(renderFile(&f, false))
		said := strings.Contains(html, `<p class="doubt">A doubt: this capture holds the same watch as w4-then-resume.http `)
		if said != (f.Name == names[1]) || f.Problems != 0 {
			t.Errorf("%s: the doubt said %v, %d problems: %s", f.Name, said, f.Problems, html)
		}
	}
}

// TestClientsOfLogsAreNoEmptyCaptures: a client read from its own log
// (kube-rs') or from the audit logs (samples-outage's) has sessions and
// no events, as those logs record requests: its paragraph says where it
// was read from, with no "0 B" and no alert that no watch events were
// found, and the timeline, with no object to draw, says why rather than
// blaming a filter.
func TestClientsOfLogsAreNoEmptyCaptures(t *testing.T) {
	audits, err := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-outage"), "audit-*.log"))
	if err != nil || len(audits) == 0 {
		t.Fatalf("samples-outage's audit logs: %v %v", audits, err)
	}
	for _, c := range []struct {
		paths []string
		from  string
	}{
		{[]string{filepath.Join(testsample.Root(t), "parser", "testdata", "kubers-watcher.log")}, "kubers-watcher.log"},
		{audits, "the audit logs"},
	} {
		e, _ := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, c.paths...)
		r := e.Files("", len(e.Analysis().TL.Files))
		if len(r.Shown) == 0 {
			t.Fatalf("%s: no file shown", c.from)
		}
		var fr canvas.Frame
		e.Frame(engine.ViewState{From: e.Analysis().TL.Start(), To: e.Analysis().TL.End() + 1, Width: 1280, PixelRatio: 1, Selected: -1}, &fr)
		if !slices.ContainsFunc(fr.Texts, func(tx canvas.Text) bool {
			return tx.Text == "no objects: logs record the clients' requests, not the events they received"
		}) {
			t.Errorf("%s: the timeline's frame does not say why it draws no object", c.from)
		}
		for _, f := range r.Shown {
			html := goapp.HTMLString(renderFile(&f, false))
			if f.Events != 0 || len(f.Sessions) == 0 || f.ReadFrom != c.from {
				t.Errorf("%s: %d events in %d sessions, read from %q, want sessions and no events read from %q", f.Name, f.Events, len(f.Sessions), f.ReadFrom, c.from)
			}
			if !strings.Contains(html, "read from "+c.from+": logs record a client") || strings.Contains(html, "0 B") || strings.Contains(html, "No watch events were found") {
				t.Errorf("%s: the paragraph reads %s", f.Name, html)
			}
		}
	}
}

// TestTimeZoneNoteIsNoProblem: python-informer.log's times name no zone,
// which its first client's file notes (timeline.IsNote): a note on how
// it was read, not a problem in its input.
func TestTimeZoneNoteIsNoProblem(t *testing.T) {
	_, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, "../parser/testdata/python-informer.log")
	notes := 0
	for i := range o.Files {
		f := &o.Files[i]
		if f.Problems > 0 {
			t.Errorf("%s: %d problems, %q", f.Name, f.Problems, f.RootCause)
		}
		for _, note := range f.Notes {
			notes++
			if !strings.HasPrefix(note, "the log's times name no time zone") {
				t.Errorf("%s: the note reads %q", f.Name, note)
			}
		}
	}
	if notes != 1 {
		t.Errorf("%d notes over %d files, want the first client's", notes, len(o.Files))
	}
}
