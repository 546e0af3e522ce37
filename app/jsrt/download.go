//go:build js && wasm

package jsrt

import "syscall/js"

// Download hands bytes to the browser as a file to save.
func Download(name, mime string, data []byte) {
	blob := BlobOf(data, mime)
	// The object URL is not revoked: revoking it right after the click can
	// cancel the download, and one report's bytes until the tab closes
	// cost nothing that matters.
	SaveURL(name, js.Global().Get("URL").Call("createObjectURL", blob).String())
}

func SaveURL(name, href string) {
	a := js.Global().Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Call("click")
}
