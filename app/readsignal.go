package app

import goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

// How a read ended, as readEnded tells the document.
const (
	readShown      = "shown"      // its capture is on screen
	readFailed     = "failed"     // it stopped on an error, which the page says
	readSuperseded = "superseded" // the user opened another capture first
)

// readEnded appends {name, outcome} to the document's watchlensReads, a
// record of how each read ended. A read that gives up shows nothing, so
// this is the only sign of it: the browser tests wait on it instead of
// waiting long enough for a read that went on to have shown.
func readEnded(name, outcome string) {
	if !goapp.IsClient {
		return
	}
	w := goapp.Window()
	list := w.Get("watchlensReads")
	if !list.Truthy() {
		list = w.Get("Array").New()
		w.Set("watchlensReads", list)
	}
	list.Call("push", map[string]any{"name": name, "outcome": outcome})
}
