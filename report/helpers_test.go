package report

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"watchlens/parser"
	"watchlens/timeline"
)

const samplesDir = "../samples"

// loadSamples builds one timeline of the named samples, on one clock.
func loadSamples(t testing.TB, names ...string) *timeline.Timeline {
	t.Helper()
	b := timeline.NewBuilder()
	for _, n := range names {
		f, err := os.Open(filepath.Join(samplesDir, n))
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
	f, err := os.Open(filepath.Join(samplesDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		if name, _, ok := strings.Cut(sc.Text(), "\t"); ok {
			names = append(names, name)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

// realServer is the server the samples were recorded against: etcd
// compacting every 10 s.
func realServer() timeline.Params {
	p := timeline.DefaultParams()
	p.EtcdInterval = 10e9
	return p
}
