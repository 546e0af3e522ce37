//go:build js && wasm

package goappjs

import (
	"syscall/js"
	"testing"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestUnwrapGivesTheWrappedValue unwraps an object go-app made, and one
// syscall/js made and go-app wrapped: each is the same JS object, not a
// copy, and a number or a string comes back as itself.
func TestUnwrapGivesTheWrappedValue(t *testing.T) {
	made := goapp.Window().Get("Object").New()
	made.Set("name", "made by go-app")
	if got := Unwrap(made); got.Get("name").String() != "made by go-app" {
		t.Errorf("unwrapped go-app's object has name %q", got.Get("name").String())
	} else if got.Set("seen", true); !made.Get("seen").Truthy() {
		t.Error("a property set on the unwrapped object is missing from go-app's: it is a copy")
	}
	ours := js.Global().Get("Object").New()
	if !Unwrap(goapp.ValueOf(ours)).Equal(ours) {
		t.Error("a js.Value wrapped by go-app does not unwrap to itself")
	}
	if got := Unwrap(goapp.ValueOf(42.5)); got.Float() != 42.5 {
		t.Errorf("the number 42.5 unwraps to %v", got)
	}
	if got := Unwrap(goapp.ValueOf("text")); got.String() != "text" {
		t.Errorf("the string \"text\" unwraps to %v", got)
	}
	if js.Global().Get("Object").Call("keys", holder).Length() != 0 {
		t.Error("the holder keeps the last value it unwrapped")
	}
}
