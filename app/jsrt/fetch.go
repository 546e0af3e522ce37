package jsrt

import (
	"fmt"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// FetchBlob GETs rawURL and returns its body as a Blob. It runs in a
// goroutine.
func FetchBlob(rawURL string) (goapp.Value, error) {
	resp, err := Await(goapp.Window().Call("fetch", rawURL))
	if err != nil {
		return nil, err
	}
	if !resp.Get("ok").Truthy() {
		return nil, fmt.Errorf("HTTP %d", resp.Get("status").Int())
	}
	return Await(resp.Call("blob"))
}
