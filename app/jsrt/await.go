package jsrt

import (
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// await blocks the calling goroutine until the JS promise settles. In the
// browser a blocked goroutine hands control back to the event loop, so the
// page keeps painting and taking input while the promise runs. Call it only
// from a goroutine (ctx.Async), never from inside an event handler.
func Await(promise goapp.Value) (goapp.Value, error) {
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
		e := Rejection{Message: "rejected"}
		if reason := firstArg(args); reason.Truthy() {
			e.Message = reason.Call("toString").String()
			if reason.Type() == goapp.TypeObject {
				if name := reason.Get("name"); name.Type() == goapp.TypeString {
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

// Rejection is why a promise was rejected: name is the JS error's
// class ("TypeError"), which some callers tell apart, and msg its text.
type Rejection struct{ Name, Message string }

func (e Rejection) Error() string { return e.Message }

func firstArg(args []goapp.Value) goapp.Value {
	if len(args) == 0 {
		return goapp.Undefined()
	}
	return args[0]
}
