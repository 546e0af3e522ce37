//go:build !wasm

package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"watchlens/parser"
	"watchlens/timeline"
)

// nativeSummary is the CLI's summary of files read under the given names,
// with the page's default model.
func nativeSummary(t *testing.T, names, files []string) []string {
	t.Helper()
	b := timeline.NewBuilder()
	for k, path := range files {
		f, err := os.Open(path)
		must(t, err)
		must(t, b.AddReader(names[k], f, parser.Options{}))
		f.Close()
	}
	var out []string
	for _, l := range timeline.BuildReport(b.Build(), timeline.DefaultParams()).Summary {
		out = append(out, l.Text)
	}
	return out
}

// verdictShown waits for the page's verdict to read want, and checks that
// it sits in the window, above everything else of the capture, without
// scrolling.
func verdictShown(t *testing.T, tab context.Context, want []string) {
	t.Helper()
	type verdict struct {
		Lines      []string `json:"lines"`
		Top        float64  `json:"top"`
		Bottom     float64  `json:"bottom"`
		Height     float64  `json:"height"`
		FirstChild bool     `json:"firstChild"`
	}
	var got verdict
	var err error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		got, err = chromedp.Run(tab, chromedp.Evaluate[verdict](`(() => {
			const v = document.querySelector("#verdict");
			if (!v) return {lines: []};
			const r = v.getBoundingClientRect();
			return {lines: [...v.querySelectorAll("p")].map(p => p.textContent), top: r.top, bottom: r.bottom,
				height: window.innerHeight, firstChild: v.parentElement.id === "results" && v.parentElement.firstElementChild === v};
		})()`))
		must(t, err)
		if equalLines(got.Lines, want) {
			break
		}
	}
	if !equalLines(got.Lines, want) {
		t.Fatalf("the page's verdict:\n%q\nthe CLI's summary:\n%q", got.Lines, want)
	}
	if !got.FirstChild || got.Top < 0 || got.Bottom > got.Height {
		t.Errorf("the verdict must be the first thing shown, in the window without scrolling: %+v", got)
	}
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBrowserVerdict: opening w4 (its resume refused), w3 (accepted) or
// w4 with the broad capture dropped together, the first thing a user
// reads is the verdict in words, and it is the CLI's.
func TestBrowserVerdict(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http"} {
		tab := s.openSample(t, name)
		verdictShown(t, tab, nativeSummary(t, []string{name}, []string{filepath.Join("samples", name)}))
		screenshot(t, tab, "verdict-"+name)
	}
	files := []string{"samples/w4-then-resume.ts.http", "samples/w1-broad-configmaps-bookmarks.ts.http"}
	tab := s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, files...)
	want := nativeSummary(t, []string{"w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http"}, files)
	verdictShown(t, tab, want)
	screenshot(t, tab, "verdict-w4-w1")
}
