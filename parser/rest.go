package parser

import "errors"

// A capture's later part may be read by a Reader of its own, in another
// thread (the engine's helper worker), while the first Reader reads the
// first part: WriteRest encodes that Reader's events in a compact form,
// and Reader.Then gives them after its own, numbered as if it had read
// the whole capture. Only captures that SplitsAtLines may be cut so: any
// line end there is an event's end.

// Rest is the events of a capture's later part, as the chunks WriteRest
// emitted, in order.
type Rest interface {
	// Next returns the next chunk, and io.EOF after the last. The
	// Reader owns each chunk it is given: the strings of its events may
	// point into it. A Rest that ends before WriteRest's last chunk,
	// even at once, gives no events past those of the chunks it gave.
	// Another error ends the Reader with it (Err).
	Next() ([]byte, error)
}

// Then has r, once the events of its own input are read, give those of
// rest: the capture from the line start where r's input ends, read by
// a Reader of its own and written by WriteRest. r's events and rest's
// come as one Reader reading the whole capture gives them: their Seq,
// Offset, Session, Identity and the Diagnostics' Offset and Line go on
// from r's, rest's first session continues r's last one, and Sessions
// and Diagnostics are the whole capture's once Next has returned false.
// Raw is nil for rest's events. Call it before the first Next.
func (r *Reader) Then(rest Rest) {
	panic(errors.New("parser.Reader.Then: not written yet"))
}

// WriteRest reads every event of r, a Reader of a capture's bytes from
// offset at on (a line's start), and hands them to emit in chunks in the
// form Reader.Then reads, the last ending with r's sessions,
// diagnostics, lines read and error. emit owns each chunk. An error from
// emit stops WriteRest and is returned.
func WriteRest(r *Reader, at int64, emit func(chunk []byte) error) error {
	return errors.New("parser.WriteRest: not written yet")
}

// SplitsAtLines says whether a capture whose decoded head is h may be
// read in parts cut at any line's end (Reader.Then): newline-delimited
// JSON of events, with no compression, time prefixes or HTTP framing.
func (h Head) SplitsAtLines() bool { return false }
