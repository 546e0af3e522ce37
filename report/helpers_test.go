package report

import (
	"os"
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
	b := timeline.NewBuilder()
	for _, n := range names {
		f, err := os.Open(testsample.Sample(t, n))
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(n, f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	return b.Build()
}

// loadRecording builds one timeline of a recording's files that match
// the patterns.
func loadRecording(t testing.TB, name string, patterns ...string) *timeline.Timeline {
	t.Helper()
	dir := testsample.Recording(t, name)
	b := timeline.NewBuilder()
	for _, pat := range patterns {
		paths, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, p := range paths {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			err = b.AddReader(filepath.Base(p), f, parser.Options{})
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
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
