//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"syscall/js"

	"watchlens/app/engine/client"
	"watchlens/app/jsrt"
	"watchlens/parser"
)

// A large capture is read in two halves at once: this worker parses the
// first, and a helper worker of its own (a second instance of this
// worker's script, asked the rest question: rest.go) parses the second
// and hands its events over in compact chunks (parser.WriteRest), which
// this worker's parser gives after its own (parser.Reader.Then). The
// browser shares a module's optimised code among the workers that run
// it, so the helper parses at full speed from its first event.
const (
	// splitAtLeast is the smallest capture read in halves: below it the
	// helper's round trips and the merge are a larger share of the read
	// than the half of the parse they save.
	splitAtLeast = 32 << 20
	// halvesAtCores is the fewest logical cores on which a capture is
	// read in halves. Two workers parsing at once need a physical core
	// each, beside the reading workers, the page and the browser's
	// compiling: on two logical cores they share them, and the halves'
	// extra work (encoding and taking the events, a second reading
	// worker) made the load slower, not faster (docs/performance.md).
	// Logical cores are often two to a physical one: eight are four.
	halvesAtCores = 8
	// headBytes is how much of a capture's start, and of its second
	// half's start, shows that it may be cut at a line's end
	// (parser.SplitsAtLines).
	headBytes = 64 << 10
)

// helper is the helper worker, started ahead of the load that asks it
// (a spare's warm-up starts it, and has it read the warm-up's captures'
// later halves so that its code is optimised before the load), and the
// messages it posted, in order.
type helper struct {
	w         js.Value
	onMessage js.Func
	msgs      *queue[js.Value]
	asked     int
	// failed is the error that ended it (its script failed, or it ran
	// out of memory), which answers every question after.
	failed js.Value
}

// startHelper starts a helper worker of this worker's own script; nil
// where the browser gives a worker no workers of its own.
func startHelper() *helper {
	if !js.Global().Get("Worker").Truthy() {
		return nil
	}
	h := &helper{w: js.Global().Get("Worker").New(js.Global().Get("location").Get("href")), msgs: newQueue[js.Value]()}
	h.onMessage = js.FuncOf(func(_ js.Value, args []js.Value) any {
		e := args[0]
		if e.Get("type").String() != "message" {
			// Its script failed to load or start (an ErrorEvent), or a
			// message failed to arrive.
			m := js.Global().Get("Object").New()
			m.Set("error", "its script failed: "+e.Get("message").String())
			e = js.ValueOf(map[string]any{"data": m})
		}
		h.msgs.put(e.Get("data"))
		return nil
	})
	h.w.Set("onmessage", h.onMessage)
	h.w.Set("onerror", h.onMessage)
	h.w.Set("onmessageerror", h.onMessage)
	return h
}

// endHelper ends the helper worker, if there is one: the memory it grew
// goes with it.
func (h *host) endHelper() {
	if h.helper != nil {
		h.helper.end()
		h.helper = nil
	}
}

// end ends the helper worker.
func (h *helper) end() {
	h.w.Call("terminate")
	h.w.Set("onmessage", js.Null())
	h.w.Set("onerror", js.Null())
	h.w.Set("onmessageerror", js.Null())
	h.onMessage.Release()
}

// ask has the helper read file from the line after byte from on (the
// rest question), and returns the question's id.
func (h *helper) ask(file js.Value, from int64) int {
	h.asked++
	q := js.Global().Get("Object").New()
	q.Set("q", "rest")
	q.Set("id", h.asked)
	q.Set("blob", file)
	q.Set("from", from)
	h.w.Call("postMessage", q)
	return h.asked
}

// take is the helper's next message to question id, past those of the
// questions before it (a warm-up's read that the load cut short); an
// error that is no answer (its script failed, or it ran out of memory)
// is every question's.
func (h *helper) take(id int) js.Value {
	for h.failed.IsUndefined() {
		m := h.msgs.take()
		if i := m.Get("id"); i.Type() != js.TypeNumber {
			h.failed = m
		} else if i.Int() == id {
			return m
		}
	}
	return h.failed
}

// halves is one capture read in two halves: this worker reads its bytes
// up to mid, then on to the end of the line there (Read), and the
// helper reads from the next line on (Next). Where the helper cannot
// (the capture may not be cut at a line's end, or it failed), this
// worker reads the whole rest of the capture, and the rest has no
// events.
type halves struct {
	h    *helper
	id   int
	file js.Value
	mid  int64
	// tail is what Read reads after the first half: the bytes the helper
	// sent from mid to its line's end, or a reader of the rest of the
	// file; nil before the helper's first message.
	tail io.Reader
	// split says the helper reads the rest; ended that its last message
	// came.
	split, ended bool
}

// enoughCores says whether the machine has the cores to read a capture
// in halves (halvesAtCores).
func enoughCores() bool {
	n := js.Global().Get("navigator").Get("hardwareConcurrency")
	return n.Type() == js.TypeNumber && n.Int() >= halvesAtCores
}

// splits says whether the open question q reads its capture in halves:
// one capture of splitAtLeast or more, not split into virtual clients
// (which need every event's bytes: parser.Reader.Raw), on a machine
// with enoughCores, or where q.halves asks for halves whatever the
// cores (the tests on a machine of two).
func splits(q js.Value) bool {
	files, options := q.Get("files"), q.Get("options")
	if !enoughCores() && !q.Get("halves").Truthy() {
		return false
	}
	if files.Length() != 1 || int64(files.Index(0).Get("size").Float()) < splitAtLeast {
		return false
	}
	if options.Truthy() {
		var opts client.OpenOptions
		if json.Unmarshal([]byte(options.String()), &opts) != nil || opts.Split != nil {
			return false
		}
	}
	return true
}

// splitHalves asks h to read the later half of file and returns the
// halves.
func splitHalves(h *helper, file js.Value) *halves {
	mid := int64(file.Get("size").Float()) / 2
	return &halves{h: h, id: h.ask(file, mid), file: file, mid: mid}
}

// firstHalf is the Blob of the capture up to mid.
func (s *halves) firstHalf() js.Value { return s.file.Call("slice", 0, s.mid) }

// data is what this worker reads of the capture: first, the section of
// the joined read that holds its bytes up to mid, then the tail.
func (s *halves) data(first io.ReadCloser) io.ReadCloser {
	return &halfData{Reader: io.MultiReader(first, s), first: first, s: s}
}

type halfData struct {
	io.Reader
	first io.Closer
	s     *halves
}

func (d *halfData) Close() error {
	d.first.Close()
	return d.s.Close()
}

// Read reads the rest of this worker's half: on from mid to its line's
// end when the helper reads the rest, the whole rest of the file when it
// does not.
func (s *halves) Read(p []byte) (int, error) {
	if s.tail == nil {
		m := s.h.take(s.id)
		if t := m.Get("tail"); t.Truthy() {
			b := make([]byte, t.Length())
			js.CopyBytesToGo(b, t)
			s.tail, s.split = bytes.NewReader(b), true
		} else {
			// The helper refused, failed or answered its end: this
			// worker reads the rest itself.
			s.ended = true
			r := jsrt.NewBlobReader(s.file.Call("slice", s.mid))
			r.Pause = nil
			s.tail = r
		}
	}
	return s.tail.Read(p)
}

// Close ends the read of the rest, when this worker read it.
func (s *halves) Close() error {
	if c, ok := s.tail.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Next is the helper's next chunk of events (parser.Rest), io.EOF once
// it answered its end, or when it does not read the rest. A failure of
// the helper ends the read with its reason.
func (s *halves) Next() ([]byte, error) {
	if !s.split || s.ended {
		return nil, io.EOF
	}
	m := s.h.take(s.id)
	if c := m.Get("chunk"); c.Truthy() {
		b := make([]byte, c.Length())
		js.CopyBytesToGo(b, c)
		return b, nil
	}
	s.ended = true
	for _, k := range []string{"error", "fatal"} {
		if e := m.Get(k); e.Truthy() {
			return nil, errors.New("the worker that read the capture's second half failed: " + e.String())
		}
	}
	return nil, io.EOF
}

var _ parser.Rest = (*halves)(nil)
