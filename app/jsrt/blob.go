//go:build js && wasm

package jsrt

import "syscall/js"

// BlobOf copies data into a new Blob of the media type mime ("" for
// none).
func BlobOf(data []byte, mime string) js.Value {
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	return js.Global().Get("Blob").New([]any{arr}, map[string]any{"type": mime})
}
