package app

import (
	"sync"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// await blocks the calling goroutine until the JS promise settles. In the
// browser a blocked goroutine hands control back to the event loop, so the
// page keeps painting and taking input while the promise runs. Call it only
// from a goroutine (ctx.Async), never from inside an event handler.
func await(promise goapp.Value) (goapp.Value, error) {
	type settled struct {
		v   goapp.Value
		err error
	}
	ch := make(chan settled, 1)
	onResolve := goapp.FuncOf(func(_ goapp.Value, args []goapp.Value) any {
		ch <- settled{v: firstArg(args)}
		return nil
	})
	onReject := goapp.FuncOf(func(_ goapp.Value, args []goapp.Value) any {
		e := jsRejection{msg: "rejected"}
		if reason := firstArg(args); reason.Truthy() {
			e.msg = reason.Call("toString").String()
			if reason.Type() == goapp.TypeObject {
				if name := reason.Get("name"); name.Type() == goapp.TypeString {
					e.name = name.String()
				}
			}
		}
		ch <- settled{err: e}
		return nil
	})
	defer onResolve.Release()
	defer onReject.Release()
	promise.Call("then", onResolve, onReject)
	s := <-ch
	return s.v, s.err
}

// jsRejection is why a promise was rejected: name is the JS error's
// class ("TypeError"), which some callers tell apart, and msg its text.
type jsRejection struct{ name, msg string }

func (e jsRejection) Error() string { return e.msg }

func firstArg(args []goapp.Value) goapp.Value {
	if len(args) == 0 {
		return goapp.Undefined()
	}
	return args[0]
}

// yieldToBrowser lets the browser paint and handle input before the next
// step. Call it only from a goroutine.
//
// scheduler.yield is made for this: its continuation comes back before
// other queued tasks but after input and painting. Where it is missing, a
// message to ourselves is a real trip through the event loop (which
// runtime.Gosched is not) and, unlike setTimeout(0), is not clamped to 4 ms
// when repeated. Measured over the ~100 yields of a 100 MB load in
// Chromium: a new MessageChannel per yield cost 400 ms in all, one reused
// channel 220 ms, scheduler.yield 110 ms.
//
// During a load, a collection that is due runs right after the yield, in
// a task of its own (see loadGC).
func yieldToBrowser() {
	defer func() { lastYield = time.Now() }()
	yieldOnce()
	if loadGC.collectIfDue() {
		yieldOnce()
	}
}

func yieldOnce() {
	if s := goapp.Window().Get("scheduler"); s.Truthy() && s.Get("yield").Truthy() {
		await(s.Call("yield"))
		return
	}
	selfMessages.wait()
}

// lastYield is when the last yieldToBrowser came back: the start of the
// page's current task, when Go holds it.
var lastYield time.Time

// yieldIfHeld yields to the browser once holdAtMost has passed since the
// last yield: the pause function of the timeline's long loops, and the
// parsing loop's check, whatever yielded last.
func yieldIfHeld() {
	if time.Since(lastYield) >= holdAtMost {
		yieldToBrowser()
	}
}

// selfMessages is one MessageChannel posted to by every yield: the
// messages come back in order, each waking the goroutine that sent it.
var selfMessages messageLoop

type messageLoop struct {
	once    sync.Once
	port    goapp.Value
	mu      sync.Mutex
	waiting []chan struct{}
}

func (m *messageLoop) wait() {
	<-m.post()
}

// post sends a message to ourselves; the channel closes when it arrives.
func (m *messageLoop) post() <-chan struct{} {
	m.once.Do(func() {
		ch := goapp.Window().Get("MessageChannel").New()
		ch.Get("port1").Set("onmessage", goapp.FuncOf(func(goapp.Value, []goapp.Value) any {
			m.mu.Lock()
			next := m.waiting[0]
			m.waiting = m.waiting[1:]
			m.mu.Unlock()
			close(next)
			return nil
		}))
		m.port = ch.Get("port2")
	})
	done := make(chan struct{})
	m.mu.Lock()
	m.waiting = append(m.waiting, done)
	m.mu.Unlock()
	m.port.Call("postMessage", nil)
	return done
}

// afterNextPaint blocks the calling goroutine until the browser has
// painted its next frame, or for at most a second (a hidden tab paints no
// frames): a message posted from a frame callback arrives once that
// frame's paint is done.
func afterNextPaint() {
	posted := make(chan (<-chan struct{}), 1)
	var frame goapp.Func
	frame = goapp.FuncOf(func(goapp.Value, []goapp.Value) any {
		frame.Release()
		posted <- selfMessages.post()
		return nil
	})
	goapp.Window().Call("requestAnimationFrame", frame)
	select {
	case painted := <-posted:
		<-painted
	case <-time.After(time.Second):
	}
}
