package parser

import (
	"bytes"
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
)

// BenchmarkReadMetricsLab reads every Prometheus export of the lab (27
// query_range answers, three raw scrapes), as stored (gzip).
func BenchmarkReadMetricsLab(b *testing.B) {
	dir := filepath.Join(testsample.Recording(b, "samples-lab"), "prometheus")
	paths, _ := filepath.Glob(filepath.Join(dir, "query_range", "*.json.gz"))
	raw, _ := filepath.Glob(filepath.Join(dir, "metrics-*.txt.gz"))
	var files [][]byte
	size := 0
	for _, p := range append(paths, raw...) {
		files = append(files, testsample.Read(b, p))
		size += len(files[len(files)-1])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, err := ReadMetrics(bytes.NewReader(f), Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
