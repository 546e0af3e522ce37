package app

import (
	"math"
	"time"

	"watchlens/app/canvas"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// frameSender hands a canvas view's frames to web/timeline.js. The
// timeline and the fleet views each hold one: its buffers are reused from
// frame to frame, so a frame allocates nothing on either side once the
// largest one has been drawn.
type frameSender struct {
	encoded canvas.Encoded // the frame as it is sent, its buffers reused
	// jsBuf is the Uint8Array the bytes are copied into, jsBufLen
	// long; it only grows.
	jsBuf    goapp.Value
	jsBufLen int
	// waits counts the frames put off because web/timeline.js was not
	// loaded yet.
	waits int
}

// script is web/timeline.js's watchlensDraw. While the script is still
// loading it is undefined: redraw is then tried again a while later, a
// few dozen times at most.
func (s *frameSender) script(ctx goapp.Context, redraw func(goapp.Context)) (goapp.Value, bool) {
	fn := goapp.Window().Get("watchlensDraw")
	if !fn.IsUndefined() {
		return fn, true
	}
	if s.waits < 50 {
		s.waits++
		ctx.After(200*time.Millisecond, func(ctx goapp.Context) { ctx.PreventUpdate(); redraw(ctx) })
	}
	return nil, false
}

// send has draw (watchlensDraw) draw fr on the canvas cv, in one call: the
// frame's spec as JSON and its floats as bytes.
func (s *frameSender) send(draw, cv goapp.Value, fr *canvas.Frame) {
	if fr.Encode(&s.encoded) != nil {
		return
	}
	e := &s.encoded
	if s.jsBuf == nil || s.jsBufLen < len(e.Floats) {
		s.jsBufLen = max(len(e.Floats), 1<<16)
		s.jsBuf = goapp.Window().Get("Uint8Array").New(s.jsBufLen)
	}
	goapp.CopyBytesToJS(s.jsBuf, e.Floats)
	draw.Invoke(cv, e.Spec, s.jsBuf, e.N)
}

// sendJS has draw draw the frame e, as the engine's worker sent it, on
// cv.
func sendJS(draw, cv goapp.Value, e canvas.EncodedJS) {
	draw.Invoke(cv, e.Spec, e.Bytes, e.N)
}

// drawnAnswer is the frame a view drew last of those the engine's worker
// answered. Once the view draws another over it, its buffer goes back to
// the worker for a later frame (workerEngine.GiveBack): web/timeline.js
// keeps a canvas's last frame only, to draw it again when the theme
// changes.
type drawnAnswer struct {
	last canvas.EncodedJS
}

// drew notes e, an answer of w's just drawn, and gives back the one
// drawn before it.
func (a *drawnAnswer) drew(w workerEngine, e canvas.EncodedJS) {
	if a.last.Bytes != nil {
		w.GiveBack(a.last)
	}
	a.last = e
}

// canvasOf is the canvas element of a mounted view, nil before it is
// mounted.
func canvasOf(c goapp.Composer) goapp.Value {
	if !c.Mounted() {
		return nil
	}
	cv := c.JSValue().Call("querySelector", "canvas")
	if cv.IsNull() || cv.IsUndefined() {
		return nil
	}
	return cv
}

// needsPixels says whether a frame w x h CSS px at the pixel ratio dpr
// resizes cv's pixels (web/timeline.js's sizeCanvas), which the browser
// then allocates at the frame's drawing: 13-48 ms for a timeline's on
// the project's AMD machine.
func needsPixels(cv goapp.Value, w, h, dpr float64) bool {
	return cv.Get("width").Int() != int(math.Round(w*dpr)) || cv.Get("height").Int() != int(math.Round(h*dpr))
}

// reserveJS sizes cv for the frame e, as the engine's worker sent it,
// and has the browser allocate its pixels (web/timeline.js's
// watchlensReserve), so that drawing e later does not.
func reserveJS(cv goapp.Value, e canvas.EncodedJS) {
	if r := goapp.Window().Get("watchlensReserve"); r.Truthy() {
		r.Invoke(cv, e.Spec)
	}
}
