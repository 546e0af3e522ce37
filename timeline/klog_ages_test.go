package timeline

import (
	"strings"
	"testing"
	"time"
)

// TestKlogCursorAgesAgreeWithCaptures: each 410 the informers' klog
// tells, read alone, is judged as the same 410 in the captures is. The
// log names no RV but the 410's, so its cursor's age comes from what the
// log counts: a watch's totalItems of none, or a failed request, moves
// nothing, back to the LIST it came from, and a watch of fewer than one
// a minute got events at instants the log does not give. Its ages are
// never fresher than the captures' (by more than a bookmark's slack on
// the outage's WatchList streams), most of the lab's agree to 2 s, and
// the 410s told before feed the calibration as captured ones do, so the
// later ones are expected.
func TestKlogCursorAgesAgreeWithCaptures(t *testing.T) {
	for _, rec := range []struct {
		name         string
		slack        time.Duration
		agree, known int
	}{
		{"samples-lab", 2 * time.Second, 60, 60},
		{"samples-outage", 10 * time.Second, 0, 60},
	} {
		t.Run(rec.name, func(t *testing.T) {
			logs := buildRecording(t, rec.name, "fleet-klog.log").Analyze(realServer())
			caps := buildRecording(t, rec.name, "*.ts.http").Analyze(realServer())
			captured := map[string]int64{}
			for _, r := range caps.Resumes {
				if r.Observed == Refused && r.Predicted.HasCursor {
					f := &caps.TL.Files[caps.TL.Sessions[r.Session].File]
					captured[captureClient(f.Name)+"/"+r.RV] = r.Predicted.At - r.Predicted.Since
				}
			}
			matched, agree, expected := 0, 0, 0
			for _, r := range logs.Resumes {
				if r.Observed != Refused || !r.Predicted.HasCursor {
					continue
				}
				f := &logs.TL.Files[logs.TL.Sessions[r.Session].File]
				want, ok := captured[f.Client+"/"+r.RV]
				if !ok {
					continue
				}
				matched++
				if r.Predicted.Outcome == Refused {
					expected++
				}
				got := r.Predicted.At - r.Predicted.Since
				switch {
				case got < want-int64(rec.slack):
					t.Errorf("%s's 410 from RV %s: the log's cursor %s old, the capture's %s", f.Client, r.RV, FormatDuration(got), FormatDuration(want))
				case got <= want+int64(2*time.Second):
					agree++
				}
			}
			if matched < 70 || agree < rec.agree || expected < rec.known {
				t.Errorf("%d of the log's 410s matched a capture's, %d of their cursor ages agree to 2 s (want %d), %d expected by the models (want %d)",
					matched, agree, rec.agree, expected, rec.known)
			}
		})
	}
}

// TestKlogBookmarksLineSaysTheRecordedAnswer: the legacy klog fixture's
// Pod informer was refused at its reconnect, which no 410 before it let
// the models expect: its bookmarks line, which gives the verdict of its
// cursor there, says the server's answer beside it, as the line above
// tells the 410 ("the reconnect accepted" alone contradicted it).
func TestKlogBookmarksLineSaysTheRecordedAnswer(t *testing.T) {
	a := buildFiles(t, "../parser/testdata", "klog-legacy.log").Analyze(realServer())
	line := summaryTopic(a, "bookmarks")
	if !strings.Contains(line, "the reconnect was accepted (as recorded: refused)") {
		t.Errorf("the bookmarks line: %q", line)
	}
}
