package report

import (
	"strings"
	"testing"
)

// What "Copy summary" pastes: the summary's lines, the key figures, the
// link, with nothing of the capture able to break the Markdown.
func TestPasteMarkdown(t *testing.T) {
	r := New(loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer()), nil)
	md := r.PasteMarkdown("https://example.org/watchlens/?sample=x&view=(1)")
	for _, want := range []string{"`w4-then-resume.ts.http`", r.Summary[0].Text[:40], "| relists with the bookmarks received | 1 | 0 |", "| relists had it asked for bookmarks | 0 | 0 |", "1 410 Gone observed",
		"[Open this view in watchlens](https://example.org/watchlens/?sample=x&view=%281%29)"} {
		if !strings.Contains(md, want) {
			t.Errorf("the pasted summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Count(md, "\n- ") != len(r.Summary) {
		t.Errorf("%d summary lines pasted, want %d", strings.Count(md, "\n- "), len(r.Summary))
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
