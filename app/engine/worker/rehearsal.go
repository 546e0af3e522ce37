//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"watchlens/app/jsrt"
)

// rehearseAfter is how long the page must have asked nothing before the
// worker rehearses the frames of the capture it opened: the questions a
// load's first paint brings (its panels', its summary's) come first.
const rehearseAfter = 250 * time.Millisecond

// rehearsalRounds is how many times each view is rehearsed: the browser
// optimises a function once it has run enough, the more the larger the
// function, and one round leaves the frame's largest (Timeline.Bins, the
// bands' paints) to the gestures.
const rehearsalRounds = 5

// rehearse builds and encodes, as a frame question with its summary
// would be, and throws away, the frames of the views left to rehearse
// (engine.Rehearsals of the capture's first view), one after another
// until none is left or a question waits: the first gestures' frames
// then run code the browser has optimised rather than compiling it
// beside them. A rehearsal that fails is given up: it only makes
// frames faster.
func (h *host) rehearse(waiting func() bool) {
	defer func() {
		if recover() != nil {
			h.rehearsals = nil
		}
	}()
	for len(h.rehearsals) > 0 && !waiting() {
		st := h.rehearsals[0]
		h.rehearsals = h.rehearsals[1:]
		d, summary := h.eng.Rehearse(st, &h.fr)
		thrown := js.Global().Get("Object").New()
		if h.setFrame(thrown, &h.fr) != nil || h.setDrawn(thrown, d) != nil || setJSON(thrown, "summary", summary) != nil {
			h.rehearsals = nil
			return
		}
		// Never posted: the next frame is written in its buffer.
		h.buffers.put(thrown.Get("bytes").Get("buffer"))
		// Questions posted meanwhile arrive before the next one.
		jsrt.AfterQueuedTasks()
	}
}
