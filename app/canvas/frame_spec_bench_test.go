package canvas

import (
	"encoding/json"
	"testing"

	"watchlens/timeline"
)

// BenchmarkSpec writes the spec of samples-lab's whole timeline (64
// groups of tracks), by hand into a buffer reused, as the engine's
// worker does (AppendSpec), and by encoding/json as it was written
// before, side by side.
func BenchmarkSpec(b *testing.B) {
	lab := labWhole(b)
	c := NewCache(lab)
	var fr Frame
	c.Build(wholeView(lab, lab.Analyze(timeline.DefaultParams()), c, 1280), &fr)
	b.Run("by-hand", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = fr.AppendSpec(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(&fr); err != nil {
				b.Fatal(err)
			}
		}
	})
}
