package app

import (
	"path/filepath"
	"testing"

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
