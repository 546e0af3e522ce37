package app

import (
	"testing"

	"watchlens/app/engine"
	"watchlens/timeline"
)

// TestNotCapturesLine: the files that are no capture are told in one
// sentence, each that has a kind of its own by it, the rest by why.
func TestNotCapturesLine(t *testing.T) {
	readme := engine.File{Name: "README.md", NotCapture: timeline.LooksLikeOther, LooksLike: "a Markdown document"}
	empty := engine.File{Name: "empty.log", NotCapture: timeline.Empty}
	truth := engine.File{Name: "TRUTH.tsv", NotCapture: timeline.Unreadable, Problems: 1}
	notes := engine.File{Name: "notes.txt", NotCapture: timeline.Unreadable, Problems: 1}
	capture := engine.File{Name: "c000.ts.http", Problems: 2}
	for _, tc := range []struct {
		files []engine.File
		want  string
	}{
		{[]engine.File{capture}, ""},
		{[]engine.File{capture, readme}, "README.md is not a watch capture: it looks like a Markdown document."},
		{[]engine.File{empty}, "empty.log is not a watch capture: it is empty."},
		{[]engine.File{truth, capture}, "TRUTH.tsv is not a watch capture: nothing in it reads as a watch event, an audit log, a client log or a metrics export."},
		{[]engine.File{readme, empty}, "2 files are not watch captures: README.md is a Markdown document and empty.log is empty."},
		{[]engine.File{truth, notes}, "2 files are not watch captures: nothing in them reads as a watch event, an audit log, a client log or a metrics export (TRUTH.tsv and notes.txt)."},
		{[]engine.File{readme, truth, capture, notes}, "3 files are not watch captures: README.md is a Markdown document, and nothing in the other 2 reads as a watch event, an audit log, a client log or a metrics export (TRUTH.tsv and notes.txt)."},
	} {
		if got := notCapturesLine(tc.files); got != tc.want {
			t.Errorf("notCapturesLine(%d files):\n got %q\nwant %q", len(tc.files), got, tc.want)
		}
	}
}
