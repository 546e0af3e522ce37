package report

import (
	"bytes"
	"strings"
	"testing"

	"watchlens/timeline"
)

// TestDoubtsApartFromInputProblems: samples-outage's audit logs alone
// leave doubts (requests of one User-Agent, user, address and selector
// the log cannot split between two informers). The report's JSON marks
// each such record a doubt, and its text and Markdown list them under a
// section of their own, not among the input's problems.
func TestDoubtsApartFromInputProblems(t *testing.T) {
	r := New(loadRecording(t, "samples-outage", "audit-*.log").Analyze(timeline.DefaultParams()), nil)
	doubts := 0
	for _, d := range r.Diagnostics {
		if d.Doubt != (d.Kind == string(timeline.DiagUnsureSplit)) {
			t.Errorf("%s line %d: kind %s, doubt %v", d.File, d.Line, d.Kind, d.Doubt)
		}
		if d.Doubt {
			doubts++
		}
	}
	if doubts == 0 {
		t.Fatal("samples-outage's audit logs gave no doubt: the test checks nothing")
	}
	for _, md := range []bool{false, true} {
		var out bytes.Buffer
		if err := r.write(&out, md); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		problems, doubtSection, found := strings.Cut(text, "Doubts: what the records cannot tell")
		if !found {
			t.Fatalf("md %v: no doubts section", md)
		}
		_, problems, found = strings.Cut(problems, "Parser diagnostics")
		if !found {
			t.Fatalf("md %v: no parser diagnostics section before the doubts", md)
		}
		if strings.Contains(problems, string(timeline.DiagUnsureSplit)) {
			t.Errorf("md %v: a doubt is listed among the parser's diagnostics:\n%s", md, problems)
		}
		if got := strings.Count(doubtSection, string(timeline.DiagUnsureSplit)); got != doubts {
			t.Errorf("md %v: %d doubts in their section, the report holds %d", md, got, doubts)
		}
	}
}
