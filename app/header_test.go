package app

import (
	"strings"
	"testing"

	"watchlens/app/engine/enginetest"
	"watchlens/app/load"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// TestFilesTextNamesTheFirstFiles: the header names up to three files
// open, and of more the first two and how many others.
func TestFilesTextNamesTheFirstFiles(t *testing.T) {
	samples := []string{"w3-then-resume.ts.http", "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http", "client-go-golden-watch.http"}
	for n, want := range map[int]string{
		1: "w3-then-resume.ts.http",
		3: "w3-then-resume.ts.http, w4-then-resume.ts.http, w1-broad-configmaps-bookmarks.ts.http",
		4: "w3-then-resume.ts.http, w4-then-resume.ts.http and 2 other files",
	} {
		var paths []string
		for _, s := range samples[:n] {
			paths = append(paths, testsample.Sample(t, s))
		}
		_, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
		c := &capture{&load.Capture{Opened: o}}
		// The names come isolated (words.Isolated): the text compared is
		// what shows.
		if got := strings.Map(func(r rune) rune {
			if r == '\u2068' || r == '\u2069' {
				return -1
			}
			return r
		}, c.filesText()); got != want {
			t.Errorf("%d files open: the header says %q, want %q", n, got, want)
		}
	}
}

// TestFilesTextNamesRecordsFirst: of an incident's files selected
// together, the header names records, not the README and the notes that
// sort first.
func TestFilesTextNamesRecordsFirst(t *testing.T) {
	lab := testsample.Recording(t, "samples-lab")
	paths := []string{lab + "/README.md", lab + "/SUMMARY.txt", lab + "/TRUTH.tsv",
		testsample.Sample(t, "w3-then-resume.ts.http"), testsample.Sample(t, "w4-then-resume.ts.http")}
	_, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	c := &capture{&load.Capture{Opened: o}}
	got := strings.NewReplacer("\u2068", "", "\u2069", "").Replace(c.filesText())
	if want := "w3-then-resume.ts.http, w4-then-resume.ts.http and 3 other files"; got != want {
		t.Errorf("the header says %q, want %q", got, want)
	}
}
