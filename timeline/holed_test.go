package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"watchlens/internal/synth"
	"watchlens/internal/testsample"
	"watchlens/parser"
)

// TestHoledEstimates stages the estimated times of real captures and of
// synth's ConfigMaps (a bookmark, which has none, every 5000 events) in
// a holed column: each reads back as given, and the ConfigMaps' times,
// one a second, pack as the line they are, where a plain sealed column
// spreads every block with a bookmark in it to 8 bytes a value.
func TestHoledEstimates(t *testing.T) {
	stage := func(t *testing.T, r *parser.Reader) (est []int64, h holed[int64], plain sealed[int64]) {
		for r.Next() {
			v := r.Event().Estimated
			est = append(est, v)
			h.add(v)
			plain.add(v)
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		for i, v := range est {
			if got := h.at(i); got != v {
				t.Fatalf("value %d reads %d, staged %d", i, got, v)
			}
		}
		return est, h, plain
	}
	lab := testsample.Recording(t, "samples-lab")
	for _, name := range []string{"broad-a.ts.http", "c000-bookmarks.ts.http"} {
		f, err := os.Open(filepath.Join(lab, name))
		if err != nil {
			t.Fatal(err)
		}
		_, h, _ := stage(t, parser.NewReader(f, parser.Options{}))
		f.Close()
		if len(h.holes) == 0 {
			t.Errorf("%s: no event without a time after one with a time", name)
		}
	}
	_, h, plain := stage(t, parser.NewReader(bytes.NewReader(synth.CaptureOf(40<<20, synth.ConfigMap)), parser.Options{}))
	if h.vals.len() <= chunkSize || len(h.holes) < 2 {
		t.Fatalf("%d values, %d chunks of holes: want more than a chunk, with holes in each", h.vals.len(), len(h.holes))
	}
	wide := func(c *sealed[int64]) (n int) {
		for _, b := range c.done.blocks {
			if b.w > 0 {
				n++
			}
		}
		return n
	}
	if w, p := wide(&h.vals), wide(&plain); w != 0 || p == 0 {
		t.Errorf("blocks with bytes a value: %d holed, %d plain; want none holed", w, p)
	}
}
