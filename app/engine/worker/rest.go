//go:build js && wasm

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"syscall/js"

	"watchlens/app/jsrt"
	"watchlens/parser"
)

// rest answers the rest question q of the worker that started this one
// as its helper (halves.go): it reads q.blob from the end of the line
// that holds byte q.from on, posts {tail, at} (the bytes from q.from to
// that line's end, which the asking worker reads as its own, and where
// the rest begins), then the rest's events in chunks ({chunk}, its
// buffer transferred; parser.WriteRest). The answer that ends it says
// refused when the capture may not be cut there (parser.SplitsAtLines):
// the asking worker then reads it all itself.
func (h *host) rest(q, reply js.Value) error {
	blob, from, id := q.Get("blob"), int64(q.Get("from").Float()), q.Get("id").Int()
	// A later question supersedes it: the worker that asked has stopped
	// reading this one (a warm-up's read that a load cut short).
	superseded := func() bool { return h.latest["rest"] != id }
	if superseded() {
		return errSuperseded
	}
	head, err := jsrt.Await(blob.Call("slice", 0, headBytes).Call("arrayBuffer"))
	if err != nil {
		return err
	}
	if !parser.SplitsAtLines(goBytes(js.Global().Get("Uint8Array").New(head))) {
		reply.Set("refused", "the capture's start is not newline-delimited JSON")
		return nil
	}
	r := jsrt.NewBlobReader(blob.Call("slice", from))
	r.Pause = nil
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	tail, err := br.ReadBytes('\n')
	if err != nil {
		if err == io.EOF {
			reply.Set("refused", "no line ends after the middle of the capture")
			return nil
		}
		return err
	}
	at := from + int64(len(tail))
	next, _ := br.Peek(headBytes)
	if !parser.SplitsAtLines(next) {
		reply.Set("refused", "the line after the middle of the capture is not a whole JSON object")
		return nil
	}
	m := js.Global().Get("Object").New()
	m.Set("id", q.Get("id"))
	m.Set("q", "rest")
	m.Set("tail", jsBytes(tail))
	m.Set("at", at)
	js.Global().Call("postMessage", m)
	// The parser reads on from what br holds, then from r itself: br's
	// buffer would only be one more copy of every byte.
	held, _ := br.Peek(br.Buffered())
	rd := parser.NewReader(io.MultiReader(bytes.NewReader(held), r), parser.Options{})
	err = parser.WriteRest(rd, at, func(chunk []byte) error {
		if superseded() {
			return errSuperseded
		}
		c := jsBytes(chunk)
		m := js.Global().Get("Object").New()
		m.Set("id", q.Get("id"))
		m.Set("q", "rest")
		m.Set("chunk", c)
		js.Global().Call("postMessage", m, []any{c.Get("buffer")})
		return nil
	})
	if err != nil && err != errSuperseded {
		return errors.New("reading the capture's second half: " + err.Error())
	}
	return err
}

// errSuperseded: a later rest question came.
var errSuperseded = errors.New("a later question came")

// goBytes copies a Uint8Array into Go.
func goBytes(u8 js.Value) []byte {
	b := make([]byte, u8.Length())
	js.CopyBytesToGo(b, u8)
	return b
}

// jsBytes copies b into a new Uint8Array.
func jsBytes(b []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	return u8
}
