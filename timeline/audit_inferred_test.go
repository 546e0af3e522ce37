package timeline

import (
	"strings"
	"testing"
)

// TestInferredGoneSaidOnce: a 410 that samples-lab's audit logs imply
// (a watch's 200, then its client's LIST at once) is told with the same
// words in the session's error and in the summary: how long the watch
// lasted and how soon after its end the client listed again.
func TestInferredGoneSaidOnce(t *testing.T) {
	a := buildRecording(t, "samples-lab", "audit-*.log").Analyze(DefaultParams())
	tl := a.TL
	s := summarizer{a: a}
	inferred := 0
	for g := range tl.Sessions {
		ss := &tl.Sessions[g]
		if !ss.GoneInferred() {
			continue
		}
		inferred++
		words := s.inferredGoneWords(g)
		want := "inferred for the watch from RV " + ss.Request.ResourceVersion + ": " + words
		if ss.Error.Message != want {
			t.Errorf("session %d's error says %q, want %q", g, ss.Error.Message, want)
		}
		if lasted := "the watch ended " + FormatDuration(ss.End-ss.Start) + " after it began"; !strings.Contains(words, lasted) {
			t.Errorf("session %d: %q, want %q", g, words, lasted)
		}
	}
	if inferred == 0 {
		t.Fatal("no 410 inferred from the lab's audit logs")
	}
}
