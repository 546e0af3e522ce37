package report

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// loadSamples builds one timeline of the named samples, on one clock.
func loadSamples(t testing.TB, names ...string) *timeline.Timeline {
	t.Helper()
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = testsample.Sample(t, n)
	}
	return build(t, paths)
}

// loadRecording builds one timeline of a recording's files that match
// the patterns.
func loadRecording(t testing.TB, name string, patterns ...string) *timeline.Timeline {
	t.Helper()
	dir := testsample.Recording(t, name)
	var paths []string
	for _, pat := range patterns {
		matched, _ := filepath.Glob(filepath.Join(dir, pat))
		paths = append(paths, matched...)
	}
	return build(t, paths)
}

// build builds one timeline of the files at paths, each named by its
// base name, as the page names a file dropped on it.
func build(t testing.TB, paths []string) *timeline.Timeline {
	t.Helper()
	b := timeline.NewBuilder()
	for _, f := range testsample.Files(t, testsample.BaseName, paths...) {
		if err := b.AddReader(f.Name, bytes.NewReader(f.Data), parser.Options{}); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
	return b.Build()
}

// sampleNames lists the samples of MANIFEST.tsv, sorted.
func sampleNames(t *testing.T) []string {
	t.Helper()
	var names []string
	for name := range testsample.Manifest(t, testsample.Path(t, "samples")) {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// realServer is the server the samples were recorded against: etcd
// compacting every 10 s.
func realServer() timeline.Params {
	p := timeline.DefaultParams()
	p.EtcdInterval = 10e9
	return p
}
