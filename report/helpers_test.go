package report

import (
	"os"
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
