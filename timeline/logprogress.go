package timeline

import "io"

// logReportEvery is how many bytes of a log pass between two of
// logReader's pauses and reports.
const logReportEvery = 256 << 10

// logReader passes on the bytes of a log that one parser call reads
// whole (an audit log, a client log, a Prometheus export), doing for it
// what readEvents does for a capture's events: it pauses, stops once
// Cancel says to (ErrCancelled, as the source's read error), and reports
// the bytes read. The page's progress stayed at "0 B" while it read an
// audit log.
type logReader struct {
	b       *Builder
	name    string
	r       io.Reader
	n, next int64
}

func (b *Builder) logReader(name string, r io.Reader) *logReader {
	return &logReader{b: b, name: name, r: r}
}

func (l *logReader) Read(p []byte) (int, error) {
	if l.n >= l.next {
		l.next = l.n + logReportEvery
		if err := l.report(); err != nil {
			return 0, err
		}
	}
	k, err := l.r.Read(p)
	l.n += int64(k)
	return k, err
}

// report pauses, checks Cancel and reports progress.
func (l *logReader) report() error {
	b := l.b
	if b.Pause != nil {
		b.Pause()
	}
	if b.Cancel != nil && b.Cancel() {
		return ErrCancelled
	}
	if b.Progress != nil {
		b.Progress(ReadProgress{File: l.name, Bytes: l.n, Events: b.tab.len()})
	}
	return nil
}

// done reports the last bytes read.
func (l *logReader) done() {
	if l.b.Progress != nil {
		l.b.Progress(ReadProgress{File: l.name, Bytes: l.n, Events: l.b.tab.len()})
	}
}
