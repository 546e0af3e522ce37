package parser

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
)

// BenchmarkReadMetricsLab reads the lab's Prometheus exports as stored
// (gzip): its 27 query_range answers (the JSON a lab-sized load reads),
// then its three raw scrapes.
func BenchmarkReadMetricsLab(b *testing.B) {
	dir := filepath.Join(testsample.Recording(b, "samples-lab"), "prometheus")
	for _, g := range []struct{ name, pattern string }{
		{"query_range", filepath.Join(dir, "query_range", "*.json.gz")},
		{"scrapes", filepath.Join(dir, "metrics-*.txt.gz")},
	} {
		b.Run(g.name, func(b *testing.B) {
			paths, _ := filepath.Glob(g.pattern)
			benchReadEach(b, paths, func(r io.Reader) error {
				_, err := ReadMetrics(r, Options{})
				return err
			})
		})
	}
}

// benchReadEach reads each file at paths, from memory as stored, once an
// operation, through read.
func benchReadEach(b *testing.B, paths []string, read func(io.Reader) error) {
	if len(paths) == 0 {
		b.Fatal("no file to read")
	}
	var files [][]byte
	size := 0
	for _, p := range paths {
		files = append(files, testsample.Read(b, p))
		size += len(files[len(files)-1])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if err := read(bytes.NewReader(f)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
