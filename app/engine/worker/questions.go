//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"syscall/js"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/engine/client"
	"watchlens/app/jsrt"
	"watchlens/timeline"
)

// host is the worker's engine and its questions' bookkeeping.
type host struct {
	eng *engine.Engine
	// latest is the id of the latest question of each kind to arrive,
	// and arrived counts the questions.
	latest  map[string]int
	arrived int
	fr      canvas.Frame
	// fleetFr is the fleet's frame, kept apart from the timeline's: the
	// two views' buffers are reused each by its own frames.
	fleetFr canvas.Frame
	// reading is the files of the open question readingID, whose
	// reading began as the question arrived (startReading); nil once
	// the question took them.
	reading   *jsrt.JoinedFiles
	readingID int
	// rehearsals are the views of the capture open whose frames are yet
	// to be rehearsed (rehearse).
	rehearsals []engine.ViewState
	// buffers are the frames' buffers the page gave back.
	buffers frameBuffers
	// spec and drawn are the last frame's spec (setFrame) and the binary
	// form of its Drawn (setDrawn), their memory reused.
	spec, drawn []byte
	// lastView is the view of the last question (readView), whose
	// strings the next one's share; viewBytes its binary form's memory.
	lastView  engine.ViewState
	viewBytes []byte
}

// startReading has the files of the open question q begin to be read as
// it arrives, rather than once the question before it is answered and
// its options read: the browser's first bytes of a file come a while
// after they are asked for. A question that arrives after it ends the
// earlier one's reading, unless that question has begun (takeReading).
func (h *host) startReading(q js.Value) {
	if h.reading != nil {
		h.reading.Close()
	}
	h.reading, h.readingID = jsrt.JoinFiles(q.Get("files"), nil), q.Get("id").Int()
	h.reading.Start()
}

// takeReading is the files of the open question id as startReading
// began to read them; nil when it did not.
func (h *host) takeReading(id int) *jsrt.JoinedFiles {
	j := h.reading
	if j == nil || h.readingID != id {
		return nil
	}
	h.reading = nil
	return j
}

// open reads the Files of q.files into a new engine, with q.options
// (client.OpenOptions; none: the defaults), posting its progress on the
// way when q.progress is true, and answers what the load says at once
// (Opened, its Files apart in files); with q.view, unless the capture
// opens on the fleet (q.fleetFirst), also the first frame of that view (a
// range of 0, 0: the whole capture), its summary, the first q.zones red
// zones (zones, and their count in zonesAll), and how long each step
// took. A later open supersedes it.
func (h *host) open(q js.Value, id int, reply js.Value) error {
	opts := client.OpenOptions{Params: client.WireParams(timeline.DefaultParams())}
	if o := q.Get("options"); o.Truthy() {
		if err := json.Unmarshal([]byte(o.String()), &opts); err != nil {
			return fmt.Errorf("the load's options: %w", err)
		}
	}
	params, err := opts.Params.Read()
	if err != nil {
		return err
	}
	files := q.Get("files")
	sources := make([]engine.Source, files.Length())
	// The files are read as sections of one Blob of them all, as the
	// page reads them: each reader of the reading worker costs a round
	// trip to it before its first bytes. This thread is the engine's own,
	// with no page to yield to.
	all := h.takeReading(id)
	if all == nil {
		all = jsrt.JoinFiles(files, nil)
	}
	defer all.Close()
	for i := range sources {
		f := files.Index(i)
		size := int64(f.Get("size").Float())
		sources[i] = engine.Source{Name: f.Get("name").String(), Size: size, Data: all.Next(f, size),
			Found: i < len(opts.Found) && opts.Found[i]}
	}
	var st engine.ViewState
	view := q.Get("view")
	if view.Truthy() {
		v, err := h.readView(view)
		if err != nil {
			return fmt.Errorf("the first view: %w", err)
		}
		st = v
	}
	steps := js.Global().Get("Object").New()
	t := time.Now()
	step := func(name string) {
		steps.Set(name, float64(time.Since(t).Microseconds())/1000)
		t = time.Now()
	}
	eo := engine.Options{Filter: opts.Filter, Split: opts.Split, Params: params, MaxEvents: opts.MaxEvents,
		Cancelled: func() bool { return h.latest["open"] != id }}
	if q.Get("progress").Truthy() {
		p := &progressPoster{id: id}
		eo.Reading, eo.Progress, eo.Building = p.reading, p.read, p.building
	}
	// Paced by LoadGC while the files are read, the load collects whole
	// between two slices, with no write barrier on the parse. Building
	// and analysing have the collector's own pacing back: packing the
	// columns lets go of each chunk as it goes, which a collector kept
	// off until the answer would keep, and a large capture's peak would
	// hold both forms of its columns.
	jsrt.LoadGC.Start()
	endPacing := sync.OnceFunc(jsrt.LoadGC.Release)
	defer endPacing()
	building := eo.Building
	eo.Building = func(name string) {
		endPacing()
		if building != nil {
			building(name)
		}
	}
	eng, opened, err := engine.Open(sources, eo)
	if errors.Is(err, engine.ErrCancelled) {
		reply.Set("superseded", true)
		return nil
	}
	if err != nil {
		return err
	}
	step("open")
	h.eng = eng
	// With q.fleetFirst a capture of more files than the timeline draws
	// opens on the fleet (the page's does: a split's 10 000 virtual
	// clients), and its timeline's first frame, and that frame's
	// summary, would cross unseen.
	var first *engine.ViewState
	if view.Truthy() && (!q.Get("fleetFirst").Truthy() || len(opened.Files) <= canvas.MaxFileGroups) {
		first = &st
	}
	zones := 0
	if n := q.Get("zones"); n.Truthy() {
		zones = n.Int()
	}
	if err := h.answerOpened(reply, eng, opened, first, zones, step); err != nil {
		return err
	}
	if first != nil {
		reply.Set("steps", steps)
	}
	h.rehearsals = nil
	if first != nil {
		h.rehearsals = slices.Repeat(eng.Rehearsals(*first), rehearsalRounds)
	}
	// No reading worker is started for a next read: a worker opens one
	// load, and one started here took a core while the page rendered and
	// painted the capture.
	return nil
}

// answerOpened sets on reply what an open answers of the capture eng
// opened: opened, its files apart, and with a first view (a range of 0,
// 0: the whole capture) its frame, its summary and the first zones red
// zones, telling step of each. The warm-up answers its captures the same
// way, so that the code that draws and encodes a load's answer has run,
// and Chromium has optimised it, before the first load: otherwise it
// compiled that code on the machine's other core while the load read.
func (h *host) answerOpened(reply js.Value, eng *engine.Engine, opened engine.Opened, first *engine.ViewState, zones int, step func(string)) error {
	// The files cross apart, a list the page reads a slice at a time
	// (client.listOf): a fleet's 10 001 are a megabyte of JSON.
	listed := opened.Files
	opened.Files = nil
	if err := setJSON(reply, "opened", opened); err != nil {
		return err
	}
	if err := setJSON(reply, "files", listed); err != nil {
		return err
	}
	if first == nil {
		return nil
	}
	st := *first
	if st.From == 0 && st.To == 0 {
		st.From, st.To = opened.Extent(st.AxisRV)
	}
	d, err := h.draw(eng, &h.fr, st, reply)
	if err != nil {
		return err
	}
	step("frame")
	if err := setJSON(reply, "summary", eng.Summary(engine.SummaryOf(st, d))); err != nil {
		return err
	}
	step("summary")
	if zones > 0 {
		if err := setZones(reply, eng, zones, "zonesAll"); err != nil {
			return err
		}
		step("zones")
	}
	return nil
}

// progressPoster posts an open question's progress to the page.
type progressPoster struct {
	id int
	// next is the source read next: the engine reads them in order.
	next int
	// lastRead is when the last read progress was posted.
	lastRead time.Time
}

// readPostEvery is how often the read's progress is posted. The Builder
// tells of it every 256 events and every virtual client of a split: 14 000
// messages for a million events split into 10 000 clients, each a task
// of the page's thread, where the bar moves at most every 200 ms
// (app/load's progressEvery) anyway.
const readPostEvery = 50 * time.Millisecond

func (p *progressPoster) post(pr client.Progress) {
	b, err := json.Marshal(pr)
	if err != nil {
		return
	}
	m := js.Global().Get("Object").New()
	m.Set("id", p.id)
	m.Set("q", "open")
	m.Set("progress", string(b))
	js.Global().Call("postMessage", m)
}

// reading notes the source read next. It posts nothing: the read
// progress says which source it is of (its Source), and a message for
// each of an incident's hundreds of files took a tenth of the worker's
// time while it read them, and a task of the page's thread each.
func (p *progressPoster) reading(engine.Source) { p.next++ }

func (p *progressPoster) read(r timeline.ReadProgress) {
	if time.Since(p.lastRead) < readPostEvery {
		return
	}
	p.lastRead = time.Now()
	p.post(client.Progress{Kind: "read", Source: p.next - 1, Read: r})
}

func (p *progressPoster) building(name string) { p.post(client.Progress{Kind: "building", Name: name}) }

// analyze analyses the capture again with q.params.
func (h *host) analyze(q, reply js.Value) error {
	if h.eng == nil {
		return errors.New("no capture is open")
	}
	var w client.Params
	if err := json.Unmarshal([]byte(q.Get("params").String()), &w); err != nil {
		return fmt.Errorf("the analysis's params: %w", err)
	}
	params, err := w.Read()
	if err != nil {
		return err
	}
	a, err := h.eng.Analyze(params, nil)
	if errors.Is(err, engine.ErrCancelled) {
		reply.Set("superseded", true)
		return nil
	}
	if err != nil {
		return err
	}
	return setJSON(reply, "analyzed", a)
}

// layout answers the layout of q.view, without drawing it.
func (h *host) layout(q, reply js.Value) error {
	st, err := h.view(q)
	if err != nil {
		return err
	}
	return setJSON(reply, "layout", h.eng.Layout(st))
}

// step answers the event after (q.forward) or before the selection of
// q.view.
func (h *host) step(q, reply js.Value) error {
	st, err := h.view(q)
	if err != nil {
		return err
	}
	return setJSON(reply, "step", h.eng.Step(st, q.Get("forward").Bool()))
}

// zones answers the first q.max red zones and their count.
func (h *host) zones(q, reply js.Value) error {
	if h.eng == nil {
		return errors.New("no capture is open")
	}
	return setZones(reply, h.eng, q.Get("max").Int(), "all")
}

// setZones answers eng's first max red zones, and their count in the
// field all: the zones question's answer, and the open's (q.zones), which
// spares the page a round trip before it lists them.
func setZones(reply js.Value, eng *engine.Engine, max int, all string) error {
	rows, n := eng.Zones(max)
	reply.Set(all, n)
	return setJSON(reply, "zones", rows)
}

// frame answers the frame of q.view, and with q.summary the summary of
// what it shows (SummaryOf) in the same answer: a frame then costs the
// page one message, not two.
func (h *host) frame(q, reply js.Value) error {
	st, err := h.view(q)
	if err != nil {
		return err
	}
	d, err := h.draw(h.eng, &h.fr, st, reply)
	if err != nil || !q.Get("summary").Truthy() {
		return err
	}
	return setJSON(reply, "summary", h.eng.Summary(engine.SummaryOf(st, d)))
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
	if h.eng == nil {
		return engine.ViewState{}, errors.New("no capture is open")
	}
	return h.readView(q.Get("view"))
}

// readView reads a question's view v, engine.ViewState's binary form in
// a Uint8Array (client.setView), over the last question's, whose strings
// it shares where they are the same.
func (h *host) readView(v js.Value) (engine.ViewState, error) {
	n := v.Length()
	if cap(h.viewBytes) < n {
		h.viewBytes = make([]byte, n)
	}
	b := h.viewBytes[:n]
	js.CopyBytesToGo(b, v)
	st := h.lastView
	if err := st.UnmarshalBinary(b); err != nil {
		return engine.ViewState{}, err
	}
	h.lastView = st
	return st, nil
}

// draw has eng build the frame of st into fr and sets it on reply
// (setFrame), with what the engine answered of it (drawn), which it also
// answers.
func (h *host) draw(eng *engine.Engine, fr *canvas.Frame, st engine.ViewState, reply js.Value) (engine.Drawn, error) {
	d := eng.Frame(st, fr)
	if err := h.setFrame(reply, fr); err != nil {
		return d, err
	}
	return d, h.setDrawn(reply, d)
}

// setDrawn sets reply's drawn to the binary form of d, what the engine
// answered of a frame (engine.Drawn.AppendBinary): a frame's answer
// carries it with every pan's frame, and as JSON its bands' encoding
// and the page's decoding were most of that answer's time.
func (h *host) setDrawn(reply js.Value, d engine.Drawn) error {
	b, err := d.AppendBinary(h.drawn[:0])
	if err != nil {
		return err
	}
	h.drawn = b
	setBytes(reply, "drawn", b)
	return nil
}

// setFrame sets fr on reply as web/timeline.js's watchlensDraw takes it:
// {spec, bytes, n}; post transfers the bytes' buffer, one the page gave
// back when it has one that holds them (frameBuffers). The floats are
// copied into it from the frame's own memory (FloatBytes): a buffer
// written for each frame was nearly all a pan frame's garbage, and as
// wasm nothing runs Go's collector beside the engine, so the cycle that
// garbage made due ran whole inside a frame of the pan.
func (h *host) setFrame(reply js.Value, fr *canvas.Frame) error {
	spec, err := fr.AppendSpec(h.spec[:0])
	if err != nil {
		return err
	}
	h.spec = spec
	b, n := fr.FloatBytes()
	reply.Set("spec", string(spec))
	reply.Set("bytes", h.buffers.bytesOf(b))
	reply.Set("n", n)
	return nil
}

// setBytes sets reply[name] to a Uint8Array of b.
func setBytes(reply js.Value, name string, b []byte) {
	bytes := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(bytes, b)
	reply.Set(name, bytes)
}

// setJSON sets reply[name] to v as JSON, its UTF-8 bytes in a
// Uint8Array, which the page copies into its memory at once
// (client.bytesOf).
func setJSON(reply js.Value, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	setBytes(reply, name, b)
	return nil
}
