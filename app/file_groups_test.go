package app

import (
	"net/url"
	"testing"

	"watchlens/app/canvas"
)

// A link carries the folded groups only when they differ from how the
// files open, "none" when the user unfolded every one of many files, and a
// malformed fold or pin keeps the default.
func TestFileGroupsInLink(t *testing.T) {
	const many = 100
	for _, tc := range []struct {
		folded canvas.FileSet
		n      int
		text   string
	}{
		{canvas.AllFiles(many), many, ""},
		{canvas.FileSet{}, many, foldNone},
		{canvas.AllFiles(many).With(70, false), many, "0-69,71-99"},
		{canvas.FileSet{}, 2, ""},
		{canvas.FileSet{}.With(1, true), 2, "1"},
	} {
		text := foldText(tc.folded, tc.n)
		if text != tc.text {
			t.Errorf("%d files, folded %q: the link says %q, want %q", tc.n, tc.folded, text, tc.text)
		}
		if back := parseFold(text, tc.n); !back.Equal(tc.folded) {
			t.Errorf("%d files: fold=%q reads as %q, want %q", tc.n, text, back, tc.folded)
		}
	}
	v := parseViewState(url.Values{"fold": {"3-1"}, "pin": {"x"}})
	if v.fold != "" || v.pin != "" {
		t.Errorf("a malformed fold and pin read as %q and %q", v.fold, v.pin)
	}
	if got := parseFold("", many); !got.Equal(canvas.AllFiles(many)) {
		t.Errorf("no fold in the link folds %q of %d files", got, many)
	}
}
