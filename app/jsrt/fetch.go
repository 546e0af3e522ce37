//go:build js && wasm

package jsrt

import (
	"fmt"
	"syscall/js"
)

// FetchBlob GETs rawURL and returns its body as a Blob. It runs in a
// goroutine.
func FetchBlob(rawURL string) (js.Value, error) {
	resp, err := Await(js.Global().Call("fetch", rawURL))
	if err != nil {
		return js.Undefined(), err
	}
	if !resp.Get("ok").Truthy() {
		return js.Undefined(), fmt.Errorf("HTTP %d", resp.Get("status").Int())
	}
	return Await(resp.Call("blob"))
}
