//go:build !wasm

package e2e

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"watchlens/internal/synth"

	"github.com/klauspost/compress/gzip"
)

// BenchmarkBrowserTimelineFrame10M measures the frames of
// BenchmarkBrowserTimelineFrame over 10 M small ConfigMap events
// (internal/synth), gzip-compressed as a capture that large is kept: the
// most events a page is meant to pan within a frame's 16 ms.
// WATCHLENS_BENCH_WASM serves another build's wasm (serveBenchWasm).
func BenchmarkBrowserTimelineFrame10M(b *testing.B) {
	file := filepath.Join(b.TempDir(), "configmaps-10M.jsonl.gz")
	writeGzipCapture(b, file, 10_000_000, synth.ConfigMap)
	s := startSite(b)
	s.serveBenchWasm(b)
	benchFrames(b, s, []string{file}, "timeline-10M", nil)
}

// writeGzipCapture writes n events of event to file, gzip-compressed,
// one event at a time: the capture is larger than it is worth holding in
// memory.
func writeGzipCapture(b testing.TB, file string, n int, event func(*bytes.Buffer, int)) {
	f, err := os.Create(file)
	must(b, err)
	w := bufio.NewWriterSize(f, 1<<20)
	z, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	must(b, err)
	var e bytes.Buffer
	for i := range n {
		e.Reset()
		event(&e, i)
		_, err := z.Write(e.Bytes())
		must(b, err)
	}
	must(b, z.Close())
	must(b, w.Flush())
	must(b, f.Close())
}
