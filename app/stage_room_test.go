package app

import "testing"

// TestSeenWindow checks the rows a frame of a tall stage draws: those in
// view and a margin on either side, on steps of seenStep, kept within the
// stage, and the whole stage (0, 0) where that window would not be
// smaller.
func TestSeenWindow(t *testing.T) {
	for _, c := range []struct {
		name        string
		room        stageRoom
		top, height float64
	}{
		// 455 px in view from 1000: 512 px of steps, a margin of 96 on
		// either side and a step more, from the step at or above 904.
		{"scrolled into a tall stage", stageRoom{height: 5000, seenTop: 1000, seenBottom: 1455}, 896, 768},
		{"at its top", stageRoom{height: 5000, seenTop: 0, seenBottom: 455}, 0, 768},
		{"at its foot", stageRoom{height: 5000, seenTop: 4545, seenBottom: 5000}, 5000 - 768, 768},
		{"a stage the window would not make smaller", stageRoom{height: 700, seenTop: 0, seenBottom: 455}, 0, 0},
		// A stage scrolled up out of view: the margins and a step, at
		// its foot.
		{"out of view", stageRoom{height: 5000, seenTop: 6000, seenBottom: 5500}, 5000 - 256, 256},
	} {
		if top, h := seenWindow(c.room); top != c.top || h != c.height {
			t.Errorf("%s: rows from %v, %v high; want from %v, %v high", c.name, top, h, c.top, c.height)
		}
	}
}
