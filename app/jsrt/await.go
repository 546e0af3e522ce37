//go:build js && wasm

package jsrt

import "syscall/js"

// Await blocks the calling goroutine until the JS promise settles. In the
// browser a blocked goroutine hands control back to the event loop, so the
// page keeps painting and taking input while the promise runs. Call it only
// from a goroutine (ctx.Async), never from inside an event handler.
func Await(promise js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	onResolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{v: firstArg(args)}
		return nil
	})
	onReject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		e := Rejection{Message: "rejected"}
		if reason := firstArg(args); reason.Truthy() {
			e.Message = reason.Call("toString").String()
			if reason.Type() == js.TypeObject {
				if name := reason.Get("name"); name.Type() == js.TypeString {
					e.Name = name.String()
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

func firstArg(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}
