package report

import (
	"io"
	"testing"

	"watchlens/internal/busywatch"
	"watchlens/parser"
	"watchlens/timeline"
)

// BenchmarkReport: the whole report of 1 M events, rendered as JSON. The
// capture is the timeline package's benchmark capture: a busy broad
// watch, 10 000 objects, a change every 3.6 ms (an hour), a bookmark a
// minute.
func BenchmarkReport(b *testing.B) {
	bl := timeline.NewBuilder()
	f := bl.AddFile("synthetic")
	busywatch.Events(1_000_000, 1, func(e parser.Event) { f.Add(e) })
	f.Finish(busywatch.Sessions(), nil)
	tl := bl.Build()
	for b.Loop() {
		if err := New(tl.Analyze(timeline.DefaultParams()), nil).WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
