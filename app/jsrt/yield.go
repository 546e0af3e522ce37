//go:build js && wasm

package jsrt

import (
	"sync"
	"syscall/js"
	"time"
)

// Yield lets the browser paint and handle input before the next
// step. Call it only from a goroutine.
//
// scheduler.yield is made for this: its continuation comes back before
// other queued tasks but after input and painting. Where it is missing, a
// message to ourselves is a real trip through the event loop (which
// runtime.Gosched is not) and, unlike setTimeout(0), is not clamped when
// repeated. One reused channel costs less per yield than a new channel
// each time, and scheduler.yield less than either.
//
// During a load, a collection that is due runs right after the yield, in
// a task of its own (see LoadGC).
func Yield() {
	defer func() { lastYield = time.Now() }()
	YieldOnce()
	if LoadGC.collectIfDue() {
		YieldOnce()
	}
}

func YieldOnce() {
	if s := js.Global().Get("scheduler"); s.Truthy() && s.Get("yield").Truthy() {
		Await(s.Call("yield"))
		return
	}
	selfMessages.wait()
}

// InTask runs f in a task of its own, posted now, after the task that
// posts it: a message to ourselves, as Yield's, which setTimeout(0),
// clamped once nested, is not. The Go program runs every goroutine it
// can before it gives the browser its thread back, so f runs in the
// message's task. Tasks posted one after another run in that order.
func InTask(f func()) {
	posted := selfMessages.post()
	go func() {
		<-posted
		f()
	}()
}

// selfMessages is one MessageChannel posted to by every yield: the
// messages come back in order, each waking the goroutine that sent it.
var selfMessages messageLoop

type messageLoop struct {
	once    sync.Once
	port    js.Value
	mu      sync.Mutex
	waiting []chan struct{}
}

func (m *messageLoop) wait() {
	<-m.post()
}

// post sends a message to ourselves; the channel closes when it arrives.
func (m *messageLoop) post() <-chan struct{} {
	m.once.Do(func() {
		ch := js.Global().Get("MessageChannel").New()
		ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
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

// AfterNextPaint blocks the calling goroutine until the browser has
// painted its next frame, or for at most a second (a hidden tab paints no
// frames): a message posted from a frame callback arrives once that
// frame's paint is done.
func AfterNextPaint() {
	posted := make(chan (<-chan struct{}), 1)
	var frame js.Func
	frame = js.FuncOf(func(js.Value, []js.Value) any {
		frame.Release()
		posted <- selfMessages.post()
		return nil
	})
	js.Global().Call("requestAnimationFrame", frame)
	select {
	case painted := <-posted:
		<-painted
	case <-time.After(time.Second):
	}
}
