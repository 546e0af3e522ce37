package jsrt

import "time"

// HoldAtMost is how long a load's work (parsing, building, analysing)
// holds the page between yields.
const HoldAtMost = 40 * time.Millisecond

// lastYield is when the last Yield came back: the start of the
// page's current task, when Go holds it.
var lastYield time.Time

// YieldIfHeld yields to the browser once HoldAtMost has passed since the
// last yield: the pause function of the timeline's long loops, and the
// parsing loop's check, whatever yielded last.
func YieldIfHeld() {
	if time.Since(lastYield) >= HoldAtMost {
		Yield()
	}
}
