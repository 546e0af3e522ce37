//go:build js && wasm

package jsrt

import (
	"errors"
	"syscall/js"
	"testing"
)

// TestAwait awaits a promise that resolves, one rejected with a
// TypeError, whose class some callers tell apart, and one rejected with
// nothing.
func TestAwait(t *testing.T) {
	promise := js.Global().Get("Promise")
	v, err := Await(promise.Call("resolve", 7))
	if err != nil || v.Int() != 7 {
		t.Errorf("a promise resolved with 7 gives %v, %v", v, err)
	}
	_, err = Await(promise.Call("reject", js.Global().Get("TypeError").New("no network")))
	var rej Rejection
	if !errors.As(err, &rej) || rej.Name != "TypeError" || rej.Message != "TypeError: no network" {
		t.Errorf("a promise rejected with a TypeError gives %#v", err)
	}
	_, err = Await(promise.Call("reject"))
	if !errors.As(err, &rej) || rej.Name != "" || rej.Message != "rejected" {
		t.Errorf("a promise rejected with nothing gives %#v", err)
	}
}

// TestYieldComesBack yields by a message to ourselves, as the page does
// where the browser has no scheduler.yield (node has none).
func TestYieldComesBack(t *testing.T) {
	if js.Global().Get("scheduler").Truthy() {
		t.Log("this host has a scheduler: the yield goes through it")
	}
	before := lastYield
	for range 3 {
		Yield()
	}
	if !lastYield.After(before) {
		t.Error("Yield came back without noting when")
	}
}
