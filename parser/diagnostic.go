package parser

import "fmt"

// Diagnostic is one problem found in the input. The reader records it and
// reads on from the next event it can find.
type Diagnostic struct {
	// Offset is the byte offset in the decompressed stream (raw file offset
	// for compression errors). For a problem inside a Content-Encoding-
	// encoded response body it is that of the piece of encoded bytes whose
	// decoding showed it, and Line that piece's line; Msg then tells where
	// in the decoded body.
	Offset int64
	Line   int    // 1-based line in the decompressed stream, 0 when unknown
	Kind   string // short, stable identifier, e.g. "bad-json", "bad-chunk", "too-big", "no-type"
	Msg    string // plain message for a person
}

func (d Diagnostic) String() string {
	if d.Line > 0 {
		return fmt.Sprintf("offset %d (line %d): %s: %s", d.Offset, d.Line, d.Kind, d.Msg)
	}
	return fmt.Sprintf("offset %d: %s: %s", d.Offset, d.Kind, d.Msg)
}
