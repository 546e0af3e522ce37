//go:build js && wasm

// Command worker hosts the engine (package engine) in a dedicated Web
// Worker: a wasm of its own, without go-app, which reads the Files the
// page posts through app/jsrt's reading worker, owns the model, and
// answers the engine's questions over postMessage (docs/engine.md). The
// page only draws the frames it is sent. e2e/testdata/engine-worker.js
// starts it.
//
// A question is {id, q, ...}: q is "open" (files, options: the load's
// client.OpenOptions, view: the first frame's ViewState, if one is to be
// drawn, and zones: how many red zones to answer with it), "analyze"
// (params: client.Params), "frame" (view, and summary: true for the
// summary of what it shows in the same answer), "layout", "summary"
// (view), "hit" and "pick" (a click's, which a hover does not supersede:
// view, x, y), "step" (view, forward), "zones" (max), "warm" (urls, and
// incident: the files of an incident opened together, view: the
// warm-up, which has this wasm's code optimised before the first drop,
// and brief: true for the short warm-up of a worker whose code another
// worker optimised already), "hold" (nothing: it ends a warm-up while
// the user moves the view),
// or one of the panels' questions
// (panels.go: "files", "event", "find", "findings", "rangestats",
// "reconnectat", "fleet", "fleetframe", "fleethit", "fleetrange",
// "report"); the plain data as JSON. An answer
// is {id, q, ...}: its plain data as JSON in Uint8Arrays, a frame as {spec,
// bytes, n} with its buffer transferred, {superseded: true} when a later
// question of the same kind came first, or {error}. An open question
// with progress: true hears {id, q, progress} on its way
// (client.Progress).
package main

import (
	"fmt"
	"syscall/js"

	"watchlens/app/engine/client"
	"watchlens/app/jsrt"
)

func main() {
	h := &host{latest: map[string]int{}}
	// A callback must not block: the questions queue for one goroutine,
	// which answers them in turn. The latest of each kind is noted as it
	// arrives, so that a question still waiting, or a load still
	// reading, sees that a later one supersedes it.
	questions := newQueue[js.Value]()
	js.Global().Set("watchlensWorkerMessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		q := args[0]
		if b := q.Get("spare"); b.Truthy() {
			// A frame's buffer the page has drawn over: the next frame
			// is written in it.
			h.buffers.put(b)
		}
		h.latest[q.Get("q").String()] = q.Get("id").Int()
		h.arrived++
		if q.Get("q").String() == "open" {
			h.startReading(q)
		}
		questions.put(q)
		return nil
	}))
	// The first capture's reading worker starts with this one, from the
	// script the worker's own script names.
	jsrt.BlobWorkerURL = js.Global().Get("watchlensBlobWorkerURL").String()
	jsrt.PrepareReadingWorker()
	for {
		if len(h.rehearsals) == 0 {
			h.answer(questions.take())
			continue
		}
		if q, ok := questions.takeWithin(rehearseAfter); ok {
			h.answer(q)
			continue
		}
		h.rehearse(questions.waiting)
	}
}

// answer answers one question; a failure, panics included, is posted to
// the page as {id, q, error}.
func (h *host) answer(q js.Value) {
	kind, id := q.Get("q").String(), q.Get("id").Int()
	reply := js.Global().Get("Object").New()
	reply.Set("id", id)
	reply.Set("q", kind)
	defer func() {
		if r := recover(); r != nil {
			reply.Set("error", fmt.Sprintf("inside the engine's worker: %v", r))
			js.Global().Call("postMessage", reply)
		}
	}()
	if kind != "warm" {
		// Questions the page posted together arrive in tasks of their
		// own: a trip through the event loop behind them lets those
		// already sent arrive, so that a frame of a pan left behind is
		// dropped rather than drawn.
		jsrt.AfterQueuedTasks()
	}
	if client.Supersedes(kind) && id != h.latest[kind] {
		reply.Set("superseded", true)
		js.Global().Call("postMessage", reply)
		return
	}
	var err error
	switch kind {
	case "open":
		err = h.open(q, id, reply)
	case "analyze":
		err = h.analyze(q, reply)
	case "frame":
		err = h.frame(q, reply)
	case "layout":
		err = h.layout(q, reply)
	case "step":
		err = h.step(q, reply)
	case "zones":
		err = h.zones(q, reply)
	case "hit", "pick":
		err = h.hit(q, reply)
	case "summary":
		err = h.summary(q, reply)
	case "warm":
		err = h.warm(q, reply)
	case "hold":
		// Nothing: its arrival ended the warm-up that ran (warm), which
		// the page runs again once the user is still (client.Spare).
	case "files", "event", "find", "findings", "rangestats", "reconnectat", "fleet", "fleetframe", "fleethit", "fleetrange", "report":
		err = h.panel(kind, q, reply)
	default:
		err = fmt.Errorf("no such question: %q", kind)
	}
	if err != nil {
		reply.Set("error", err.Error())
	}
	post(reply)
}

// post sends a reply to the page, moving a frame's buffer rather than
// copying it.
func post(reply js.Value) {
	if b := reply.Get("bytes"); b.Truthy() {
		js.Global().Call("postMessage", reply, []any{b.Get("buffer")})
		return
	}
	js.Global().Call("postMessage", reply)
}
