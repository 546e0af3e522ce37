//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/timeline"
)

// host is the worker's engine and its questions' bookkeeping.
type host struct {
	eng *engine.Engine
	// latest is the id of the latest question of each kind to arrive.
	latest map[string]int
	fr     canvas.Frame
}

// open reads the Files of q.files into a new engine, and answers what
// the load says at once (Opened) with the first frame of q.view and its
// summary, and how long each step took. A later open supersedes it.
func (h *host) open(q js.Value, id int, reply js.Value) error {
	files := q.Get("files")
	sources := make([]engine.Source, files.Length())
	var readers []*jsrt.BlobReader
	defer func() {
		for _, r := range readers {
			r.Close()
		}
	}()
	for i := range sources {
		f := files.Index(i)
		r := jsrt.NewBlobReader(f)
		// This thread is the engine's own: there is no page to yield to.
		r.Pause = nil
		readers = append(readers, r)
		sources[i] = engine.Source{Name: f.Get("name").String(), Size: int64(f.Get("size").Float()), Data: r}
	}
	var st engine.ViewState
	if err := json.Unmarshal([]byte(q.Get("view").String()), &st); err != nil {
		return fmt.Errorf("the first view: %w", err)
	}
	steps := js.Global().Get("Object").New()
	t := time.Now()
	step := func(name string) {
		steps.Set(name, float64(time.Since(t).Microseconds())/1000)
		t = time.Now()
	}
	eng, opened, err := engine.Open(sources, engine.Options{Params: timeline.DefaultParams(),
		Cancelled: func() bool { return h.latest["open"] != id }})
	if errors.Is(err, engine.ErrCancelled) {
		reply.Set("superseded", true)
		return nil
	}
	if err != nil {
		return err
	}
	step("open")
	h.eng = eng
	if st.From == 0 && st.To == 0 {
		st.From, st.To = opened.Extent(st.AxisRV)
	}
	if err := setJSON(reply, "opened", opened); err != nil {
		return err
	}
	if err := h.drawInto(st, reply); err != nil {
		return err
	}
	step("frame")
	if err := setJSON(reply, "summary", eng.Summary(st)); err != nil {
		return err
	}
	step("summary")
	reply.Set("steps", steps)
	// The next load's reading worker, started while the page draws.
	jsrt.PrepareReadingWorker()
	return nil
}

// frame answers the frame of q.view.
func (h *host) frame(q, reply js.Value) error {
	st, err := h.view(q)
	if err != nil {
		return err
	}
	return h.drawInto(st, reply)
}

// hit answers what lies at (q.x, q.y) of the last frame of q.view.
func (h *host) hit(q, reply js.Value) error {
	st, err := h.view(q)
	if err != nil {
		return err
	}
	return setJSON(reply, "hit", h.eng.Hit(st, q.Get("x").Float(), q.Get("y").Float()))
}

// summary answers what q.view shows.
func (h *host) summary(q, reply js.Value) error {
	st, err := h.view(q)
	if err != nil {
		return err
	}
	return setJSON(reply, "summary", h.eng.Summary(st))
}

// view reads a question's view, once a capture is open.
func (h *host) view(q js.Value) (engine.ViewState, error) {
	var st engine.ViewState
	if h.eng == nil {
		return st, errors.New("no capture is open")
	}
	err := json.Unmarshal([]byte(q.Get("view").String()), &st)
	return st, err
}

// drawInto builds the frame of st and sets it on reply (setFrame), with
// what the engine answered of it (drawn).
func (h *host) drawInto(st engine.ViewState, reply js.Value) error {
	d := h.eng.Frame(st, &h.fr)
	if err := setFrame(reply, &h.fr); err != nil {
		return err
	}
	return setJSON(reply, "drawn", d)
}

// setFrame sets fr on reply as web/timeline.js's watchlensDraw takes it:
// {spec, bytes, n}; post transfers the bytes' buffer.
func setFrame(reply js.Value, fr *canvas.Frame) error {
	spec, err := fr.Spec()
	if err != nil {
		return err
	}
	b, n := fr.Floats(nil)
	bytes := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(bytes, b)
	reply.Set("spec", string(spec))
	reply.Set("bytes", bytes)
	reply.Set("n", n)
	return nil
}

// setJSON sets reply[name] to v as JSON.
func setJSON(reply js.Value, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	reply.Set(name, string(b))
	return nil
}
