package timeline

import (
	"errors"
	"io"

	"watchlens/parser"
)

// ErrCancelled is what AddReader returns once Builder.Cancel said to stop.
var ErrCancelled = errors.New("reading cancelled")

// ReadProgress is how far AddReader has read a capture.
type ReadProgress struct {
	File   string // the capture's name, as given to AddReader
	Bytes  int64  // of its input read so far (compressed, when it is)
	Events int    // kept so far, over all the Builder's files
	// Clients and OfClients are, once AddReaderSplit has read its
	// capture, how many virtual clients it has made of how many.
	Clients, OfClients int
}

// AddReader streams a capture into a new file (gzip and zstd are
// unwrapped by the parser). The error is the source's read error, or
// ErrCancelled; what was read before it is kept. An audit log and a
// client log become files of their clients only when Build runs; a
// Prometheus export is read as metrics (AddMetrics), never as a capture.
func (b *Builder) AddReader(name string, r io.Reader, opts parser.Options) error {
	head, r := parser.SniffHead(r)
	if other, err := b.addOtherKind(name, head, r, opts); other {
		return err
	}
	f := b.AddFile(name)
	if f.looksLike = head.LooksLike(); f.looksLike != "" {
		// A known format that is no watch record (an image, an archive,
		// a README): its bytes would only give diagnostics, and a
		// README's example event would be judged as a capture's.
		f.Finish(nil, nil)
		return nil
	}
	rd := parser.NewReader(r, opts)
	err := b.readEvents(f, rd, nil)
	if b.Progress != nil {
		b.Progress(ReadProgress{File: name, Bytes: rd.InputBytes(), Events: b.tab.len()})
	}
	f.Finish(rd.Sessions(), rd.Diagnostics())
	if err != nil {
		return err
	}
	return rd.Err()
}

// addOtherKind reads name, whose decoded start is head, as what head says
// it is when that is no capture (a Prometheus export, an audit log, a
// client log), and says whether it did; the error is that read's.
func (b *Builder) addOtherKind(name string, head parser.Head, r io.Reader, opts parser.Options) (bool, error) {
	switch {
	case head.Metrics() != parser.MetricsUnknown:
		return true, b.addMetricsReader(name, r, opts)
	case head.Audit():
		return true, b.addAuditReader(name, r, opts)
	case head.Klog():
		return true, b.addKlogReader(name, r, opts)
	}
	if lib := head.LibLog(); lib != 0 {
		return true, b.addLibLogReader(name, r, opts, lib)
	}
	return false, nil
}

// readEvents adds the reader's events to f, and hands each event kept to
// each when it is not nil, until the reader ends, the Builder holds
// MaxEvents or Cancel says to stop.
//
// each takes the event by value: its address, given to a func, would
// move every event read to the heap.
func (b *Builder) readEvents(f *FileBuilder, rd *parser.Reader, each func(parser.Event)) error {
	f.oneReader = true
	for rd.Next() {
		ev := rd.Current()
		if !f.add(ev) {
			f.stoppedInput = rd.InputBytes()
			return nil
		}
		if each != nil {
			each(*ev)
		}
		// Every 64 events keeps the cost of the checks (a clock read, as
		// wasm, in a browser's Pause) out of sight.
		if n := b.tab.len(); n&63 == 0 {
			if b.Pause != nil {
				b.Pause()
			}
			if b.Cancel != nil && b.Cancel() {
				return ErrCancelled
			}
			if b.Progress != nil && n&255 == 0 {
				b.Progress(ReadProgress{File: f.file.Name, Bytes: rd.InputBytes(), Events: n})
			}
		}
	}
	return nil
}
