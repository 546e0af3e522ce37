//go:build js && wasm

package main

import (
	"fmt"
	"io"
	"syscall/js"
)

// The reading worker's slices: as the page reads them (app/jsrt), so that
// the two paths differ only in where the load runs.
const (
	blobSlice = 16 << 20
	blobAhead = 2
)

// blobReader reads a Blob as an io.Reader through a worker of its own
// (web/blobread.js, started from this one at the URL the worker's script
// sets in watchlensBlobWorkerURL): the browser's reading runs on that
// worker's thread, ahead of the parser.
type blobReader struct {
	worker  js.Value
	onReply js.Func
	replies chan js.Value
	slice   js.Value // the current slice, a Uint8Array; undefined before the first
	used    int
	err     error // sticky: io.EOF or the reading error
}

// spareReader is a reading worker started before it is needed: starting
// one takes 10 to 20 ms.
type spareReader struct{ worker js.Value }

var spare spareReader

func (s *spareReader) prepare() {
	if s.worker.IsUndefined() {
		s.worker = js.Global().Get("Worker").New(js.Global().Get("watchlensBlobWorkerURL"))
	}
}

// take hands the spare worker to a reader of blob.
func (s *spareReader) take(blob js.Value) *blobReader {
	s.prepare()
	r := &blobReader{worker: s.worker, replies: make(chan js.Value, blobAhead+1), slice: js.Undefined()}
	s.worker = js.Undefined()
	r.onReply = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r.replies <- args[0].Get("data")
		return nil
	})
	r.worker.Set("onmessage", r.onReply)
	init := js.Global().Get("Object").New()
	init.Set("blob", blob)
	init.Set("slice", blobSlice)
	init.Set("ahead", blobAhead)
	r.worker.Call("postMessage", init)
	return r
}

func (r *blobReader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if r.slice.IsUndefined() || r.used == r.slice.Length() {
		if !r.slice.IsUndefined() {
			// The worker reads a later slice into this one's buffer.
			give := js.Global().Get("Object").New()
			buf := r.slice.Get("buffer")
			give.Set("buf", buf)
			r.worker.Call("postMessage", give, []any{buf})
		}
		msg := <-r.replies
		if e := msg.Get("error"); e.Truthy() {
			r.err = fmt.Errorf("reading the file from byte %d: %s", int64(msg.Get("at").Float()), e.String())
			return 0, r.err
		}
		n := msg.Get("n").Int()
		if n == 0 {
			r.err = io.EOF
			return 0, r.err
		}
		r.slice, r.used = js.Global().Get("Uint8Array").New(msg.Get("buf"), 0, n), 0
	}
	n := js.CopyBytesToGo(p, r.slice.Call("subarray", r.used, min(r.used+len(p), r.slice.Length())))
	r.used += n
	return n, nil
}

// Close ends the reading worker.
func (r *blobReader) Close() error {
	r.worker.Call("terminate")
	r.onReply.Release()
	return nil
}
