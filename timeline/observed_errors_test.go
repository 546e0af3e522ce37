package timeline

import (
	"strings"
	"testing"

	"watchlens/parser"
)

// TestErrorsListsWhatTheServerSent: an ERROR event in a watch's stream
// and a response that is a Status are both errors, each with its session
// and instant.
func TestErrorsListsWhatTheServerSent(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http", "l410-list-exact-stale-rv.http")
	var inStream, responses int
	for _, e := range tl.ObservedErrors() {
		s := tl.Sessions[e.Session]
		switch {
		case e.Event >= 0:
			inStream++
			ev := tl.Event(e.Event)
			if ev.Type != parser.Error || ev.Session != e.Session || ev.T != e.T || e.Status.Code != 410 ||
				!strings.Contains(e.Status.Message, "too old resource version: 389 (1411)") {
				t.Errorf("in-stream error %+v (status %+v), event %+v", e, e.Status, ev)
			}
		default:
			responses++
			if e.Status != s.Status || e.T != s.Start || tl.Files[s.File].Name != "l410-list-exact-stale-rv.http" {
				t.Errorf("response error %+v of session %+v", e, s)
			}
		}
	}
	if inStream != 1 || responses != 1 {
		t.Errorf("%d in-stream errors and %d responses, want w4's ERROR and l410's 410 response", inStream, responses)
	}
}
