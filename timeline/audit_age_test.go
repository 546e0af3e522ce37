package timeline

import (
	"strings"
	"testing"
)

// TestAuditCursorAgeIsAtMost: from samples-lab's audit logs alone,
// fleet-c091's refused reconnect from RV 987 at 18:14:59.711 follows a
// watch from RV 329 that the log shows from its start to its end, not
// when RV 987 came in it (the capture has it at 18:12:16.6, 2m43s
// before): the age counted from the watch's start is the most the
// cursor's can have been, and the summary says "at most".
func TestAuditCursorAgeIsAtMost(t *testing.T) {
	a := buildRecording(t, "samples-lab", "audit-*.log").Analyze(realServer())
	var line string
	for _, l := range a.Summary(nil) {
		if l.Topic == "observed" {
			line = l.Text
		}
	}
	if !strings.Contains(line, "the cursor had not moved for at most ") {
		t.Errorf("the observed 410s: %q", line)
	}
	atMost, c091 := 0, false
	for _, r := range a.Resumes {
		if a.TL.SinceAtMost(r.Session) {
			atMost++
			if a.TL.Files[a.TL.Sessions[r.Session].File].ShortName() == "fleet-c091-nobookmarks/1.0" && r.RV == "987" {
				c091 = FormatDuration(r.Predicted.At-r.Predicted.Since) == "5m30s"
			}
		}
	}
	if !c091 {
		t.Errorf("fleet-c091's reconnect from RV 987: not at most 5m30s old")
	}
	if atMost == 0 || atMost == len(a.Resumes) {
		t.Errorf("%d of %d resumes have an age at most: want some, after a watch, and not those after a LIST", atMost, len(a.Resumes))
	}
}
