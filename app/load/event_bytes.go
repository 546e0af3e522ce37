package load

import (
	"io"

	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"
	"watchlens/parser"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// EventsJSON fetches events' JSON again from the file they came from, a
// Blob: parser.EventsJSON reads their spans, sliced on the JS side so only
// an event crosses into Go, and decodes the file again when it must. It
// runs in a goroutine.
func EventsJSON(blob goapp.Value, spans ...parser.EventSpan) ([][]byte, error) {
	return parser.EventsJSON(spans,
		func(from, to int64) ([]byte, error) { return blobBytes(blob, from, to) },
		func() (io.ReadCloser, error) { return jsrt.NewBlobReader(goappjs.Unwrap(blob)), nil })
}

// blobBytes reads bytes [from, to) of a Blob.
func blobBytes(blob goapp.Value, from, to int64) ([]byte, error) {
	ab, err := jsrt.Await(goappjs.Unwrap(blob.Call("slice", float64(from), float64(to)).Call("arrayBuffer")))
	if err != nil {
		return nil, err
	}
	arr := goapp.Window().Get("Uint8Array").New(ab)
	b := make([]byte, arr.Length())
	goapp.CopyBytesToGo(b, arr)
	return b, nil
}
