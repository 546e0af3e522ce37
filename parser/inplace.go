package parser

import (
	"bytes"
	"io"
)

// inPlaceSample is how much of a capture's start is looked at for the
// length of its lines, and minInPlaceLine the average line length from
// which it is read in place: a capture of shorter lines (pretty-printed
// JSON, YAML) is searched for line ends in many short runs, which cost
// more on bytes not yet in the processor's cache than a copy into the
// window, which stays there, costs.
const (
	inPlaceSample  = 16 << 10
	minInPlaceLine = 256
)

// inPlaceBytes returns the rest of r, and takes it from r, when r is a
// bytes.Reader of plain text (neither compressed nor UTF-16 or UTF-32)
// in long lines: the whole capture is then in memory already, and the
// line reader cuts its lines where they are instead of copying them
// into its window.
func inPlaceBytes(r io.Reader) ([]byte, bool) {
	br, ok := r.(*bytes.Reader)
	if !ok || br.Len() == 0 {
		return nil, false
	}
	sample := make([]byte, min(br.Len(), inPlaceSample))
	n, _ := br.ReadAt(sample, br.Size()-int64(br.Len()))
	head := sample[:n]
	if isGzip(head) || isZstd(head) {
		return nil, false
	}
	if w, _ := sniffWide(head); w > 0 {
		return nil, false
	}
	if bytes.Count(head, []byte{'\n'}) > len(head)/minInPlaceLine {
		return nil, false
	}
	var h heldBytes
	br.WriteTo(&h)
	return h.b, true
}

// heldBytes keeps what is written to it, uncopied: a bytes.Reader's
// WriteTo writes its own unread bytes in one call.
type heldBytes struct{ b []byte }

func (h *heldBytes) Write(p []byte) (int, error) {
	h.b = p
	return len(p), nil
}
