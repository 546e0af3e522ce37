package timeline

import (
	"testing"
	"time"
)

// The outcome a fleet counts and the summary ranks by, found without
// putting verdicts in words, is the verdict's: for every client of the
// real fleet, each cursor, at instants across the rolling restart and
// past each capture's end.
func TestResumeOutcomeIsTheVerdicts(t *testing.T) {
	a := analyzeFleetCaptures(t)
	seen := map[Outcome]int{}
	start, end := a.TL.Start(), a.TL.End()
	for fi := range a.TL.Files {
		for step := int64(0); step <= 12; step++ {
			at := start + (end-start)*step/10 // the last two past the clock's end
			for _, v := range a.ResumeAt(fi, at) {
				if got := a.resumeOutcome(fi, v.Kind, a.reconnectReach(fi, at, at), at); got != v.Outcome {
					t.Errorf("%s, %v at %s: %v, the verdict says %v (%s)", a.TL.Files[fi].Name, v.Kind, FormatTime(at, ClockArrival), got, v.Outcome, v.Reason)
				}
				seen[v.Outcome]++
			}
		}
	}
	for _, o := range []Outcome{Accepted, AtRisk, Refused} {
		if seen[o] == 0 {
			t.Errorf("no verdict was %v: the comparison misses it (%v)", o, seen)
		}
	}
	// Ranked by each file's recorded reconnects, by an instant asked
	// about, and by one asked after each file's end.
	judged := map[bool]int{} // by whether the reconnect was recorded
	for _, s := range []summarizer{
		{a: a},
		{a: a, qs: []ResumeQuery{{At: (start + end) / 2}}},
		{a: a, qs: []ResumeQuery{{Relative: true, After: 8 * time.Minute}}},
	} {
		for fi := range a.TL.Files {
			if got, want := s.rankOf(fi), s.reconnectOf(fi).rank(); got != want {
				t.Errorf("%s (asked %v): ranked %d, its reconnect's verdicts rank %d", a.TL.Files[fi].Name, s.qs, got, want)
			}
			_, _, recorded := s.reconnectAt(fi)
			judged[recorded]++
		}
	}
	if judged[true] == 0 || judged[false] == 0 {
		t.Errorf("files ranked by a recorded reconnect and by another: %v; both ways must be compared", judged)
	}
}
