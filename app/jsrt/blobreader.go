package jsrt

import (
	"fmt"
	"io"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

const (
	// blobSlice is how much of a Blob the reading worker reads at once.
	// Fewer, larger reads keep the browser's own reading (its cost per read
	// is high) well ahead of the parser; the slice stays on the JS side.
	blobSlice = 16 << 20
	// blobAhead is how many slices may be read and waiting: enough that the
	// parser never waits for the worker, few enough to bound the memory.
	blobAhead = 2
	// blobPiece is the most of a slice that crosses into Go per Read,
	// straight into the caller's buffer. Between pieces the page yields to
	// the browser once it has held it for HoldAtMost, so that a capture
	// that gives few events for its bytes (garbage, one endless line)
	// still lets the page paint: parsing 1 MiB in wasm takes a few ms to
	// about 15 ms here.
	blobPiece = 1 << 20
)

// BlobWorkerURL is the reading worker's script (web/blobread.js), resolved
// against the site's base path when the page mounts.
var BlobWorkerURL = "/web/blobread.js"

// BlobReader reads a JS Blob (a dropped File, or a fetched sample) as an
// io.Reader, so that the file stays on the JS side and Go holds only what
// the parser asks for. A worker reads the slices: read on the page with arrayBuffer(),
// they cost the page's own thread about as much time as the parsing did
// (measured on a 100 MB load in Chromium), and the worker also reads ahead
// while Go parses.
type BlobReader struct {
	blob    goapp.Value
	size    int64
	worker  goapp.Value // nil until the first Read, and again after the last
	handler goapp.Func
	failed  goapp.Func
	slices  chan workerReply
	slice   goapp.Value // the current slice, a Uint8Array
	used    int         // bytes of the slice already handed to Go
	err     error       // sticky: io.EOF or the reading error
	gen     int         // this read's number, which the worker's replies carry
}

// blobReads numbers the reads: a worker that read one blob to its end
// reads the next, and a reply to the earlier read that comes after it
// started carries the earlier number.
var blobReads int

// workerReply is one reply of the reading worker.
type workerReply struct {
	at   int64
	data goapp.Value // a Uint8Array, empty at the end of the blob
	err  string
}

func NewBlobReader(blob goapp.Value) *BlobReader {
	return &BlobReader{blob: blob, size: int64(blob.Get("size").Float())}
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
	goapp.CopyBytesToGo(p[:n], r.slice.Call("subarray", r.used, r.used+n))
	r.used += n
	return n, nil
}

// start launches the reading worker on the blob.
func (r *BlobReader) start() {
	// The worker posts at most blobAhead replies beyond what was asked, so
	// the handler never blocks on a full channel.
	r.slices = make(chan workerReply, blobAhead+1)
	blobReads++
	r.gen = blobReads
	r.handler = goapp.FuncOf(func(_ goapp.Value, args []goapp.Value) any {
		msg := args[0].Get("data")
		if g := msg.Get("gen"); g.Type() == goapp.TypeNumber && g.Int() != r.gen {
			return nil // a reply to the worker's previous blob
		}
		s := workerReply{at: int64(msg.Get("at").Float())}
		if e := msg.Get("error"); e.Truthy() {
			s.err = e.String()
		} else {
			s.data = goapp.Window().Get("Uint8Array").New(msg.Get("buf"), 0, msg.Get("n"))
		}
		r.slices <- s
		return nil
	})
	// A worker that cannot start (its script missing from a stale cache)
	// reports it here; without this the read would wait forever.
	r.failed = goapp.FuncOf(func(_ goapp.Value, args []goapp.Value) any {
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
	init := goapp.Window().Get("Object").New()
	init.Set("gen", r.gen)
	init.Set("blob", r.blob)
	init.Set("slice", blobSlice)
	init.Set("ahead", blobAhead)
	r.worker.Call("postMessage", init)
}

// spareWorker is a reading worker started before it is needed: starting
// one took 10 to 20 ms of the first slice's wait in a 100 MB load.
var spareWorker goapp.Value

// dropSpare forgets a spare worker that failed to start, so that the next
// read starts its own and hears why (its error came before anyone
// listened).
var dropSpare goapp.Func

// PrepareReadingWorker starts the next read's worker, when the page has
// time for it.
func PrepareReadingWorker() {
	if spareWorker != nil {
		return
	}
	spareWorker = goapp.Window().Get("Worker").New(BlobWorkerURL)
	spareWorker.Set("onerror", spareDropper())
}

// spareDropper is dropSpare, made at its first use.
func spareDropper() goapp.Func {
	if dropSpare == nil {
		dropSpare = goapp.FuncOf(func(goapp.Value, []goapp.Value) any {
			if spareWorker != nil {
				spareWorker.Call("terminate")
				spareWorker = nil
			}
			return nil
		})
	}
	return dropSpare
}

func takeReadingWorker() goapp.Value {
	w := spareWorker
	spareWorker = nil
	if w == nil {
		w = goapp.Window().Get("Worker").New(BlobWorkerURL)
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
	if r.worker == nil {
		return
	}
	if spareWorker != nil {
		r.stop()
		return
	}
	r.worker.Set("onmessage", nil)
	r.worker.Set("onerror", spareDropper())
	spareWorker, r.worker = r.worker, nil
	r.handler.Release()
	r.failed.Release()
}

func (r *BlobReader) stop() {
	if r.worker == nil {
		return
	}
	r.worker.Call("terminate")
	r.worker = nil
	r.handler.Release()
	r.failed.Release()
}

// nextSlice awaits the next slice when the current one is used up, or
// else yields to the browser if the page has been held long enough.
// Yielding between pieces of each 1 MiB cost a 100 MB load about 10 % more
// than yielding by the clock.
func (r *BlobReader) nextSlice() error {
	if r.slice != nil && r.used < r.slice.Length() {
		YieldIfHeld()
		return nil
	}
	if r.worker == nil {
		if r.size == 0 {
			return io.EOF
		}
		r.start()
	} else {
		// The worker reads a later slice into this one's buffer.
		give := goapp.Window().Get("Object").New()
		buf := r.slice.Get("buffer")
		give.Set("buf", buf)
		r.worker.Call("postMessage", give, goapp.Window().Get("Array").Call("of", buf))
	}
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
