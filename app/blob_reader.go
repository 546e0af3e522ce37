package app

import (
	"fmt"
	"io"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

const (
	// blobSlice is how much of a Blob is read from the browser at once.
	// Fewer, larger reads keep the browser's own reading (its cost per read
	// is high) well ahead of the parser; the slice stays on the JS side.
	blobSlice = 16 << 20
	// blobPiece is how much of a slice crosses into Go per Read. The page
	// yields to the browser between pieces, so the piece bounds the longest
	// stall while loading: parsing 1 MiB in wasm takes a few ms to about
	// 15 ms here.
	blobPiece = 1 << 20
)

// blobReader reads a JS Blob (a dropped File, or a fetched sample) as an
// io.Reader, so that the file stays on the JS side and Go holds one piece at
// a time. The next slice is requested before the current one is parsed: the
// browser reads the file on its own threads, so its reading overlaps Go's
// parsing instead of adding to it (awaiting 1 MiB slices one at a time was
// over half of a 100 MB load).
type blobReader struct {
	blob    goapp.Value
	size    int64
	next    int64       // where the next slice to request starts
	pending goapp.Value // that slice's arrayBuffer promise, nil when none
	pendAt  int64       // its offset in the file
	slice   goapp.Value // the current slice, a Uint8Array
	sliceAt int64       // its offset in the file
	used    int         // bytes of the slice already handed to Go
	buf     []byte      // the current piece
	rest    []byte      // its unread part
}

func newBlobReader(blob goapp.Value) *blobReader {
	return &blobReader{blob: blob, size: int64(blob.Get("size").Float())}
}

// request starts reading the next slice, if any is left.
func (r *blobReader) request() {
	r.pending = nil
	if r.next >= r.size {
		return
	}
	end := min(r.next+blobSlice, r.size)
	r.pending, r.pendAt = r.blob.Call("slice", float64(r.next), float64(end)).Call("arrayBuffer"), r.next
	r.next = end
}

func (r *blobReader) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		if err := r.nextPiece(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// nextPiece copies the next piece of the file into Go, awaiting the next
// slice when the current one is used up, or else yielding to the browser.
func (r *blobReader) nextPiece() error {
	if r.slice == nil || r.used == r.slice.Length() {
		if r.slice == nil && r.pending == nil {
			r.request()
		}
		if r.pending == nil {
			return io.EOF
		}
		at := r.pendAt
		ab, err := await(r.pending)
		if err != nil {
			return fmt.Errorf("reading the file from byte %d: %v", at, err)
		}
		r.slice, r.sliceAt, r.used = goapp.Window().Get("Uint8Array").New(ab), at, 0
		if r.slice.Length() == 0 {
			return fmt.Errorf("reading the file from byte %d: the browser returned nothing", at)
		}
		r.request()
	} else {
		yieldToBrowser()
	}
	n := min(blobPiece, r.slice.Length()-r.used)
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	goapp.CopyBytesToGo(r.buf, r.slice.Call("subarray", r.used, r.used+n))
	r.used += n
	r.rest = r.buf
	return nil
}
