package app

import (
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// workerEngine is the engine in a Web Worker (app/engine/client's
// Worker): each question crosses a message, and the goroutine that asks
// waits for the answer. go-app's UI goroutine must never wait so: while
// it waits no event is handled and nothing renders (keys typed meanwhile
// are lost, a capture shows with its canvas empty). So the views ask it
// on other goroutines (askers) and show its answers when they come.
type workerEngine interface {
	engine.Answerer
	// AskEncodedFrame is Frame, as the worker encoded it for
	// web/timeline.js, with, when summary is asked, the summary of what it
	// shows (engine.SummaryOf), saying when a later frame question
	// superseded it while it waited in the worker.
	AskEncodedFrame(st engine.ViewState, summary bool) (d engine.Drawn, s engine.ViewSummary, e canvas.EncodedJS, err error)
	// Pick is Hit for a click, which the hover after it does not
	// supersede.
	Pick(st engine.ViewState, x, y float64) (engine.Hit, error)
	// AskEncodedFleetFrame is FleetFrame, as the worker encoded it for
	// web/timeline.js, saying when a later one superseded it.
	AskEncodedFleetFrame(st engine.FleetState) (canvas.FleetLayout, canvas.EncodedJS, error)
	// LastAsked is when the page last asked it a question.
	LastAsked() time.Time
	// GiveBack hands back the buffer of a frame it answered that the
	// page has drawn over, for a later frame.
	GiveBack(e canvas.EncodedJS)
}

// inWorker says whether eng answers from a worker (workerEngine).
func inWorker(eng engine.Answerer) bool {
	_, ok := eng.(workerEngine)
	return ok
}

// ask asks eng question q and hands its answer to then, on go-app's UI
// goroutine: at once when eng is in the page's own wasm, and from a
// goroutine of askers when it is in a worker (see workerEngine), in
// which case then runs in a ctx.Dispatch of its own, unless the view is
// gone by then.
func ask[T any](ctx goapp.Context, eng engine.Answerer, q func() T, then func(goapp.Context, T)) {
	if !inWorker(eng) {
		then(ctx, q())
		return
	}
	askers.run(func() {
		a := q()
		ctx.Dispatch(func(ctx goapp.Context) { then(ctx, a) })
	})
}
