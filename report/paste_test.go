package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/timeline"
)

// What "Copy summary" pastes: the summary's lines, the key figures, the
// link, with nothing of the capture able to break the Markdown. One
// capture is no fleet: its table of reconnects is the what-if's answer.
func TestPasteMarkdown(t *testing.T) {
	r := New(loadSamples(t, "w4-then-resume.ts.http").Analyze(realServer()), nil)
	md := r.PasteMarkdown("https://example.org/watchlens/?sample=x&view=(1)")
	if r.Fleet != nil {
		t.Fatal("one capture read as a fleet: the test proves nothing")
	}
	for _, want := range []string{"`w4-then-resume.ts.http`", r.Summary[0].Text[:40], "| relists with the bookmarks received | 0 | 1 | 0 |", "| relists had it asked for bookmarks | 0 | 0 | 1 |", "\n1 reconnect recorded, 1 refusal with 410 Gone in the records", "no API server restart",
		"[Open this view in watchlens](https://example.org/watchlens/?sample=x&view=%281%29)"} {
		if !strings.Contains(md, want) {
			t.Errorf("the pasted summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Count(md, "\n- ") != len(r.Summary) {
		t.Errorf("%d summary lines pasted, want %d", strings.Count(md, "\n- "), len(r.Summary))
	}
}

// TestPasteOfAFleetAnswersOnce: samples-outage's paste answered "would
// bookmarks have helped?" in its verdict (74 and 88 relists), in a table
// of the recorded reconnects judged by the models (68, 83, 68), in a
// line under it (74 and 88 again) and in a footnote on why they differ.
// The verdict's answer is the fleet's, said once; the table, a check of
// the models, stays in the report; the fleet's size joins the key
// figures.
func TestPasteOfAFleetAnswersOnce(t *testing.T) {
	r := outageAsGiven(t)
	md := r.PasteMarkdown("")
	if r.Fleet == nil || r.Fleet.With == r.WhatIf.RelistsHad {
		t.Fatalf("no fleet, or its figures are the what-if's: the test proves nothing")
	}
	for _, words := range []string{"every client asked for bookmarks", "bookmarks save"} {
		if n := strings.Count(strings.ToLower(md), strings.ToLower(words)); n != 1 {
			t.Errorf("the paste says %q %d times, want once:\n%s", words, n, md)
		}
	}
	for _, words := range []string{"| each recorded reconnect", "relists with the bookmarks received", "Fleet of ", "These figures judge each recorded reconnect"} {
		if strings.Contains(md, words) {
			t.Errorf("the paste of a fleet says %q:\n%s", words, md)
		}
	}
	if want := fmt.Sprintf("\n%d clients, %d reconnects recorded, ", r.Fleet.Clients, r.WhatIf.Reconnects); !strings.Contains(md, want) {
		t.Errorf("the paste's figures lack %q:\n%s", want, md)
	}
}

// TestPasteOfAFleetNamesAFew: a fleet's hundred captures pasted every
// name before the verdict (7 KB on the watchlist recording); the first
// five and how many more.
func TestPasteOfAFleetNamesAFew(t *testing.T) {
	names := make([]string, 0, 12)
	r := &Report{}
	for i := range 12 {
		name := "c0" + string(rune('a'+i)) + ".ts.http"
		names = append(names, name)
		r.Files = append(r.Files, FileReport{Name: name})
	}
	first, _, _ := strings.Cut(r.PasteMarkdown(""), "\n")
	if want := "**watchlens** on `" + names[0] + "`, "; !strings.HasPrefix(first, want) || !strings.HasSuffix(first, " and 7 more") || strings.Contains(first, names[5]) {
		t.Errorf("the pasted summary begins %q", first)
	}
}

// TestPasteCountsEveryGone: the Python informers' log shows two 410s,
// which the verdict tells; the pasted summary said "0 410 Gone observed",
// and its table dropped the reconnects no model could judge had the
// clients asked for bookmarks (6), so that its "0" read as bookmarks
// preventing every relist. The two clients are a fleet, whose verdict
// says that is not known.
func TestPasteCountsEveryGone(t *testing.T) {
	r := New(build(t, []string{"../parser/testdata/python-informer.log"}).Analyze(realServer()), nil)
	md := r.PasteMarkdown("")
	if r.Gones != 2 || r.WhatIf.UnknownHad == 0 {
		t.Fatalf("%d 410s, %d reconnects not judged had they asked: the test proves nothing", r.Gones, r.WhatIf.UnknownHad)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "But 2 410 Gone only the clients' own logs show") {
		t.Errorf("the text report's observed errors say nothing of the log's 410s:\n%s", text.String())
	}
	for _, want := range []string{"2 refusals with 410 Gone in the records", "Whether bookmarks would have spared the relists of the clients that did not ask for them is not known", "1 probable API server restart"} {
		if !strings.Contains(md, want) {
			t.Errorf("the pasted summary lacks %q:\n%s", want, md)
		}
	}
}

// outageAsGiven is samples-outage as the review pasted it (`analyze *`):
// the captures, the servers' audit logs and own logs, the fleet's log
// and the Prometheus exports.
func outageAsGiven(t *testing.T) *Report {
	t.Helper()
	tl := loadRecording(t, "samples-outage", "*.ts.http", "*.log", "prometheus/*.txt.gz", "prometheus/query_range/*.json.gz")
	return New(tl.Analyze(timeline.DefaultParams()), nil)
}

// TestBookmarkSavingsReadAsOneFigure: on samples-outage the verdict said
// "bookmarks save 16 %" and the fleet section under it "bookmarks save
// 14 (15.9 %)", one answer in two forms. Each now gives the JSON's count
// and share, as one string.
func TestBookmarkSavingsReadAsOneFigure(t *testing.T) {
	r := outageAsGiven(t)
	fr := r.Fleet
	if fr == nil || !fr.SavingsKnown || fr.Saved == 0 || fr.SavedPercent == 100 {
		t.Fatalf("fleet %+v: no partial saving to tell, the test proves nothing", fr)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	saves := regexp.MustCompile(`bookmarks save (?:at least )?(\d+)(?: relists?)? \(([\d.]+ %)[;)]`).FindAllStringSubmatch(text.String(), -1)
	if len(saves) != 2 {
		t.Errorf("the verdict and the fleet section say what bookmarks save %d times in that form, want 2: %q", len(saves), saves)
	}
	for _, m := range saves {
		if m[1] != strconv.Itoa(fr.Saved) || m[2] != strconv.FormatFloat(fr.SavedPercent, 'f', 1, 64)+" %" {
			t.Errorf("%q; the JSON's relistsSaved %d, percentSaved %g", m[0], fr.Saved, fr.SavedPercent)
		}
	}
	if other := regexp.MustCompile(`bookmarks save[^%]{0,40}%`).FindAllString(text.String(), -1); len(other) > len(saves) {
		t.Errorf("a saving said in another form: %q", other)
	}
}

// TestPasteClosesWithFiguresEngineersUse: samples-outage's paste ended
// "100 reconnects recorded, 74 refusals with 410 Gone in the records, 744 red zones,
// no API server restart."; a count of red zones, stretches per client
// and model, is no figure an on-call engineer uses, and the report
// lists them.
func TestPasteClosesWithFiguresEngineersUse(t *testing.T) {
	r := outageAsGiven(t)
	if len(r.Zones) == 0 {
		t.Fatal("no red zone in samples-outage: the test proves nothing")
	}
	md := r.PasteMarkdown("")
	if want := "\n99 clients, 100 reconnects recorded, 74 refusals with 410 Gone in the records, no API server restart.\n"; !strings.HasSuffix(md, want) {
		t.Errorf("the paste does not end %q:\n%s", want, md)
	}
	if strings.Contains(md, "red zone") {
		t.Errorf("the paste speaks of red zones:\n%s", md)
	}
}

// TestPastedTableSaysItsWords: w4-then-resume's paste headed two columns
// "at risk" and "not judged", each with a count, and said nothing of what
// either means; under the table it says. A paste without a reconnect
// (w1's) has no table, which would be nine zeros. Its rows
// say what they judge: the recorded reconnects, from the evidence before
// each, which is why its 410 can count as at risk.
func TestPastedTableSaysItsWords(t *testing.T) {
	r := New(loadSamples(t, "w4-then-resume.ts.http").Analyze(realServer()), nil)
	w := r.WhatIf
	if w.AtRiskWith == 0 || w.UnknownHad == 0 {
		t.Fatalf("what-if %+v: no reconnect at risk or not judged, the test proves nothing", w)
	}
	md := r.PasteMarkdown("")
	if want := "| each recorded reconnect, judged from the evidence before it |"; !strings.Contains(md, want) {
		t.Errorf("the paste's table is not headed %q:\n%s", want, md)
	}
	for _, want := range []string{"\n_At risk: the evidence cannot tell whether the server still had the client's cursor", "Not judged: the records lack what a judgement needs then"} {
		if !strings.Contains(md, want) {
			t.Errorf("the paste lacks %q under its table:\n%s", want, md)
		}
	}
	// w1 has no reconnect: its table would be nine zeros, and the last
	// line says "0 reconnects recorded".
	none := New(loadSamples(t, "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer()), nil).PasteMarkdown("")
	if strings.Contains(none, "| relists") || strings.Contains(none, "At risk:") || strings.Contains(none, "Not judged:") || !strings.Contains(none, "\n0 reconnects recorded") {
		t.Errorf("a paste without a reconnect has a table of zeros, or explains its columns:\n%s", none)
	}
}

// TestPastedGonesCountACopyOnce: w4-then-resume's .http and its .ts.http
// are one recording, whose 410 the verdict tells once; the paste's last
// line counted it twice, "2 refusals with 410 Gone in the records".
func TestPastedGonesCountACopyOnce(t *testing.T) {
	r := New(loadSamples(t, "w4-then-resume.http", "w4-then-resume.ts.http").Analyze(realServer()), nil)
	if r.Gones != 2 {
		t.Fatalf("the records hold %d 410s, want w4's in each form", r.Gones)
	}
	if md := r.PasteMarkdown(""); !strings.Contains(md, ", 1 refusal with 410 Gone in the records (and one of them again, in a copy of its recording),") {
		t.Errorf("the paste's last line does not count the copy's 410 apart:\n%s", md)
	}
}

// TestPasteCountsAnOutageAsOne: samples-outage's captures alone show
// every watch ending at once and no reconnect reaching a server for
// 2m30s, which the summary tells as every API server restarting or the
// way to them cut (a load balancer failed); the paste's last line said
// "1 probable API server restart", which the records contradict.
func TestPasteCountsAnOutageAsOne(t *testing.T) {
	r := New(loadRecording(t, "samples-outage", "*.ts.http").Analyze(timeline.DefaultParams()), nil)
	if len(r.Restarts) != 1 || !r.Restarts[0].Unreachable {
		t.Fatalf("restarts %+v, want one, unreachable", r.Restarts)
	}
	if md := r.PasteMarkdown(""); !strings.HasSuffix(md, ", 1 probable API server restart or cut connection.\n") {
		t.Errorf("the paste's last line:\n%s", md[strings.LastIndex(strings.TrimSuffix(md, "\n"), "\n")+1:])
	}
}

// TestPasteOfServerLogsAlone: samples-outage's API server logs alone,
// no client's records: the paste began "**watchlens** on " and named
// nothing, and said the rebuilt caches were of resources "these clients
// did not watch", of no clients.
func TestPasteOfServerLogsAlone(t *testing.T) {
	md := New(loadRecording(t, "samples-outage", "apiserver-*.log").Analyze(timeline.DefaultParams()), nil).PasteMarkdown("")
	if !strings.HasPrefix(md, "**watchlens** on `apiserver-a-1.log`, `apiserver-b-1.log` and `apiserver-c-1.log`\n") || strings.Contains(md, "these clients") {
		t.Errorf("the paste of the server logs alone:\n%s", md)
	}
}

// TestPasteNamesTheRecords: samples-lab's folder, given whole, pasted
// "**watchlens** on `README.md`, `SUMMARY.txt`, `TRUTH.tsv`,
// `attribution.tsv`, `broad-a.ts.http` and 232 more": the notes and
// tables kept beside the records, which no verdict reads, named first.
// The report still lists them, marked.
func TestPasteNamesTheRecords(t *testing.T) {
	r := New(loadRecording(t, "samples-lab", "README.md", "TRUTH.tsv", "c000-bookmarks.ts.http", "c080-nobookmarks.ts.http").Analyze(timeline.DefaultParams()), nil)
	marked := 0
	for _, f := range r.Files {
		if f.NotCapture {
			marked++
		}
	}
	if len(r.Files) != 4 || marked != 2 {
		t.Fatalf("%d files, %d marked as no capture; want 4 and 2", len(r.Files), marked)
	}
	first, _, _ := strings.Cut(r.PasteMarkdown(""), "\n")
	if want := "**watchlens** on `c000-bookmarks.ts.http` and `c080-nobookmarks.ts.http`"; first != want {
		t.Errorf("the pasted summary begins %q, want %q", first, want)
	}
	// Given nothing but them, it names them: it named nothing.
	r = New(loadRecording(t, "samples-lab", "README.md", "TRUTH.tsv").Analyze(timeline.DefaultParams()), nil)
	if first, _, _ = strings.Cut(r.PasteMarkdown(""), "\n"); first != "**watchlens** on `README.md` and `TRUTH.tsv`" {
		t.Errorf("of the README and a table alone, the pasted summary begins %q", first)
	}
}

// TestResumeAtListsTheRecords: samples-fleet's folder, given whole, with
// --resume-at, answered for its README "no cursor: the watch started
// without a resourceVersion and has seen nothing yet" (the SRE check of
// the day's change), where the page's Reconnect tab lists the captures.
func TestResumeAtListsTheRecords(t *testing.T) {
	at := time.Date(2026, 12, 1, 8, 43, 0, 0, time.UTC).UnixNano()
	r := New(loadRecording(t, "samples-fleet", "README.md", "c00-bookmarks.ts.http", "c30-nobookmarks.ts.http").Analyze(timeline.DefaultParams()), []timeline.ResumeQuery{{At: at}})
	files := map[string]bool{}
	for _, q := range r.ResumeAt {
		files[q.File] = true
	}
	if len(files) != 2 || files["README.md"] || !files["c00-bookmarks.ts.http"] {
		t.Errorf("a reconnect at 08:43 answers for %v, want the two captures", files)
	}
}
