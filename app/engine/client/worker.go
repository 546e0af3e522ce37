//go:build js && wasm

package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"syscall/js"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/timeline"
)

// Worker is the engine in a dedicated Web Worker (app/engine/worker,
// which web/engine-worker.js starts), asked from the page: each question
// is a message, and the goroutine that asks waits on a channel for its
// answer, which the worker's message callback delivers. The answers are
// the in-process engine's (engine.Answerer).
//
// Ask only from a goroutine that may block: go-app's event handlers
// (dispatched to its UI goroutine, not run inside the browser's event
// callback) and ctx.Async goroutines, never from inside a js.Func the
// browser calls, whose blocking would stop the callback that answers.
//
// A Worker holds one load: Open once, then ask about it. Terminate ends
// the worker, and its wasm memory with it.
type Worker struct {
	w               js.Value
	onMessage, fail js.Func

	mu      sync.Mutex
	next    int
	waiting map[int]chan js.Value
	// latest is the id of the latest question of each kind posted.
	latest map[string]int
	// ended is closed once the worker has ended, why says why.
	ended chan struct{}
	why   error

	// asked is when the last question was posted: the page waits for a
	// still moment to start a spare worker (LastAsked).
	asked time.Time
	// framed, when set, is told of each frame question posted: the
	// user moving the view (Spare.hold).
	framed func()

	opened engine.Opened
	drawn  engine.Drawn // the last frame's, answered again for one superseded
	// fleetLayout is the last fleet frame's, likewise.
	fleetLayout canvas.FleetLayout
	floats      []byte
	// spares are the buffers of frames drawn over (GiveBack), each to
	// go back to the worker with a frame question.
	spares []js.Value
}

// ErrEnded: the worker ended (terminated, out of memory, or its script
// failed) before it answered.
var ErrEnded = errors.New("the engine's worker has ended")

// ErrOutOfMemory: the worker ended because its wasm memory could grow no
// more (ErrEnded too).
var ErrOutOfMemory = errors.New("the engine's worker ran out of memory")

// outOfMemory matches what the worker's Go runtime, or the browser, says
// when its memory can grow no more.
var outOfMemory = regexp.MustCompile(`(?i)out of memory|Maximum memory size exceeded`)

// Start starts a worker from script (web/engine-worker.js, resolved
// against the site's base path).
func Start(script string) *Worker {
	w := &Worker{waiting: map[int]chan js.Value{}, latest: map[string]int{}, ended: make(chan struct{})}
	w.w = js.Global().Get("Worker").New(script)
	w.onMessage = js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0].Get("data")
		if f := m.Get("fatal"); f.Truthy() {
			if outOfMemory.MatchString(f.String()) {
				w.end(fmt.Errorf("%w: %w: %s", ErrEnded, ErrOutOfMemory, f.String()))
			} else {
				w.end(fmt.Errorf("%w: %s", ErrEnded, f.String()))
			}
			return nil
		}
		w.mu.Lock()
		ch := w.waiting[m.Get("id").Int()]
		w.mu.Unlock()
		if ch == nil {
			return nil
		}
		if m.Get("progress").Truthy() {
			// Progress is worth a message only while the asker keeps up.
			if len(ch) < progressRoom {
				ch <- m
			}
			return nil
		}
		ch <- m // room is kept for the answer: see ask
		return nil
	})
	w.fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "its script " + script + " failed"
		if m := args[0].Get("message"); m.Truthy() {
			msg += ": " + m.String()
		}
		w.end(fmt.Errorf("%w: %s", ErrEnded, msg))
		return nil
	})
	w.w.Set("onmessage", w.onMessage)
	w.w.Set("onerror", w.fail)
	return w
}

// Terminate ends the worker: its questions still waiting answer
// ErrEnded, and the browser frees its memory.
func (w *Worker) Terminate() {
	w.end(fmt.Errorf("%w: terminated", ErrEnded))
}

// Ended says why the worker ended, nil while it runs.
func (w *Worker) Ended() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.why
}

func (w *Worker) end(why error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.why != nil {
		return
	}
	w.why = why
	w.w.Call("terminate")
	w.w.Set("onmessage", js.Null())
	w.w.Set("onerror", js.Null())
	w.releaseCallbacks()
	close(w.ended)
}

// releaseCallbacks lets go of the worker's two callbacks once it has
// ended: each js.Func is held in the Go runtime's table until released,
// and with it the Worker and its last frame's floats. Releasing one that
// is running (a fatal message ends the worker from onMessage) is safe:
// only a later call of it would fail, and the worker sends no more.
func (w *Worker) releaseCallbacks() {
	w.onMessage.Release()
	w.fail.Release()
}

// progressRoom is how many progress messages wait for the asker before
// more are dropped.
const progressRoom = 32

// ask posts the question q (its kind in q.q) and waits for its answer:
// ErrCancelled when a later question of the same kind (of the kinds
// that Supersedes) was posted before it was answered,
// ErrEnded when the worker ended first, the worker's error, or the
// answer. Each progress message on the way goes to progress; cancelled,
// checked every cancelCheck, ends the worker and answers ErrCancelled.
func (w *Worker) ask(q js.Value, progress func(Progress), cancelled func() bool) (js.Value, error) {
	w.mu.Lock()
	if w.why != nil {
		w.mu.Unlock()
		return js.Value{}, w.why
	}
	w.next++
	id := w.next
	kind := q.Get("q").String()
	w.latest[kind] = id
	w.asked = time.Now()
	// One more than the progress kept: the answer always has room.
	ch := make(chan js.Value, progressRoom+1)
	w.waiting[id] = ch
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.waiting, id)
		w.mu.Unlock()
	}()
	q.Set("id", id)
	frame := kind == "frame" || kind == "fleetframe"
	if frame {
		w.attachSpare(q)
	}
	if err := post(w.w, q); err != nil {
		return js.Value{}, err
	}
	if frame && w.framed != nil {
		w.framed()
	}
	var check <-chan time.Time
	if cancelled != nil {
		t := time.NewTicker(cancelCheck)
		defer t.Stop()
		check = t.C
	}
	for {
		select {
		case m := <-ch:
			if p := m.Get("progress"); p.Truthy() {
				var pr Progress
				if progress != nil && json.Unmarshal([]byte(p.String()), &pr) == nil {
					progress(pr)
				}
				continue
			}
			w.mu.Lock()
			left := Supersedes(kind) && w.latest[kind] != id
			w.mu.Unlock()
			// The worker drops a question superseded while it waited;
			// one it was already answering when the next came is
			// dropped here.
			if m.Get("superseded").Truthy() || left {
				return js.Value{}, engine.ErrCancelled
			}
			if e := m.Get("error"); e.Truthy() {
				return js.Value{}, errors.New(e.String())
			}
			return m, nil
		case <-w.ended:
			return js.Value{}, w.Ended()
		case <-check:
			if cancelled() {
				// The worker's memory goes with it: a load left
				// behind must not keep the heap it grew.
				w.Terminate()
				return js.Value{}, engine.ErrCancelled
			}
		}
	}
}

// post posts q to the worker w, moving its spare buffer (attachSpare)
// rather than copying it. A browser may refuse it (postMessage
// throws: an object it cannot clone, a worker it will not run): that
// is the question's error, not a panic, which would end the page's Go
// program with it, and with it every panel, over one question.
func post(w, q js.Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the browser refused the engine's worker a question: %v", r)
		}
	}()
	if b := q.Get("spare"); b.Truthy() {
		w.Call("postMessage", q, []any{b})
		return nil
	}
	w.Call("postMessage", q)
	return nil
}

// maxSpares is how many buffers given back wait for a frame question.
const maxSpares = 2

// GiveBack hands back the buffer of the frame e, which a frame question
// answered (AskEncodedFrame, AskEncodedFleetFrame) and the page drew,
// once the page has drawn another over it and holds e no more: the
// next frame question takes it to the worker, which writes a later
// frame in it rather than in memory the browser maps afresh.
func (w *Worker) GiveBack(e canvas.EncodedJS) {
	b, ok := e.Bytes.(js.Value)
	if !ok || !b.Truthy() {
		return
	}
	buf := b.Get("buffer")
	if buf.Get("byteLength").Int() == 0 {
		return // moved already
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.spares) < maxSpares {
		w.spares = append(w.spares, buf)
	}
}

// attachSpare sets a buffer given back on the frame question q, if the
// page gave one back.
func (w *Worker) attachSpare(q js.Value) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := len(w.spares); n > 0 {
		q.Set("spare", w.spares[n-1])
		w.spares = w.spares[:n-1]
	}
}

// cancelCheck is how often a load checks whether the page has left it.
const cancelCheck = 20 * time.Millisecond

// question is a new question of kind.
func question(kind string) js.Value {
	q := js.Global().Get("Object").New()
	q.Set("q", kind)
	return q
}

// setJSON sets q[name] to v as JSON.
func setJSON(q js.Value, name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// The questions' plain data always encodes.
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	q.Set(name, string(b))
}

// setView sets q's view to st in its binary form (engine.ViewState.
// AppendBinary), which the worker reads at each of a pan's frames.
func setView(q js.Value, st engine.ViewState) {
	b, _ := st.AppendBinary(nil) // a view always encodes
	a := uint8Array.New(len(b))
	js.CopyBytesToJS(a, b)
	q.Set("view", a)
}

// answerOf reads the answer's field name, JSON, into v.
func answerOf(m js.Value, name string, v any) error {
	b, err := bytesOf(m, name)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// drawnOf reads a frame's answer's drawn, in binary (engine.Drawn's
// UnmarshalBinary), into d.
func drawnOf(m js.Value, d *engine.Drawn) error {
	b, err := bytesOf(m, "drawn")
	if err != nil {
		return err
	}
	return d.UnmarshalBinary(b)
}

// bytesOf is a copy of the answer's field name, a Uint8Array. The worker
// answers its plain data as UTF-8 bytes, not strings: syscall/js reads a
// string by encoding it anew (TextEncoder) into a buffer it then copies,
// where bytes are one copy (docs/engine.md, "The codec").
func bytesOf(m js.Value, name string) ([]byte, error) {
	f := m.Get(name)
	if f.Type() != js.TypeObject || !f.InstanceOf(uint8Array) {
		return nil, fmt.Errorf("the engine's worker answered no %s", name)
	}
	b := make([]byte, f.Length())
	js.CopyBytesToGo(b, f)
	return b, nil
}

// uint8Array is the page's Uint8Array constructor.
var uint8Array = js.Global().Get("Uint8Array")

// Source is one file a load reads: a Blob (a dropped File) and its
// name, which may differ from the File's own (a folder's path).
type Source struct {
	Name string
	Blob js.Value
	// Found: found in a dropped folder (engine.Source.Found).
	Found bool
}

// Open has the worker read sources into its engine (engine.Open), with
// opts's filter, split, params and event limit; opts's Reading, Progress
// and Building hear of the load's progress from the worker (Reading of
// the source a progress is of, before the first such progress: the
// worker posts its progress a few times a second, not once a file), and once
// opts.Cancelled says so the worker is ended and Open answers
// ErrCancelled. opts.Pause is not needed: the page's thread is free.
func (w *Worker) Open(sources []Source, opts engine.Options) (engine.Opened, error) {
	if _, err := w.open(sources, opts, nil, 0, nil); err != nil {
		return engine.Opened{}, err
	}
	return w.opened, nil
}

// First is a load's first frame, answered with the load (OpenFirst).
type First struct {
	// OnFleet: the capture has more files than the timeline draws and
	// opens on the fleet, so the worker drew no frame and the rest of
	// First is empty.
	OnFleet bool
	// View is the view drawn, its range filled in when it asked for the
	// whole capture (0, 0).
	View    engine.ViewState
	Drawn   engine.Drawn
	Summary engine.ViewSummary
	// Frame is the frame as the worker encoded it (see
	// AskEncodedFrame): the page draws it as it came.
	Frame canvas.EncodedJS
	// Zones are the first red zones OpenFirst asked for, of ZonesAll.
	Zones    []engine.ZoneRow
	ZonesAll int
}

// OpenFirst is Open, with the first frame of view drawn in the same
// answer, as it came (First.Frame), and the first zoneRows red zones: a
// page shows the load, its timeline drawn and its zones listed, at once,
// rather than ask for them once the load is shown. A capture that opens
// on the fleet has none of them (First.OnFleet). arrived, if not nil, is
// told as the answer arrives, before it is read.
func (w *Worker) OpenFirst(sources []Source, opts engine.Options, view engine.ViewState, zoneRows int, arrived func()) (engine.Opened, First, error) {
	m, err := w.open(sources, opts, &view, zoneRows, arrived)
	if err != nil {
		return engine.Opened{}, First{}, err
	}
	if m.Get("drawn").IsUndefined() {
		return w.opened, First{OnFleet: true}, nil
	}
	f := First{View: view}
	if f.View.From == 0 && f.View.To == 0 {
		f.View.From, f.View.To = w.opened.Extent(view.AxisRV)
	}
	if err := drawnOf(m, &f.Drawn); err != nil {
		return engine.Opened{}, First{}, err
	}
	if err := answerOf(m, "summary", &f.Summary); err != nil {
		return engine.Opened{}, First{}, err
	}
	f.Frame = encodedOf(m)
	if zoneRows > 0 {
		if err := answerOf(m, "zones", &f.Zones); err != nil {
			return engine.Opened{}, First{}, err
		}
		f.ZonesAll = m.Get("zonesAll").Int()
	}
	w.drawn = f.Drawn
	return w.opened, f, nil
}

// open asks the open question, with the first view to draw if view is
// not nil and the first zoneRows red zones with it, tells arrived (if not
// nil) once the answer is in, and reads its Opened.
func (w *Worker) open(sources []Source, opts engine.Options, view *engine.ViewState, zoneRows int, arrived func()) (js.Value, error) {
	files := js.Global().Get("Array").New()
	oo := OpenOptions{Filter: opts.Filter, Split: opts.Split, Params: WireParams(opts.Params), MaxEvents: opts.MaxEvents}
	for _, s := range sources {
		f := s.Blob
		if f.Get("name").Type() != js.TypeString || f.Get("name").String() != s.Name {
			// The worker names each file by its File's name.
			f = js.Global().Get("File").New([]any{s.Blob}, s.Name)
		}
		files.Call("push", f)
		oo.Found = append(oo.Found, s.Found)
	}
	q := question("open")
	q.Set("files", files)
	q.Set("progress", true)
	setJSON(q, "options", oo)
	if view != nil {
		setView(q, *view)
		// As the page does, a capture of more files than the timeline
		// draws opens on the fleet: the worker draws it no first frame.
		q.Set("fleetFirst", true)
		if zoneRows > 0 {
			q.Set("zones", zoneRows)
		}
	}
	told := -1 // the source opts.Reading was last told of
	progress := func(p Progress) {
		switch p.Kind {
		case "read":
			if opts.Reading != nil && p.Source != told && p.Source >= 0 && p.Source < len(sources) {
				told = p.Source
				s := sources[p.Source]
				opts.Reading(engine.Source{Name: s.Name, Size: int64(s.Blob.Get("size").Float()), Found: s.Found})
			}
			if opts.Progress != nil {
				opts.Progress(p.Read)
			}
		case "building":
			if opts.Building != nil {
				opts.Building(p.Name)
			}
		}
	}
	m, err := w.ask(q, progress, opts.Cancelled)
	if err != nil {
		return m, err
	}
	if arrived != nil {
		arrived()
	}
	w.opened = engine.Opened{}
	if err := answerOf(m, "opened", &w.opened); err != nil {
		return m, err
	}
	if err := listOf(m, "files", &w.opened.Files); err != nil {
		return m, err
	}
	return m, nil
}

// Opened is the load's answer, with the verdict of the latest analysis
// kept.
func (w *Worker) Opened() engine.Opened { return w.opened }

// LastAsked is when the page last asked the worker a question: a frame,
// a hover, a panel's figures.
func (w *Worker) LastAsked() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.asked
}

// Analyze has the worker analyse its capture again with params; a later
// Analyze supersedes it (ErrCancelled). pause is not needed.
func (w *Worker) Analyze(params timeline.Params, _ func()) (engine.Analyzed, error) {
	q := question("analyze")
	setJSON(q, "params", WireParams(params))
	m, err := w.ask(q, nil, nil)
	if err != nil {
		return engine.Analyzed{}, err
	}
	var a engine.Analyzed
	if err := answerOf(m, "analyzed", &a); err != nil {
		return engine.Analyzed{}, err
	}
	w.opened.Analyzed = a
	return a, nil
}

// AskFrame has the worker build the frame of st and reads it into fr: its
// spec and its floats, whose buffer the worker transferred. A later frame
// question supersedes it (ErrCancelled), leaving fr as it was.
func (w *Worker) AskFrame(st engine.ViewState, fr *canvas.Frame) (engine.Drawn, error) {
	m, d, err := w.askFrame(st, false)
	if err != nil {
		return engine.Drawn{}, err
	}
	if err := w.readFrame(m, fr); err != nil {
		return engine.Drawn{}, err
	}
	w.drawn = d
	return d, nil
}

// AskEncodedFrame is AskFrame for a page that draws the frame: it answers
// the frame as the worker encoded it, its spec and bytes the JS values
// that came, which the page hands to web/timeline.js as they are. With
// summary the worker also answers the summary of what the frame shows
// (engine.SummaryOf). A frame question still waiting in the worker when
// a later one comes is superseded (ErrCancelled).
func (w *Worker) AskEncodedFrame(st engine.ViewState, summary bool) (d engine.Drawn, s engine.ViewSummary, e canvas.EncodedJS, err error) {
	m, d, err := w.askFrame(st, summary)
	if err != nil {
		return d, s, e, err
	}
	if summary {
		if err := answerOf(m, "summary", &s); err != nil {
			return d, s, e, err
		}
	}
	w.drawn = d
	return d, s, encodedOf(m), nil
}

// encodedOf is the frame of answer m ({spec, bytes, n}) as it came.
func encodedOf(m js.Value) canvas.EncodedJS {
	return canvas.EncodedJS{Spec: m.Get("spec"), Bytes: m.Get("bytes"), N: m.Get("n").Int()}
}

// askFrame asks the worker for the frame of st, with its summary if
// summary, and answers the answer and what the engine drew.
func (w *Worker) askFrame(st engine.ViewState, summary bool) (js.Value, engine.Drawn, error) {
	q := question("frame")
	setView(q, st)
	if summary {
		q.Set("summary", true)
	}
	// Read over the last frame's, whose labels it mostly shares.
	d := w.drawn
	m, err := w.ask(q, nil, nil)
	if err != nil {
		return m, engine.Drawn{}, err
	}
	return m, d, drawnOf(m, &d)
}

// Frame is AskFrame for the page's view: a frame superseded by a later
// one, or that the worker could not answer, leaves fr and answers the
// last frame's Drawn, and the later frame replaces it.
func (w *Worker) Frame(st engine.ViewState, fr *canvas.Frame) engine.Drawn {
	d, err := w.AskFrame(st, fr)
	if err != nil {
		return w.drawn
	}
	return d
}

// Layout answers the layout of st without drawing it; the zero Layout
// when the worker could not answer (see Ended).
func (w *Worker) Layout(st engine.ViewState) canvas.Layout {
	var l canvas.Layout
	w.viewQuestion("layout", st, "layout", &l)
	return l
}

// Hit answers what lies at (x, y) of the last frame of st; no hit (Event
// and Group -1) when superseded or unanswered.
func (w *Worker) Hit(st engine.ViewState, x, y float64) engine.Hit {
	h, err := w.askHit("hit", st, x, y)
	if err != nil {
		return engine.Hit{Event: -1, Group: -1}
	}
	return h
}

// Pick is Hit for a click: a pointer's hover that follows does not
// supersede it (client.Supersedes), and it says why it has no answer.
func (w *Worker) Pick(st engine.ViewState, x, y float64) (engine.Hit, error) {
	return w.askHit("pick", st, x, y)
}

func (w *Worker) askHit(kind string, st engine.ViewState, x, y float64) (engine.Hit, error) {
	q := question(kind)
	setView(q, st)
	q.Set("x", x)
	q.Set("y", y)
	h := engine.Hit{Event: -1, Group: -1}
	m, err := w.ask(q, nil, nil)
	if err != nil {
		return h, err
	}
	if err := answerOf(m, "hit", &h); err != nil {
		return engine.Hit{Event: -1, Group: -1}, err
	}
	return h, nil
}

// Summary answers what st shows; the zero summary when superseded or
// unanswered.
func (w *Worker) Summary(st engine.ViewState) engine.ViewSummary {
	var s engine.ViewSummary
	w.viewQuestion("summary", st, "summary", &s)
	return s
}

// Step answers the event after (forward) or before the selection of st;
// none (Event -1) when unanswered.
func (w *Worker) Step(st engine.ViewState, forward bool) engine.Step {
	q := question("step")
	setView(q, st)
	q.Set("forward", forward)
	s := engine.Step{Event: -1}
	if m, err := w.ask(q, nil, nil); err == nil {
		if answerOf(m, "step", &s) != nil {
			s = engine.Step{Event: -1}
		}
	}
	return s
}

// Zones answers the first max red zones and how many there are; none
// when unanswered.
func (w *Worker) Zones(max int) ([]engine.ZoneRow, int) {
	q := question("zones")
	q.Set("max", max)
	m, err := w.ask(q, nil, nil)
	if err != nil {
		return nil, 0
	}
	var rows []engine.ZoneRow
	if answerOf(m, "zones", &rows) != nil {
		return nil, 0
	}
	return rows, m.Get("all").Int()
}

// viewQuestion asks the question kind about st and reads the answer's
// field name into v, left as it is when there is none.
func (w *Worker) viewQuestion(kind string, st engine.ViewState, name string, v any) {
	q := question(kind)
	setView(q, st)
	if m, err := w.ask(q, nil, nil); err == nil {
		_ = answerOf(m, name, v)
	}
}

// Warm has the worker run the page's warm-up on its own wasm (the
// captures at urls, then the files at incident opened together, and
// their first frames of view), so that its code is optimised before the
// load that takes it; brief has it open each once, for a worker whose
// code another worker of the page optimised already. A question asked
// meanwhile ends the warm-up early. It answers whether the warm-up ran
// to its end.
func (w *Worker) Warm(urls, incident []string, view engine.ViewState, brief bool) (bool, error) {
	q := question("warm")
	q.Set("urls", arrayOf(urls))
	q.Set("incident", arrayOf(incident))
	q.Set("brief", brief)
	setView(q, view)
	m, err := w.ask(q, nil, nil)
	if err != nil {
		return false, err
	}
	return m.Get("warmed").Truthy(), nil
}

// endWarmUp ends the warm-up w runs, if any, at its next step: any
// question that arrives does (the worker's warm).
func (w *Worker) endWarmUp() {
	go func() { _, _ = w.ask(question("hold"), nil, nil) }()
}

// arrayOf is strs as a JavaScript Array.
func arrayOf(strs []string) js.Value {
	a := js.Global().Get("Array").New()
	for _, s := range strs {
		a.Call("push", s)
	}
	return a
}

var _ engine.Answerer = (*Worker)(nil)
