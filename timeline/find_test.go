package timeline

import (
	"slices"
	"testing"
	"time"
)

// Find reads an instant in every form the page, the report and a user
// write it, and keeps a day without its year, or a time of day, only
// inside the captures.
func TestFindInstantForms(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	want := instant(t, "2026-11-30T01:04:25Z")
	for _, q := range []string{
		"01:04:25", "01:04:25 UTC", "01:04:25Z",
		"2026-11-30T01:04:25Z", "2026-11-30T01:04:25.000000000Z", "2026-11-30T02:04:25+01:00", "2026-11-30T01:04:25",
		"2026-11-30 01:04:25", "2026-11-30 01:04:25.000", "2026-11-30 01:04:25.000 UTC",
		"Nov 30 01:04:25 UTC", "Nov 30 01:04:25",
	} {
		var got []int64
		for _, m := range tl.Find(q, 10, nil) {
			if m.Kind == MatchTime {
				got = append(got, m.T)
			}
		}
		if !slices.Equal(got, []int64{want}) {
			t.Errorf("%q: the instants found are %v, want %d", q, got, want)
		}
	}
	if m := tl.Find("01:04:25.98", 10, nil); len(m) != 1 || m[0].T != instant(t, "2026-11-30T01:04:25.98Z") {
		t.Errorf("01:04:25.98: %+v", m)
	}
	for _, q := range []string{"Nov 29 01:04:25", "Dec 30 01:04", "23:00 UTC", "Nov 31 01:04:25", "2026-11-30 25:00:00"} {
		if m := tl.Find(q, 10, nil); len(m) != 0 {
			t.Errorf("%q is no instant of the captures, yet Find gives %+v", q, m)
		}
	}
}

// In the reader's zone, Find reads a typed instant as that zone's, and
// writes its match there; an instant that says UTC stays UTC.
func TestFindInAZone(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	want := instant(t, "2026-11-30T01:04:25Z")
	for _, q := range []string{"02:04:25", "2026-11-30 02:04:25.000 CET", "Nov 30 02:04:25", "01:04:25 UTC", "2026-11-30T01:04:25Z"} {
		m := tl.Find(q, 10, paris)
		if len(m) != 1 || m[0].Kind != MatchTime || m[0].T != want || m[0].Text != "2026-11-30 02:04:25.000 CET" {
			t.Errorf("%q in Europe/Paris: %+v, want the instant of 01:04:25 UTC written as 02:04:25.000 CET", q, m)
		}
	}
	if m := tl.Find("01:04:25", 10, paris); len(m) != 0 {
		t.Errorf("01:04:25 in Europe/Paris is no instant of the captures, yet Find gives %+v", m)
	}
}

// The page's answer to a reconnect marker is the summary's line for
// --resume-at, word for word.
func TestResumeAtWords(t *testing.T) {
	a := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer())
	q := ResumeQuery{At: instant(t, "2026-11-30T01:04:24.98Z")}
	var want []SummaryLine
	for _, l := range a.Summary([]ResumeQuery{q}) {
		if l.Topic == "resume-at" {
			want = append(want, l)
		}
	}
	got := a.ResumeAtWords(q)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("ResumeAtWords says %q; the summary %q", got, want)
	}
}

// TestFindAClient: in samples-lab's folder, "c020", "c154-nobookmarks.ts.http"
// and "fleet-c154" (its User-Agent, the fleet's name for it) found nothing
// (the UI review of the page): a client is found by its file's name or its
// User-Agent, and the notes and tables given with the records are not.
func TestFindAClient(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "README.md", "c020-bookmarks.ts.http", "c154-nobookmarks.ts.http", "audit-a-1.log")
	files := map[string]int{}
	for fi, f := range tl.Files {
		files[f.Name] = fi
	}
	for _, tc := range []struct{ query, file, text string }{
		{"c020", "c020-bookmarks.ts.http", "c020-bookmarks.ts.http"},
		{"C154-NOBOOKMARKS.ts.http", "c154-nobookmarks.ts.http", "c154-nobookmarks.ts.http"},
		{"fleet-c154", "c154-nobookmarks.ts.http", "c154-nobookmarks.ts.http (fleet-c154-nobookmarks/1.0)"},
	} {
		var got []Match
		for _, m := range tl.Find(tc.query, 12, nil) {
			if m.Kind == MatchClient {
				got = append(got, m)
			}
		}
		if len(got) == 0 || got[0].File != files[tc.file] || got[0].Text != tc.text || got[0].T != tl.Files[files[tc.file]].Start {
			t.Errorf("%q finds the clients %+v; want %s first, as %q", tc.query, got, tc.file, tc.text)
		}
	}
	for _, m := range tl.Find("README", 12, nil) {
		if m.Kind == MatchClient {
			t.Errorf("README.md is found as a client: %+v", m)
		}
	}
}
