package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"watchlens/app/engine/enginetest"
	"watchlens/internal/testsample"
	"watchlens/report"
	"watchlens/timeline"
)

// figure is one number that answers a question, by the words every
// surface puts before it.
type figure struct {
	words *regexp.Regexp // its number is the first group
	value int
}

// storyFigures are the model's answers, with the words that introduce
// them on the page's Findings, the text report, the Markdown report and
// the pasted summary: "the bookmarks received" are what the client got,
// "had it asked" what it would have got, and the fleet's "every client"
// is neither.
func storyFigures(an *timeline.Analysis) []figure {
	w := an.WhatIf
	figs := []figure{
		{regexp.MustCompile(`relists with the bookmarks received\W+(\d+)`), w.RelistsWith},
		{regexp.MustCompile(`relists ignoring bookmarks\W+(\d+)`), w.RelistsWithout},
		{regexp.MustCompile(`relists had it asked for bookmarks\W+(\d+)`), w.RelistsHad},
		{regexp.MustCompile(`relists saved by the bookmarks received\W+(\d+)`), w.Saved},
	}
	if fl := an.Fleet(); fl != nil && len(fl.Clients) > 1 {
		figs = append(figs,
			figure{regexp.MustCompile(`(\d+) relists observed`), fl.RelistsObserved},
			figure{regexp.MustCompile(`Relists had every client asked for bookmarks: (\d+)`), fl.RelistsWith},
			figure{regexp.MustCompile(`had none: (\d+)`), fl.RelistsWithout},
			figure{regexp.MustCompile(`Had every client asked for bookmarks, (\d+) reconnects would have needed a relist`), fl.RelistsWith},
			figure{regexp.MustCompile(`and without bookmarks (\d+)`), fl.RelistsWithout},
			figure{regexp.MustCompile(`Every client asked for bookmarks, and (\d+) reconnects needed a relist`), fl.RelistsWith},
			figure{regexp.MustCompile(`had none asked, (\d+) would have`), fl.RelistsWithout},
			figure{regexp.MustCompile(`bookmarks save (?:at least )?(\d+)`), fl.Saved},
		)
	}
	return figs
}

// storySets are the captures a user would open together: each sample of
// the repo alone, and each shared recording whole.
func storySets(t *testing.T) map[string][]string {
	sets := map[string][]string{}
	samples := testsample.Path(t, testsample.SamplesDir)
	for name := range testsample.Manifest(t, samples) {
		sets[name] = []string{filepath.Join(samples, name)}
	}
	for _, rec := range testsample.Recordings {
		dir, ok := testsample.RecordingIfPresent(t, rec)
		if !ok {
			continue
		}
		var files []string
		for _, d := range []string{dir, filepath.Join(dir, "prometheus")} {
			entries, _ := os.ReadDir(d)
			for _, e := range entries {
				n := e.Name()
				if e.IsDir() || strings.HasSuffix(n, ".md") || strings.HasSuffix(n, ".tsv") || strings.HasSuffix(n, ".txt") {
					continue
				}
				files = append(files, filepath.Join(d, n))
			}
		}
		if rec == "samples-real" || rec == "samples-public" {
			for _, f := range files {
				sets[rec+"/"+filepath.Base(f)] = []string{f}
			}
			continue
		}
		sets[rec] = files
	}
	return sets
}

// TestOneStoryOnEverySurface: every figure that answers a question reads
// the same on the page's verdict and Findings, the text and Markdown
// reports, the pasted summary and the JSON, and is the model's own, for
// every sample and shared recording.
func TestOneStoryOnEverySurface(t *testing.T) {
	checked := map[string]int{}
	for name, files := range storySets(t) {
		t.Run(name, func(t *testing.T) {
			eng, _ := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, files...)
			an := eng.Analysis()
			r := report.New(an, nil)

			var text, md, js bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if err := r.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			if err := r.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var verdict []string
			for _, l := range an.Summary(nil) {
				verdict = append(verdict, l.Text)
			}
			surfaces := map[string]string{
				"findings": htmlText(goapp.HTMLString(findingsPanelOf(eng, timeline.Filter{}))),
				"verdict":  htmlText(goapp.HTMLString(&Verdict{Lines: an.Summary(nil)})),
				"text":     text.String(),
				"markdown": md.String(),
				"paste":    r.PasteMarkdown(""),
			}
			for _, f := range storyFigures(an) {
				seen := 0
				for surface, s := range surfaces {
					for _, m := range f.words.FindAllStringSubmatch(s, -1) {
						seen++
						if n, _ := strconv.Atoi(m[1]); n != f.value {
							t.Errorf("%s says %q; the model's figure is %d", surface, m[0], f.value)
						}
					}
				}
				if seen > 0 {
					checked[f.words.String()]++
				}
			}
			if strings.Contains(strings.Join(verdict, "\n"), "bookmarks received") && an.WhatIf.Reconnects == 0 {
				t.Errorf("the verdict speaks of bookmarks received where nothing reconnected")
			}

			// The JSON's figures are the model's.
			var doc struct {
				WhatIf struct {
					With    int `json:"relistsWithBookmarks"`
					Without int `json:"relistsWithoutBookmarks"`
					Had     int `json:"relistsHadBookmarks"`
					Saved   int `json:"relistsSaved"`
				} `json:"whatIf"`
				Fleet *struct {
					Observed int `json:"relistsObserved"`
					With     int `json:"relistsWithBookmarks"`
					Without  int `json:"relistsWithoutBookmarks"`
				} `json:"fleet"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			w := an.WhatIf
			if got := doc.WhatIf; got.With != w.RelistsWith || got.Without != w.RelistsWithout || got.Had != w.RelistsHad || got.Saved != w.Saved {
				t.Errorf("JSON whatIf %+v; the model's %d, %d, %d, %d", got, w.RelistsWith, w.RelistsWithout, w.RelistsHad, w.Saved)
			}
			if fl := an.Fleet(); fl != nil && doc.Fleet != nil && (doc.Fleet.Observed != fl.RelistsObserved || doc.Fleet.With != fl.RelistsWith || doc.Fleet.Without != fl.RelistsWithout) {
				t.Errorf("JSON fleet %+v; the model's %d, %d, %d", *doc.Fleet, fl.RelistsObserved, fl.RelistsWith, fl.RelistsWithout)
			}
		})
	}
	// Each figure was found on some surface: the test reads what it holds.
	// The fleet's figures need clients of their own, which only the shared
	// recordings have.
	must := []string{`relists with the bookmarks received\W+(\d+)`, `relists had it asked for bookmarks\W+(\d+)`}
	if _, ok := testsample.RecordingIfPresent(t, "samples-fleet"); ok {
		must = append(must, `Relists had every client asked for bookmarks: (\d+)`, `bookmarks save (?:at least )?(\d+)`)
	}
	for _, words := range must {
		if checked[words] == 0 {
			t.Errorf("no surface of any sample says %q", words)
		}
	}
}

var htmlTag = regexp.MustCompile(`<[^>]*>`)

// htmlText is a rendered component's text, its elements apart.
func htmlText(html string) string {
	return htmlTag.ReplaceAllString(html, "\n")
}
