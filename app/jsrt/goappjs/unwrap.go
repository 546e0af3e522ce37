//go:build js && wasm

package goappjs

import (
	"syscall/js"

	"watchlens/app/jsrt"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// holder is an object of ours that go-app sets a Value on: go-app hands
// the js.Value it wraps to JavaScript, and it is read back as ours.
var holder = js.Global().Get("Object").New()

// Unwrap returns the js.Value that v wraps.
func Unwrap(v goapp.Value) jsrt.Value {
	goapp.ValueOf(holder).Set("v", v)
	unwrapped := holder.Get("v")
	holder.Delete("v")
	return unwrapped
}
