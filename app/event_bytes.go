package app

import (
	"fmt"
	"io"

	"watchlens/parser"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// eventJSON fetches one event's JSON again from the file it came from, by
// its span in the decoded stream. For a plain file that span is the file's
// own bytes, sliced on the JS side so only the event crosses into Go; when
// they are not an event there, the file is compressed (or UTF-16) and is
// decoded again up to the span. It runs in a goroutine.
func eventJSON(blob goapp.Value, offset, length int64) ([]byte, error) {
	span, err := blobBytes(blob, offset, offset+length)
	if err != nil {
		return nil, err
	}
	if js, err := parser.EventJSON(span); err == nil {
		return js, nil
	}
	r := parser.Decoded(newBlobReader(blob))
	if _, err := io.CopyN(io.Discard, r, offset); err != nil {
		return nil, fmt.Errorf("decoding the capture up to offset %d: %w", offset, err)
	}
	span = make([]byte, length)
	if _, err := io.ReadFull(r, span); err != nil {
		return nil, fmt.Errorf("decoding the event at offset %d: %w", offset, err)
	}
	return parser.EventJSON(span)
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
