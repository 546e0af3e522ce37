package timeline

import (
	"strconv"
	"testing"
)

// Every step that is an event carries that event's instant and RV.
func TestStepsEvent(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http")
	found := 0
	for _, c := range tl.Cursors {
		for k := 0; k < c.Len(); k++ {
			i := c.Event(k)
			if i < 0 {
				continue
			}
			found++
			ts, rv := c.Step(k)
			if p := tl.Point(i); p.T != ts || tl.Event(i).RV != strconv.FormatUint(rv, 10) {
				t.Fatalf("step %d of %v: event %d is at %d RV %s, the step at %d RV %d", k, c.Kind, i, p.T, tl.Event(i).RV, ts, rv)
			}
		}
	}
	if found == 0 {
		t.Fatal("no cursor step is an event")
	}
}
