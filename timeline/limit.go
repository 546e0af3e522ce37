package timeline

import (
	"fmt"

	"watchlens/parser"
)

// DefaultMaxEvents is NewBuilder's MaxEvents. The timeline keeps tens of
// bytes an event (and about a hundred more per object, its lane), and
// building and analysing need more for a while, so 50 M events fit in a few GB: a capture that repeats one event tens of
// millions of times compresses to a few hundred KB, and must not take the
// machine's memory.
const DefaultMaxEvents = 50_000_000

// stop records that f refused ev for the cap: the first refused event is
// where reading stopped.
func (f *FileBuilder) stop(ev parser.Event) {
	if !f.stopped {
		f.stopped, f.stoppedAt = true, ev.Offset
		f.b.stopped = true
	}
}

// Stopped says whether an event was refused because the Builder held
// MaxEvents: what it builds is then the timeline of the events before.
func (b *Builder) Stopped() bool { return b.stopped }

// withStop is the file's diagnostics, with one more saying where reading
// stopped when it did.
func (f *FileBuilder) withStop(diags []parser.Diagnostic) []parser.Diagnostic {
	if !f.stopped {
		return diags
	}
	return append(diags[:len(diags):len(diags)], parser.Diagnostic{Offset: f.stoppedAt, Kind: "too-many-events",
		Msg: fmt.Sprintf("stopped reading here: the analysis keeps at most %d events; what follows is not analysed", f.b.MaxEvents)})
}
