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
	documentList("watchlensReads").Call("push", map[string]any{"name": name, "outcome": string(outcome)})
}

// Stamp appends [step, ms] to the document's watchlensLoadStamps: a
// load reached step (ReadDone, Answered, Rendering, Painted) at ms on
// the page's clock (performance.now). The load benchmarks log them, to
// tell in which step of a load a long task fell.
func Stamp(step string) {
	if !goapp.IsClient {
		return
	}
	now := goapp.Window().Get("performance").Call("now").Float()
	documentList("watchlensLoadStamps").Call("push", []any{step, now})
}

// The steps a load stamps.
const (
	// ReadDone: every file is read, and the model is being built and
	// analysed.
	ReadDone = "read done"
	// Answered: the load's answer is read (built, analysed, and in the
	// engine's worker its first frame drawn).
	Answered = "answered"
	// Rendering: the page renders the capture.
	Rendering = "rendering"
	// Painted: the capture's first frame is painted.
	Painted = "painted"
)

// documentList is the document's array window[name], made if missing.
func documentList(name string) goapp.Value {
	w := goapp.Window()
	list := w.Get(name)
	if !list.Truthy() {
		list = w.Get("Array").New()
		w.Set(name, list)
	}
	return list
}
