package engine

import (
	"bytes"
	"cmp"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"watchlens/app/words"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// recordingEngine opens the files of a recording (a folder beside the
// samples) that match patterns, as a drop of them would.
func recordingEngine(t *testing.T, recording string, patterns ...string) (*Engine, Opened) {
	t.Helper()
	dir := testsample.Recording(t, recording)
	var all []string
	for _, p := range patterns {
		paths, err := filepath.Glob(filepath.Join(dir, p))
		if err != nil || len(paths) == 0 {
			t.Fatalf("%s: no file matches %s (%v)", recording, p, err)
		}
		all = append(all, paths...)
	}
	return openFiles(t, Options{}, all...)
}

func TestFindingsFollowTheKindFilter(t *testing.T) {
	e, _ := sampleEngine(t, "w4-then-resume.ts.http", "kubectl-pods-watch.jsonl")
	all := e.Findings(timeline.Filter{})
	if len(all.Errors) != 1 || len(all.Zones) == 0 || !strings.Contains(all.Errors[0].Text, "too old resource version: 389 (1411)") {
		t.Fatalf("unfiltered: %d errors, %d zones; want w4's 410 and its zones", len(all.Errors), len(all.Zones))
	}
	if pods := e.Findings(timeline.Filter{Kind: "Pod"}); len(pods.Errors) != 0 || len(pods.Zones) != 0 {
		t.Errorf("filtered to Pods, the ConfigMap watch's findings remain: %d errors, %d zones", len(pods.Errors), len(pods.Zones))
	}
	if cms := e.Findings(timeline.Filter{Kind: "ConfigMap"}); len(cms.Errors) != 1 || len(cms.Zones) != len(all.Zones) {
		t.Errorf("filtered to ConfigMaps: %d errors, %d zones; want all of w4's", len(cms.Errors), len(cms.Zones))
	}
}

func TestFindingsAnomalyFollowsObjectFilters(t *testing.T) {
	// A real capture with one of its events recorded twice: the repeated
	// event is an anomaly about one object.
	lines := bytes.SplitAfter(testsample.SampleBytes(t, "kubectl-pods-watch.jsonl"), []byte("\n"))
	capture := bytes.Join(append(lines[:3:3], lines[2]), nil)
	e, _, err := Open([]Source{{Name: "repeated.jsonl", Size: int64(len(capture)), Data: bytes.NewReader(capture)}}, Options{Params: timeline.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	all := e.Findings(timeline.Filter{})
	if len(all.Anomalies) == 0 || all.Anomalies[0].Event < 0 {
		t.Fatalf("the repeated event gave no anomaly about an event: %+v", all.Anomalies)
	}
	tl := e.Timeline()
	lane := tl.Lanes.At(tl.Event(all.Anomalies[0].Event).Lane)
	if got := e.Findings(timeline.Filter{Text: lane.Name}); len(got.Anomalies) != len(all.Anomalies) {
		t.Errorf("searching the object's own name hid its anomaly")
	}
	if got := e.Findings(timeline.Filter{Text: "no-such-object"}); len(got.Anomalies) != 0 {
		t.Errorf("searching another name kept the anomaly: %+v", got.Anomalies)
	}
}

func TestFindingsAreAtTheModelsInstants(t *testing.T) {
	e, _ := sampleEngine(t, "w4-then-resume.ts.http", "w2-broad-pods-bookmarks.http.gz", "w3-then-resume.ts.http")
	an := e.Analysis()
	f := e.Findings(timeline.Filter{})
	if len(f.Zones) != len(an.Zones) || len(f.Gaps) != len(an.Gaps) || len(f.Zones) == 0 || len(f.Gaps) < 2 {
		t.Fatalf("%d zones and %d gaps listed, the model has %d and %d; want some zones and at least two gaps", len(f.Zones), len(f.Gaps), len(an.Zones), len(an.Gaps))
	}
	for i, z := range an.Zones {
		if !f.Zones[i].Timed || f.Zones[i].At != z.From {
			t.Errorf("zone %d listed at %d (timed %v), the model has it from %d", i, f.Zones[i].At, f.Zones[i].Timed, z.From)
		}
	}
	starts := map[int64]bool{}
	for _, g := range an.Gaps {
		starts[g.From] = true
	}
	for i, g := range f.Gaps {
		if !starts[g.At] || !g.Timed {
			t.Errorf("gap %d listed at %d, when no gap of the model starts", i, g.At)
		}
		if i > 0 && f.Gaps[i-1].Text == g.Text {
			t.Errorf("gap %d listed twice: %s", i, g.Text)
		}
	}
	// The longest first.
	longest := slices.MaxFunc(an.Gaps, func(a, b timeline.Gap) int { return cmp.Compare(a.AgeTime, b.AgeTime) })
	if f.Gaps[0].At != longest.From {
		t.Errorf("the first gap listed is %q, not the longest (%s)", f.Gaps[0].Text, timeline.FormatDuration(longest.AgeTime))
	}
	// The what-if is the model's, but for its points.
	w := an.WhatIf
	w.Points = nil
	if !reflect.DeepEqual(f.WhatIf, w) || w.Reconnects == 0 {
		t.Errorf("the what-if answered %+v, the model's %+v", f.WhatIf, w)
	}
	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http"} {
		// Each file once, by its longest cursor.
		if n := strings.Count(f.LongestAges, words.Isolated(name)+" "); n != 1 {
			t.Errorf("the longest ages %q name %s %d times", f.LongestAges, name, n)
		}
	}
}

// TestFindingsCrossAMessage: the findings of the fleet recording, long
// lists of every kind, come back from JSON as they went.
func TestFindingsCrossAMessage(t *testing.T) {
	e, _ := recordingEngine(t, "samples-fleet", "*.ts.http")
	f := e.Findings(timeline.Filter{})
	if len(f.Errors) == 0 || len(f.Zones) == 0 || len(f.Resumes) == 0 || len(f.Gaps) == 0 || f.LongestAges == "" {
		t.Fatalf("the fleet's findings miss a list: %d errors, %d zones, %d resumes, %d gaps, ages %q", len(f.Errors), len(f.Zones), len(f.Resumes), len(f.Gaps), f.LongestAges)
	}
	roundTrip(t, "Findings", f)
}

// TestFindingsOfAWholeFleet: on the watchlist recording (99 captures,
// 2 667 gaps, hundreds of cursors) the gaps' count is every gap, not
// the thousand kept; the longest ages name the five longest and how many
// more, not hundreds in one line.
func TestFindingsOfAWholeFleet(t *testing.T) {
	e, _ := recordingEngine(t, "samples-watchlist", "*.ts.http")
	f := e.Findings(timeline.Filter{})
	if e.an.GapCount <= timeline.MaxGapsKept || len(f.Gaps) != timeline.MaxGapsKept {
		t.Fatalf("%d gaps, %d kept: the test proves nothing", e.an.GapCount, len(f.Gaps))
	}
	if f.GapCount != e.an.GapCount {
		t.Errorf("the findings count %d gaps, the analysis %d", f.GapCount, e.an.GapCount)
	}
	if n := strings.Count(f.LongestAges, ";"); n != maxLongestAges || !strings.HasSuffix(f.LongestAges, " more") {
		t.Errorf("the longest ages name %d cursors: %q", n, f.LongestAges)
	}
	var longest int64
	for _, c := range e.an.Ages {
		longest = max(longest, c.MaxAge)
	}
	first, _, _ := strings.Cut(f.LongestAges, ";")
	if !strings.HasSuffix(first, " "+timeline.FormatDuration(longest)) {
		t.Errorf("the longest ages begin with %q, not the longest (%s)", first, timeline.FormatDuration(longest))
	}
	if !f.Fleet {
		t.Errorf("99 captures make no fleet")
	}
	// The cursors in plain words, as the verdict names them, not the
	// model's names (third page review: "c020-bookmarks.ts.http
	// bookmark-ignoring 13m0s").
	zones, _ := e.Zones(50)
	if len(zones) == 0 {
		t.Fatal("no red zone in the WatchList recording: the test proves nothing")
	}
	for _, text := range append([]string{f.LongestAges}, zones[0].Where) {
		if strings.Contains(text, "bookmark-") || strings.Contains(text, "had-bookmarks") ||
			!strings.Contains(text, "("+timeline.BookmarkIgnoring.Words()+")") && !strings.Contains(text, "("+timeline.BookmarkAware.Words()+")") {
			t.Errorf("a cursor named in the model's words: %q", text)
		}
	}
}

// TestAtRiskResumesAreUndecided: the Python informers' resumes, refused
// or accepted by the server, are at risk in the models: undecided, not a
// contradiction of what the server answered.
func TestAtRiskResumesAreUndecided(t *testing.T) {
	e, _ := openFiles(t, Options{}, filepath.Join("..", "..", "parser", "testdata", "python-informer.log"))
	atRisk := 0
	for _, r := range e.Findings(timeline.Filter{}).Resumes {
		if strings.Contains(r.Text, "the models "+timeline.OutcomeWords(timeline.AtRisk)) {
			atRisk++
			if !strings.Contains(r.Text, "(undecided)") {
				t.Errorf("an at-risk prediction is not undecided: %s", r.Text)
			}
		}
	}
	if atRisk == 0 {
		t.Errorf("no resume of the Python informers is at risk: the test proves nothing")
	}
}

// TestLogGonesAreErrors: the Python informers' log shows two 410s, which
// the verdict tells; the Findings' observed errors and the range's error
// count hold them too (they said 0).
func TestLogGonesAreErrors(t *testing.T) {
	e, _ := openFiles(t, Options{}, filepath.Join("..", "..", "parser", "testdata", "python-informer.log"))
	gones := len(e.tl.Gones())
	if gones != 2 {
		t.Fatalf("%d 410s in the Python informers' log, want 2", gones)
	}
	f := e.Findings(timeline.Filter{})
	if len(f.Errors) != gones {
		t.Errorf("the findings list %d errors, the log shows %d 410s", len(f.Errors), gones)
	}
	for _, er := range f.Errors {
		if !strings.Contains(er.Text, "410 Gone in the client's log: Watch expired") {
			t.Errorf("error finding %q", er.Text)
		}
	}
	if st := e.an.RangeStats(e.tl.Start(), e.tl.End()+1); st.Errors != gones {
		t.Errorf("the whole range counts %d errors, want %d", st.Errors, gones)
	}
}
