package app

import (
	"path/filepath"
	"strings"
	"testing"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

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
