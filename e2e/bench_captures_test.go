//go:build !wasm

package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"watchlens/internal/synth"
)

// benchCapture is a synthetic capture that a browser benchmark loads:
// its file's name and how to make its bytes (made only when its
// benchmark runs).
type benchCapture struct {
	name    string
	capture func() []byte
}

// write writes the capture into the benchmark's temporary directory and
// returns its path.
func (c benchCapture) write(b *testing.B) string {
	file := filepath.Join(b.TempDir(), c.name)
	must(b, os.WriteFile(file, c.capture(), 0o644))
	return file
}

// podsAndSmallEvents are the two loads that the cold and the worker
// benchmarks compare: 100 MB of pod events and a million small
// ConfigMap events.
var podsAndSmallEvents = []benchCapture{
	{"pods-100MB.jsonl", func() []byte { return synth.Capture(100 << 20) }},
	{"configmaps-1M.jsonl", func() []byte { return synth.CaptureOf(440<<20, synth.ConfigMap) }},
}
