//go:build !wasm

package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserTimeZoneNoteIsNoProblem: a python client's log whose times
// name no zone is read as UTC, and the page says so as a note, a quiet
// line, not as a problem in the input: the red box of "1 problem in the
// input" took some 90 px above the timeline for a log with nothing wrong
// in it. The Files tab says it as a note too, counting no problem.
func TestBrowserTimeZoneNoteIsNoProblem(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
	drop(t, tab, "parser/testdata/python-informer.log")
	note := waitTextWithin(t, tab, "#input-notes", loadWait(tab))
	if !strings.Contains(note, "no time zone") || !strings.Contains(note, "read as UTC") {
		t.Errorf("the note reads %q", note)
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[map[string]any](`(() => {
		const n = document.querySelector("#input-notes");
		return {problems: document.querySelector("#input-problems")?.textContent ?? "", height: n.getBoundingClientRect().height,
			alert: !!n.closest("[role=alert]"), colour: getComputedStyle(n).color, problemColour: getComputedStyle(document.documentElement).getPropertyValue("--problem-fg").trim()};
	})()`))
	must(t, err)
	if got["problems"] != "" || got["alert"] == true {
		t.Errorf("the time zone's note is shown as a problem: %q (in an alert: %v)", got["problems"], got["alert"])
	}
	if h := got["height"].(float64); h > 30 {
		t.Errorf("the note is %v px high, more than a line", h)
	}
	files := filesText(t, tab, `section.result[data-file*="shard=s00"]`)
	if strings.Contains(files, "problem") || !strings.Contains(files, "Note, offset 0 (line 1): no-zone: the log's times name no time zone") {
		t.Errorf("the Files tab says of the log:\n%s", files)
	}
	screenshot(t, tab, "time-zone-note")
}
