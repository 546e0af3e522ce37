package timeline

import (
	"fmt"

	"watchlens/parser"
)

// DefaultMaxEvents is NewBuilder's MaxEvents. The timeline keeps tens of
// bytes an event, and building and analysing need more for a while, so
// 50 M events fit in a few GB: a capture that repeats one event tens of
// millions of times compresses to a few hundred KB, and must not take the
// machine's memory.
const DefaultMaxEvents = 50_000_000

// DefaultMaxObjects is NewBuilder's MaxObjects. A distinct object (its
// lane: record, name, uid and indexes) keeps about 100 bytes more than
// its events while a capture is read, and about 60 once built
// (BenchmarkKept's core/v1 Events, each a new object; docs/performance.md,
// "Kept memory per capture"), so 10 M objects take about a GB
// beside their events: 20 M distinct objects compress to 50 MB, and must
// not take the machine's memory either.
const DefaultMaxObjects = 10_000_000

// ObjectBytes is about what a distinct object keeps while a capture is
// read, beside its events, for the help of a limit on them.
const ObjectBytes = 100

// stop records that f refused ev for the cap: the first refused event is
// where reading stopped.
func (f *FileBuilder) stop(ev *parser.Event) {
	if !f.stopped {
		f.stopped, f.stoppedAt = true, ev.Offset
		f.b.stopped = true
	}
}

// Stopped says whether an event was refused because the Builder held
// MaxEvents or MaxObjects: what it builds is then the timeline of the
// events before.
func (b *Builder) Stopped() bool { return b.stopped }

// StoppedObjects says whether an event was refused because the Builder
// held MaxObjects objects and the event was of another.
func (b *Builder) StoppedObjects() bool { return b.stoppedObjects }

// FilesAdded is how many files the Builder holds before Build: the next
// capture AddReader reads is numbered so. (Build adds an audit log's
// clients after them.)
func (b *Builder) FilesAdded() int { return len(b.files) }

// StoppedAt says whether an event of file i (numbered as FilesAdded
// counts) was refused for MaxEvents and, when AddReader read it, how many
// bytes of its input it had read by then: its events up to there are
// what the timeline holds of it.
func (b *Builder) StoppedAt(i int) (inputBytes int64, stopped bool) {
	f := b.files[i]
	return f.stoppedInput, f.stopped
}

// withStop is the file's diagnostics, with one more saying where reading
// stopped when it did.
func (f *FileBuilder) withStop(diags []parser.Diagnostic) []parser.Diagnostic {
	if !f.stopped {
		return diags
	}
	if f.stoppedObjects {
		return append(diags[:len(diags):len(diags)], parser.Diagnostic{Offset: f.stoppedAt, Kind: DiagTooManyObjects,
			Msg: fmt.Sprintf("stopped reading here: the analysis keeps at most %d distinct objects; what follows is not analysed", f.b.MaxObjects)})
	}
	return append(diags[:len(diags):len(diags)], parser.Diagnostic{Offset: f.stoppedAt, Kind: parser.DiagTooManyEvents,
		Msg: fmt.Sprintf("stopped reading here: the analysis keeps at most %d events; what follows is not analysed", f.b.MaxEvents)})
}
