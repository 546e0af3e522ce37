//go:build js && wasm

package jsrt

import (
	"fmt"
	"io"
	"syscall/js"
	"time"
)

const (
	// blobSlice is how much of a Blob the reading worker reads at once.
	// Fewer, larger reads keep the browser's own reading (its cost per read
	// is high) well ahead of the parser; the slice stays on the JS side.
	// Not larger: the slices that have arrived in the thread that
	// parses count, with its wasm memory, against V8's limit for that
	// thread's heap, and slices of 16 MiB put a 100 MB load over it, so
	// that V8 ran a full collection every 20 ms or so, which freed
	// nothing.
	blobSlice = 8 << 20
	// blobAhead is how many slices may be read and waiting: enough that the
	// parser never waits for the worker, few enough to bound the memory.
	blobAhead = 2
	// blobPiece is the most of a slice that crosses into Go per Read,
	// straight into the caller's buffer. Between pieces the page yields to
	// the browser once it has held it for HoldAtMost, so that a capture
	// that gives few events for its bytes (garbage, one endless line)
	// still lets the page paint: a piece is small enough that parsing it
	// stays well inside a frame.
	blobPiece = 1 << 20
)

// BlobReader reads a JS Blob (a dropped File, or a fetched sample) as an
// io.Reader, so that the file stays on the JS side and Go holds only what
// the parser asks for. A worker reads the slices: read on the page with
// arrayBuffer(), they would cost the page's own thread about as much as the
// parsing does, and the worker also reads ahead while Go parses.
type BlobReader struct {
	// Pause runs between the pieces of a slice: YieldIfHeld, so that the
	// page paints during a long read. A reader on a thread of its own
	// (a worker's load) has nothing to yield to, and sets it to nil.
	Pause func()

	blob    js.Value
	size    int64
	worker  js.Value // undefined until the first Read, and again after the last
	handler js.Func
	failed  js.Func
	slices  chan workerReply
	slice   js.Value // the current slice, a Uint8Array; undefined before the first
	used    int      // bytes of the slice already handed to Go
	err     error    // sticky: io.EOF or the reading error
	gen     int      // this read's number, which the worker's replies carry
}

// blobReads numbers the reads: a worker that read one blob to its end
// reads the next, and a reply to the earlier read that comes after it
// started carries the earlier number.
var blobReads int

// workerReply is one reply of the reading worker.
type workerReply struct {
	at   int64
	data js.Value // a Uint8Array, empty at the end of the blob
	err  string
}

// joinBlobs is one Blob of blobs, a JS Array of Blobs.
func joinBlobs(blobs js.Value) js.Value { return js.Global().Get("Blob").New(blobs) }

// sliceBlob is blob from byte from on; it copies no byte.
func sliceBlob(blob js.Value, from int64) js.Value { return blob.Call("slice", from) }

func NewBlobReader(blob js.Value) *BlobReader {
	return &BlobReader{Pause: YieldIfHeld, blob: blob, size: int64(blob.Get("size").Float())}
}

func (r *BlobReader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.err = r.nextSlice(); r.err == io.EOF {
		r.release()
		return 0, r.err
	} else if r.err != nil {
		r.stop()
		return 0, r.err
	}
	n := min(len(p), blobPiece, r.slice.Length()-r.used)
	js.CopyBytesToGo(p[:n], r.slice.Call("subarray", r.used, r.used+n))
	r.used += n
	return n, nil
}

// Start has the reading worker begin to read the blob now, rather than
// at the first Read: a host that knows it will read the blob soon has
// the browser's first bytes on their way meanwhile.
func (r *BlobReader) Start() {
	if r.worker.IsUndefined() && r.err == nil && r.size > 0 {
		r.start()
	}
}

// start launches the reading worker on the blob.
func (r *BlobReader) start() {
	// The worker posts at most blobAhead replies beyond what was asked, so
	// the handler never blocks on a full channel.
	r.slices = make(chan workerReply, blobAhead+1)
	blobReads++
	r.gen = blobReads
	r.handler = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := args[0].Get("data")
		if g := msg.Get("gen"); g.Type() == js.TypeNumber && g.Int() != r.gen {
			return nil // a reply to the worker's previous blob
		}
		s := workerReply{at: int64(msg.Get("at").Float())}
		if e := msg.Get("error"); e.Truthy() {
			s.err = e.String()
		} else {
			s.data = js.Global().Get("Uint8Array").New(msg.Get("buf"), 0, msg.Get("n"))
		}
		r.slices <- s
		return nil
	})
	// A worker that cannot start (its script missing from a stale cache)
	// reports it here; without this the read would wait forever.
	r.failed = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the file-reading worker " + BlobWorkerURL + " failed"
		if m := args[0].Get("message"); m.Truthy() {
			msg += ": " + m.String()
		}
		select { // an error may come more than once; the first one is enough
		case r.slices <- workerReply{err: msg}:
		default:
		}
		return nil
	})
	r.worker = takeReadingWorker()
	r.worker.Set("onmessage", r.handler)
	r.worker.Set("onerror", r.failed)
	init := js.Global().Get("Object").New()
	init.Set("gen", r.gen)
	init.Set("blob", r.blob)
	init.Set("slice", blobSlice)
	init.Set("ahead", blobAhead)
	r.worker.Call("postMessage", init)
}

// spareWorker is a reading worker started before it is needed, so that a
// read does not wait for a worker to start before its first slice.
// Undefined when there is none.
var spareWorker js.Value

// dropSpare forgets a spare worker that failed to start, so that the next
// read starts its own and hears why (its error came before anyone
// listened).
var dropSpare js.Func

// PrepareReadingWorker starts the next read's worker, when the page has
// time for it.
func PrepareReadingWorker() {
	if !spareWorker.IsUndefined() {
		return
	}
	spareWorker = js.Global().Get("Worker").New(BlobWorkerURL)
	spareWorker.Set("onerror", spareDropper())
}

// spareDropper is dropSpare, made at its first use.
func spareDropper() js.Func {
	if dropSpare.IsUndefined() {
		dropSpare = js.FuncOf(func(js.Value, []js.Value) any {
			if !spareWorker.IsUndefined() {
				spareWorker.Call("terminate")
				spareWorker = js.Undefined()
			}
			return nil
		})
	}
	return dropSpare
}

func takeReadingWorker() js.Value {
	w := spareWorker
	spareWorker = js.Undefined()
	if w.IsUndefined() {
		w = js.Global().Get("Worker").New(BlobWorkerURL)
	}
	return w
}

// Close ends the reading worker; a reader left before its end must be
// closed, or its worker lives on with the page.
func (r *BlobReader) Close() error {
	r.stop()
	return nil
}

// release keeps the worker, which read the blob to its end, for the next
// read: it becomes the spare worker unless there is one.
func (r *BlobReader) release() {
	if r.worker.IsUndefined() {
		return
	}
	if !spareWorker.IsUndefined() {
		r.stop()
		return
	}
	r.worker.Set("onmessage", nil)
	r.worker.Set("onerror", spareDropper())
	spareWorker, r.worker = r.worker, js.Undefined()
	r.handler.Release()
	r.failed.Release()
}

func (r *BlobReader) stop() {
	if r.worker.IsUndefined() {
		return
	}
	r.worker.Call("terminate")
	r.worker = js.Undefined()
	r.handler.Release()
	r.failed.Release()
}

// nextSlice awaits the next slice when the current one is used up, or
// else pauses (yields to the browser if the page has been held long
// enough): yielding by the clock rather than after every piece keeps the
// yields few on a fast parse.
func (r *BlobReader) nextSlice() error {
	if !r.slice.IsUndefined() && r.used < r.slice.Length() {
		if r.Pause != nil {
			r.Pause()
		}
		return nil
	}
	if r.worker.IsUndefined() {
		if r.size == 0 {
			return io.EOF
		}
		r.start()
	} else if !r.slice.IsUndefined() {
		// The worker reads a later slice into this one's buffer.
		give := js.Global().Get("Object").New()
		buf := r.slice.Get("buffer")
		give.Set("buf", buf)
		r.worker.Call("postMessage", give, js.Global().Get("Array").Call("of", buf))
	}
	// A slice used up is where a load's collection falls, if due: the
	// worker reads on meanwhile.
	LoadGC.collectIfDue()
	s := <-r.slices
	// Awaiting the slice gave the browser the thread.
	lastYield = time.Now()
	if s.err != "" {
		return fmt.Errorf("reading the file from byte %d: %s", s.at, s.err)
	}
	if s.data.Length() == 0 {
		if s.at < r.size {
			return fmt.Errorf("reading the file from byte %d: the browser returned nothing", s.at)
		}
		return io.EOF
	}
	r.slice, r.used = s.data, 0
	return nil
}
