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
func YieldIfHeld() { YieldIfHeldFor(HoldAtMost) }

// YieldIfHeldFor yields to the browser once d has passed since the last
// yield: for steps that may each hold the page long (a dropped file's
// size, which Chromium asks the disk for), a shorter hold than a load's.
func YieldIfHeldFor(d time.Duration) {
	if time.Since(lastYield) >= d {
		Yield()
	}
}
