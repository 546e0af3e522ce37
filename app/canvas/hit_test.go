package canvas

import (
	"strings"
	"testing"
)

// TestHitTest clicks where the frame drew the marks of a real capture.
func TestHitTest(t *testing.T) {
	tl, c, v, layout, s := wholeFrame(t, "w4-then-resume.ts.http")

	// The one MODIFIED, in its lane (row 1, under the group header).
	mod := int(tl.LaneEvents(0)[0])
	x := s.X(tl.Event(mod).T)
	y := layout.LanesY + RowHeight*1.5
	h := HitTest(c, v, &layout, x+3, y)
	if h.Event != mod || !strings.Contains(h.Text, "MODIFIED ConfigMap") || !strings.Contains(h.Text, "RV 389") {
		t.Errorf("near the MODIFIED: %+v", h)
	}
	if h = HitTest(c, v, &layout, x+40, y); h.Event != -1 {
		t.Errorf("40 px from any mark selects %d", h.Event)
	}
	// The group header folds.
	if h = HitTest(c, v, &layout, 300, layout.LanesY+RowHeight/2); h.Group != 0 {
		t.Errorf("header row: %+v", h)
	}
	// The ERROR marker in the sessions band, with its message.
	sb, _ := layout.bandByID(BandSessions)
	errEv := int(tl.Specials()[0])
	h = HitTest(c, v, &layout, s.X(tl.Event(errEv).T), sb.Y+sb.Height/2)
	if h.Event != errEv || !strings.Contains(h.Text, "too old resource version: 389 (1411)") {
		t.Errorf("error marker: %+v", h)
	}
	// A red zone reads its reason.
	zb, _ := layout.bandByID(BandZoneAware)
	z := v.Analysis.Zones[0]
	h = HitTest(c, v, &layout, s.X(z.From+(z.To-z.From)/2), zb.Y+zb.Height/2)
	if !strings.Contains(h.Text, "410 Gone") {
		t.Errorf("zone band: %+v", h)
	}
}
