package app

import (
	"fmt"
	"io"

	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// eventJSON fetches one event's JSON again from the file it came from, by
// its span in the decoded stream. For a plain file that span is the file's
// own bytes, sliced on the JS side so only the event crosses into Go; when
// they are not there, the file is compressed (or UTF-16) and is decoded
// again up to the span. An event from a Content-Encoding body has the
// encoded bytes of its response as span, which the parser decodes again.
// It runs in a goroutine.
func eventJSON(blob goapp.Value, ev timeline.Event) ([]byte, error) {
	fromSpan := parser.EventJSON
	if ev.Encoded {
		fromSpan = func(span []byte) ([]byte, error) { return parser.EncodedEventJSON(span, ev.BodyOffset) }
	}
	span, err := blobBytes(blob, ev.Offset, ev.Offset+ev.Length)
	if err != nil {
		return nil, err
	}
	if js, err := fromSpan(span); err == nil {
		return js, nil
	}
	blobs := newBlobReader(blob)
	defer blobs.Close()
	r := parser.Decoded(blobs)
	if _, err := io.CopyN(io.Discard, r, ev.Offset); err != nil {
		return nil, fmt.Errorf("decoding the capture up to offset %d: %w", ev.Offset, err)
	}
	span = make([]byte, ev.Length)
	if _, err := io.ReadFull(r, span); err != nil {
		return nil, fmt.Errorf("decoding the event at offset %d: %w", ev.Offset, err)
	}
	return fromSpan(span)
}

// blobBytes reads bytes [from, to) of a Blob.
func blobBytes(blob goapp.Value, from, to int64) ([]byte, error) {
	ab, err := await(blob.Call("slice", float64(from), float64(to)).Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	arr := goapp.Window().Get("Uint8Array").New(ab)
	b := make([]byte, arr.Length())
	goapp.CopyBytesToGo(b, arr)
	return b, nil
}
