package timeline

import (
	"strconv"
	"testing"
)

// TestResumeJudgedWhenTheServerReceivedIt: samples-outage's clients came
// back through a load balancer that held their requests for seconds, up
// to minutes. A resume is judged as its server was when it received the
// request (the audit log says when), so a refusal that server sent
// another client in the meantime, after the client had sent its own
// request, decides it where that refusal, of the same resource, said
// the server kept nothing as old as the resume's RV ("too old resource
// version: X (Y)", Y past it). The test finds such resumes in the recording itself, and no
// resume's prediction contradicts what its server answered.
func TestResumeJudgedWhenTheServerReceivedIt(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log", "apiserver-*.log", "prometheus/query_range/*.json.gz")
	a := tl.Analyze(realServer())
	type refusal struct {
		server   int
		resource string
		at       int64 // when the refused client had the 410
		y        uint64
	}
	var refusals []refusal
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if s.Error != nil && s.Error.TooOld && s.Server >= 0 {
			refusals = append(refusals, refusal{s.Server, tl.ResourceOf(s.File), s.End, s.Error.Y})
		}
	}
	decided := 0
	for _, r := range a.Resumes {
		s := &tl.Sessions[r.Session]
		name := tl.Files[s.File].Name
		if r.Contradicts() {
			t.Errorf("%s: the resume from RV %s: predicted %v, observed %v: %s", name, r.RV, r.Predicted.Outcome, r.Observed, r.Predicted.Reason)
		}
		received, sent := tl.ServerReceived(r.Session)
		rv, err := strconv.ParseUint(r.RV, 10, 64)
		if r.Observed != Refused || received == sent || err != nil {
			continue
		}
		for _, f := range refusals {
			if f.server == s.Server && f.resource == tl.ResourceOf(s.File) && f.at >= sent && f.at < received && f.y > rv {
				if r.Predicted.Outcome != Refused {
					t.Errorf("%s: the resume from RV %s, sent at %s and received by %s at %s, after it had said at %s that it kept nothing before RV %d: predicted %v: %s", name, r.RV,
						FormatTime(sent, ClockArrival), tl.Servers[s.Server].Name, FormatTime(received, ClockArrival), FormatTime(f.at, ClockArrival), f.y, r.Predicted.Outcome, r.Predicted.Reason)
				}
				decided++
				break
			}
		}
	}
	if decided < 3 {
		t.Errorf("%d resumes decided by their server's refusals while they were on their way, want the outage's 3 or more", decided)
	}
}
