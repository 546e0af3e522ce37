package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"watchlens/timeline"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

// The report's JSON is a contract: golden files per sample, and one for
// all samples on one clock. Run with -update to rewrite them.
func TestGoldenReports(t *testing.T) {
	all := sampleNames(t)
	cases := map[string][]string{"all-samples": all}
	for _, n := range all {
		cases[n] = []string{n}
	}
	for golden, names := range cases {
		var buf bytes.Buffer
		if err := New(loadSamples(t, names...).Analyze(timeline.DefaultParams()), nil).WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", golden+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./report -run Golden -update)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: report differs from %s (run with -update if intended)", golden, path)
		}
	}
}
