package app

import (
	"bytes"
	"fmt"
	"io"

	"watchlens/parser"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// eventJSON fetches one event's JSON again from the file it came from, by
// its span in the decompressed stream. An uncompressed file is sliced on the
// JS side, so only the event's bytes cross into Go; a compressed one is
// decompressed up to the span. It runs in a goroutine.
func eventJSON(blob goapp.Value, offset, length int64) ([]byte, error) {
	head, err := blobBytes(blob, 0, 4)
	if err != nil {
		return nil, err
	}
	var span []byte
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		span, err = decompressedSpan(blob, offset, length, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) })
	case bytes.HasPrefix(head, zstdMagic):
		span, err = decompressedSpan(blob, offset, length, func(r io.Reader) (io.Reader, error) {
			return zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		})
	default:
		span, err = blobBytes(blob, offset, offset+length)
	}
	if err != nil {
		return nil, err
	}
	return parser.EventJSON(span)
}

func decompressedSpan(blob goapp.Value, offset, length int64, open func(io.Reader) (io.Reader, error)) ([]byte, error) {
	r, err := open(newBlobReader(blob))
	if err != nil {
		return nil, err
	}
	if _, err := io.CopyN(io.Discard, r, offset); err != nil {
		return nil, fmt.Errorf("decompressing up to offset %d: %w", offset, err)
	}
	span := make([]byte, length)
	if _, err := io.ReadFull(r, span); err != nil {
		return nil, fmt.Errorf("decompressing the event at offset %d: %w", offset, err)
	}
	return span, nil
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
