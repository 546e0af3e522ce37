package app

import (
	"fmt"
	"io"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// blobChunk is how much of a Blob one Read fetches from JS. Each fetch
// awaits the browser, which is when the page gets to paint and take input,
// so the chunk bounds the longest stall while loading: parsing 1 MiB in wasm
// takes a few ms to about 15 ms here, while the per-call cost of crossing
// into JS stays noise.
const blobChunk = 1 << 20

// blobReader reads a JS Blob (a dropped File, or a fetched sample) as an
// io.Reader, slice by slice, so that the file stays on the JS side and Go
// holds one chunk at a time.
type blobReader struct {
	blob goapp.Value
	size int64
	off  int64
	buf  []byte // the current chunk
	rest []byte // the unread part of buf
}

func newBlobReader(blob goapp.Value) *blobReader {
	return &blobReader{blob: blob, size: int64(blob.Get("size").Float())}
}

func (r *blobReader) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		if r.off >= r.size {
			return 0, io.EOF
		}
		end := min(r.off+blobChunk, r.size)
		ab, err := await(r.blob.Call("slice", float64(r.off), float64(end)).Call("arrayBuffer"))
		if err != nil {
			return 0, fmt.Errorf("reading bytes %d-%d: %v", r.off, end, err)
		}
		n := int(end - r.off)
		if cap(r.buf) < n {
			r.buf = make([]byte, n)
		}
		r.buf = r.buf[:n]
		got := goapp.CopyBytesToGo(r.buf, goapp.Window().Get("Uint8Array").New(ab))
		if got == 0 {
			return 0, fmt.Errorf("reading bytes %d-%d: the browser returned none", r.off, end)
		}
		r.off += int64(got)
		r.rest = r.buf[:got]
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}
