package app

import (
	"net/url"
	"testing"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/load"
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

// A client opened from the fleet is in the view's fold and pin, as the
// timeline shows it (pinned alone, unfolded), so that the URL and a
// copied link carry it; the groups the user had unfolded stay so.
func TestClientOpenedFromTheFleetIsInTheLink(t *testing.T) {
	files := make([]engine.File, 44)
	p := &Page{capture: &capture{&load.Capture{Opened: engine.Opened{Files: files}}}, view: defaultViewState()}
	p.view.files = []string{"fleet/c00.ts.http"}
	p.view.fold, p.view.pin = "0-4,6-43", "1"
	p.pinOpened(7)
	q := p.view.query()
	if q.Get("pin") != "7" || q.Get("fold") != "0-4,6,8-43" {
		t.Errorf("after opening file 7 from the fleet the link has pin=%q fold=%q, want pin=7 fold=0-4,6,8-43", q.Get("pin"), q.Get("fold"))
	}
	back := parseViewState(q)
	if folded := parseFold(back.fold, len(files)); folded.Has(7) || !folded.Has(6) {
		t.Errorf("the link folds %q", folded)
	}
}
