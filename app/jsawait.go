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

// yieldToBrowser lets the browser paint and handle input before a long
// step: awaiting a timer is a real trip through the event loop, which
// runtime.Gosched is not. Call it only from a goroutine.
func yieldToBrowser() {
	promise := goapp.Window().Get("Promise").New(goapp.FuncOf(func(_ goapp.Value, args []goapp.Value) any {
		goapp.Window().Call("setTimeout", args[0], 0)
		return nil
	}))
	await(promise)
}
