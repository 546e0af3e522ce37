package load

import (
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// warmRounds is how many times the warm-up reads its sources. Chromium
// optimises a wasm function for its next calls once it has run enough, so
// one round leaves much of a load's path unoptimised; six bring a big
// load's time down to where more rounds no longer help, and run in the
// background.
const warmRounds = 6

// warmCopies is how many copies of the first warm source the warm-up's
// last read joins into one capture of 18 MB. Read in slices that grow to
// the largest, as a big file's are, it has the browser optimise what the
// small sources do not run enough, which a big load would otherwise wait
// for Chromium to compile; more copies gain nothing.
const warmCopies = 12

// WarmUp opens sources warmRounds times, then the first of them joined
// warmCopies times into one capture, through the path a dropped file
// takes, and hands each capture it made to draw, which draws its first
// frame; the page throws them away. It gives up once turn is superseded:
// it is there to speed up the capture the user opens, not to compete
// with it. A warm-up that fails (see Safely) only leaves the loads
// slower.
func WarmUp(sources []Source, turn Turn, draw func(*Capture)) {
	warm := func(sources []Source) {
		if c, err := Open(sources, Options{Params: timeline.DefaultParams(), InPage: true}, nil, turn); err == nil {
			draw(c)
		}
	}
	for range warmRounds {
		if turn.Superseded() {
			return
		}
		warm(sources)
	}
	if turn.Superseded() {
		return
	}
	copies := make([]any, warmCopies)
	for i := range copies {
		copies[i] = sources[0].Blob
	}
	warm([]Source{{Name: sources[0].Name, Blob: goapp.Window().Get("Blob").New(copies)}})
}
