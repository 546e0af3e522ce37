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
	return holdRest(br)
}

// holdRest returns the unread bytes of br uncopied, and takes them from
// br. A bytes.Reader's WriteTo writes them in one call of its own slice,
// which heldBytes keeps; should it write them otherwise, what heldBytes
// keeps is not the whole rest, so br is put back where it was and false
// returned, for the line reader to copy the capture into its window.
func holdRest(br *bytes.Reader) ([]byte, bool) {
	rest := br.Len()
	at := br.Size() - int64(rest)
	var h heldBytes
	if _, err := br.WriteTo(&h); err != nil || h.writes != 1 || len(h.b) != rest {
		br.Seek(at, io.SeekStart)
		return nil, false
	}
	return h.b, true
}

// heldBytes keeps the last slice written to it, uncopied, and counts the
// writes: holdRest takes what it keeps only when it came in one write.
type heldBytes struct {
	b      []byte
	writes int
}

func (h *heldBytes) Write(p []byte) (int, error) {
	h.b = p
	h.writes++
	return len(p), nil
}
