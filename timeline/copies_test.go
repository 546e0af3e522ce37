package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// sameWatchNotes names the files of tl noted as holding the same watch
// as an earlier one.
func sameWatchNotes(tl *Timeline) []string {
	var out []string
	for _, f := range tl.Files {
		for _, d := range f.Diagnostics {
			if d.Kind == DiagSameWatch {
				out = append(out, f.Name+": "+d.Msg)
			}
		}
	}
	return out
}

func TestSameRecordingInTwoFormsIsNoted(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.http", "w4-then-resume.ts.http", "w3-then-resume.http", "w1-broad-configmaps-bookmarks.ts.http")
	got := sameWatchNotes(tl)
	if len(got) != 1 || !strings.HasPrefix(got[0], "w4-then-resume.ts.http: this capture holds the same watch as w4-then-resume.http") {
		t.Fatalf("notes %q, want one on w4-then-resume.ts.http naming w4-then-resume.http", got)
	}
	a := tl.Analyze(DefaultParams())
	fleet := ""
	for _, l := range a.Summary(nil) {
		if l.Topic == "fleet" {
			fleet = l.Text
		}
	}
	if !strings.Contains(fleet, "1 of these captures holds the same watch as another") {
		t.Errorf("the fleet's line %q does not say one client is counted twice", fleet)
	}
	// The 410 both forms hold is one answer, told once.
	var gone string
	for _, l := range a.Summary(nil) {
		if l.Topic == "observed" {
			gone = l.Text
		}
	}
	if strings.Count(gone, "refused ") != 1 || strings.Contains(gone, "w4-then-resume.ts.http") || strings.Contains(gone, "more 410") {
		t.Errorf("the 410s' line tells the copy's 410 again: %q", gone)
	}
}

// Two informers of one resource started together receive the same
// events; only their arrival times and their requests' Audit-Ids tell
// them apart, and they are two clients. The same capture given twice is
// one.
func TestSameWatchAtOtherArrivalTimesIsAnotherClient(t *testing.T) {
	raw, err := os.ReadFile(samplesDir + "/w3-then-resume.ts.http")
	if err != nil {
		t.Fatal(err)
	}
	stamp := regexp.MustCompile(`(?m)^(\S+) `)
	later := stamp.ReplaceAllFunc(raw, func(m []byte) []byte {
		at, err := time.Parse(time.RFC3339Nano, string(m[:len(m)-1]))
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		return []byte(at.Add(3*time.Millisecond).Format(time.RFC3339Nano) + " ")
	})
	// Another informer's requests have Audit-Ids of their own.
	later = regexp.MustCompile(`(?m)(Audit-Id: )(\S+)`).ReplaceAllFunc(later, func(m []byte) []byte {
		return bytes.Replace(m, []byte("Audit-Id: "), []byte("Audit-Id: 0"), 1)
	})
	build := func(second []byte) *Timeline {
		b := NewBuilder()
		for i, data := range [][]byte{raw, second} {
			if err := b.AddReader([]string{"one.ts.http", "two.ts.http"}[i], bytes.NewReader(data), parser.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		return b.Build()
	}
	if got := sameWatchNotes(build(raw)); len(got) != 1 {
		t.Errorf("the same capture twice: notes %q, want one", got)
	}
	tl := build(later)
	if tl.Files[0].Events != tl.Files[1].Events || tl.Files[1].Events == 0 {
		t.Fatalf("events %d and %d: the second informer's capture should hold the same events", tl.Files[0].Events, tl.Files[1].Events)
	}
	if got := sameWatchNotes(tl); len(got) != 0 {
		t.Errorf("two informers 3 ms apart: notes %q, want none", got)
	}
}

// A copy's refused reconnect is not explained by its twin's 410, the same
// answer recorded again (the raw capture's clock, from Date headers, puts
// it a second earlier): w4-then-resume.ts.http, given after its raw
// w4-then-resume.http, is judged as the raw one is, by the replayed
// cache, not by "an earlier 410".
func TestCopyIsNotItsOwnEvidence(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.http", "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	a := tl.Analyze(DefaultParams())
	by := map[string]Resume{}
	for _, r := range a.Resumes {
		if r.Observed == Refused {
			by[tl.Files[tl.Sessions[r.Session].File].Name] = r
		}
	}
	raw, copied := by["w4-then-resume.http"], by["w4-then-resume.ts.http"]
	if len(by) != 2 || tl.Sessions[raw.Session].Start >= tl.Sessions[copied.Session].Start {
		t.Fatalf("refused resumes %v: want the raw capture's first, then its copy's", by)
	}
	if copied.Predicted.Outcome != raw.Predicted.Outcome || strings.Contains(copied.Predicted.Reason, "calibration") || copied.Predicted.Reason == "" {
		t.Errorf("the copy's reconnect: %s, %q; the raw capture's: %s, %q", copied.Predicted.Outcome, copied.Predicted.Reason, raw.Predicted.Outcome, raw.Predicted.Reason)
	}
}

// TestCaptureCutFromAnotherIsNoted: samples-real's w3-narrow-label-
// bookmarks is the first response of w3-then-resume, recorded again (the
// same Audit-Id): given together they were two clients without a word
// of doubt. The later one is noted as holding a response the earlier
// one holds; two captures of other requests are not.
func TestCaptureCutFromAnotherIsNoted(t *testing.T) {
	tl := loadSamples(t, "w3-narrow-label-bookmarks.ts.http", "w3-then-resume.ts.http", "w4-then-resume.ts.http")
	got := sameWatchNotes(tl)
	if len(got) != 1 || !strings.HasPrefix(got[0], "w3-then-resume.ts.http: this capture holds the same watch as w3-narrow-label-bookmarks.ts.http, which recorded 1 of its 2 responses too") {
		t.Fatalf("notes %q, want one on w3-then-resume.ts.http naming w3-narrow-label-bookmarks.ts.http", got)
	}
}

// TestCaptureCutFromAnotherIsNotedBesideAuditLogs: the servers' audit
// logs say which server answered each session by its Audit-Id, and the
// Audit-Ids were let go of then, before the captures were compared: a
// capture cut from another was noted only where no audit log was given.
func TestCaptureCutFromAnotherIsNotedBesideAuditLogs(t *testing.T) {
	b := NewBuilder()
	for _, p := range []string{samplesDir + "/w3-narrow-label-bookmarks.ts.http", samplesDir + "/w3-then-resume.ts.http", filepath.Join(testsample.Recording(t, "samples-lab"), "audit-a-1.log")} {
		if err := b.AddReader(filepath.Base(p), bytes.NewReader(testsample.Read(t, p)), parser.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	tl := b.Build()
	if len(tl.AuditLogs) == 0 {
		t.Fatal("the audit log was not read as one")
	}
	if got := sameWatchNotes(tl); len(got) != 1 || !strings.HasPrefix(got[0], "w3-then-resume.ts.http: this capture holds the same watch as w3-narrow-label-bookmarks.ts.http") {
		t.Errorf("notes %q, want one on w3-then-resume.ts.http", got)
	}
}

// TestCopysOwn410IsTold: a capture cut before its second response's 410
// (w4-then-resume as it stood at 01:04:25.0), given before the whole
// one: the two hold the same responses, but only the whole one the 410,
// which the 410s' line tells.
func TestCopysOwn410IsTold(t *testing.T) {
	whole := testsample.Read(t, samplesDir+"/w4-then-resume.ts.http")
	cut := whole[:bytes.Index(whole, []byte(`{"type":"ERROR"`))]
	cut = cut[:bytes.LastIndexByte(cut[:len(cut)-1], '\n')+1]
	b := NewBuilder()
	for i, data := range [][]byte{cut, whole} {
		if err := b.AddReader([]string{"cut.ts.http", "whole.ts.http"}[i], bytes.NewReader(data), parser.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	tl := b.Build()
	if got := sameWatchNotes(tl); len(got) != 1 || !strings.HasPrefix(got[0], "whole.ts.http: this capture holds the same watch as cut.ts.http") {
		t.Fatalf("notes %q, want the whole capture noted as holding the cut one's responses", got)
	}
	var observed string
	for _, l := range tl.Analyze(DefaultParams()).Summary(nil) {
		if l.Topic == "observed" {
			observed = l.Text
		}
	}
	if !strings.Contains(observed, "whole.ts.http's reconnect from RV 389, sent at 2026-11-30 01:04:24.980 UTC, was refused by the server with 410 Gone") {
		t.Errorf("the 410s' line does not tell the whole capture's 410: %q", observed)
	}
}
