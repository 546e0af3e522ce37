package app

import (
	"errors"

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
		msg := "rejected"
		if reason := firstArg(args); reason.Truthy() {
			msg = reason.Call("toString").String()
		}
		ch <- settled{err: errors.New(msg)}
		return nil
	})
	defer onResolve.Release()
	defer onReject.Release()
	promise.Call("then", onResolve, onReject)
	s := <-ch
	return s.v, s.err
}

func firstArg(args []goapp.Value) goapp.Value {
	if len(args) == 0 {
		return goapp.Undefined()
	}
	return args[0]
}

// yieldToBrowser lets the browser paint and handle input before the next
// step: awaiting a message to ourselves is a real trip through the event
// loop, which runtime.Gosched is not, and unlike setTimeout(0) it is not
// clamped to 4 ms when repeated. Call it only from a goroutine.
func yieldToBrowser() {
	executor := goapp.FuncOf(func(_ goapp.Value, args []goapp.Value) any {
		ch := goapp.Window().Get("MessageChannel").New()
		ch.Get("port1").Set("onmessage", args[0])
		ch.Get("port2").Call("postMessage", nil)
		return nil
	})
	defer executor.Release()
	await(goapp.Window().Get("Promise").New(executor))
}
