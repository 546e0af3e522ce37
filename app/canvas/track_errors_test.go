package canvas

import (
	"strings"
	"testing"
	"time"
)

// A LIST answered 410 Gone (l410) is a Status response, not an in-stream
// ERROR: it is marked and counted as an error in view like one, and its
// one instant gets an axis of seconds, not nanoseconds.
func TestListGoneIsDrawn(t *testing.T) {
	_, c, v, _, s := wholeFrame(t, "l410-list-exact-stale-rv.http")
	if len(c.errs) != 1 || !strings.Contains(c.errs[0].msg, "too old") {
		t.Fatalf("errors to draw: %+v", c.errs)
	}
	var fr Frame
	c.Build(v, &fr)
	if marks := opsOf(&fr, "mark", ColorError); len(marks) != 1 || marks[0].Count != 2 {
		t.Errorf("error marks: %+v", marks)
	}
	if span := s.To - s.From; span < int64(time.Second) {
		t.Errorf("the view spans %d ns", span)
	}
	for _, tk := range timeTicks(s, nil) {
		if strings.Contains(tk.Label, ".") && len(tk.Label) > 12 {
			t.Errorf("tick %q is finer than the capture deserves", tk.Label)
		}
	}
}
