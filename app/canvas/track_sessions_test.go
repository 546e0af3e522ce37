package canvas

import (
	"strings"
	"testing"
)

func TestHitTestReconnectGap(t *testing.T) {
	tl, c, v, layout, s := wholeFrame(t, "w3-then-resume.ts.http")
	b, _ := layout.bandByID(BandSessions)
	h := HitTest(c, v, &layout, s.X(tl.Sessions[1].Start)-1, b.Y+b.Height/2)
	if !strings.Contains(h.Text, "reconnect gap of 816ms before session 1") {
		t.Errorf("at the reconnect: %q", h.Text)
	}
	h = HitTest(c, v, &layout, s.X(tl.Sessions[0].Start)+100, b.Y+b.Height/2)
	if !strings.Contains(h.Text, "session 0 of w3-then-resume.ts.http") || !strings.Contains(h.Text, "ended: deadline") {
		t.Errorf("inside session 0: %q", h.Text)
	}
}
