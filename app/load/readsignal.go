package load

import goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

// Outcome is how a read ended, as Ended tells the document.
type Outcome string

const (
	Shown      Outcome = "shown"      // its capture is on screen
	Failed     Outcome = "failed"     // it stopped on an error, which the page says
	Superseded Outcome = "superseded" // the user opened another capture first
)

// Ended appends {name, outcome} to the document's watchlensReads, a
// record of how each read ended. A read that gives up shows nothing, so
// this is the only sign of it: the browser tests wait on it instead of
// waiting long enough for a read that went on to have shown.
func Ended(name string, outcome Outcome) {
	if !goapp.IsClient {
		return
	}
	w := goapp.Window()
	list := w.Get("watchlensReads")
	if !list.Truthy() {
		list = w.Get("Array").New()
		w.Set("watchlensReads", list)
	}
	list.Call("push", map[string]any{"name": name, "outcome": string(outcome)})
}
