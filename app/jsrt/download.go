package jsrt

import goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

// download hands bytes to the browser as a file to save.
func Download(name, mime string, data []byte) {
	arr := goapp.Window().Get("Uint8Array").New(len(data))
	goapp.CopyBytesToJS(arr, data)
	blob := goapp.Window().Get("Blob").New([]any{arr}, map[string]any{"type": mime})
	// The object URL is not revoked: revoking it right after the click can
	// cancel the download, and one report's bytes until the tab closes
	// cost nothing that matters.
	SaveURL(name, goapp.Window().Get("URL").Call("createObjectURL", blob).String())
}

func SaveURL(name, href string) {
	a := goapp.Window().Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Call("click")
}
