package app

import (
	"testing"
	"unicode/utf8"
)

// A folded verdict's first line, too long for its box, is cut after a
// whole word, with an ellipsis, never inside a date or a count, as the
// browser's own cut can be. A comma before the cut goes with it; a
// line that fits stays whole, and one whose first word does not fit is
// left to the browser.
func TestFoldedVerdictCutsAtAWord(t *testing.T) {
	const line = "64 clients of the 207 relisted 81 times, between 2026-12-01 18:13:29.926 UTC and 2026-12-01 18:22:16.517 UTC, around the restarts of API servers a, b and c"
	for _, c := range []struct {
		room int // runes that fit
		want string
	}{
		{1000, line},
		{utf8.RuneCountInString(line), line},
		{90, "64 clients of the 207 relisted 81 times, between 2026-12-01 18:13:29.926 UTC and…"},
		{81, "64 clients of the 207 relisted 81 times, between 2026-12-01 18:13:29.926 UTC and…"},
		{80, "64 clients of the 207 relisted 81 times, between 2026-12-01 18:13:29.926 UTC…"},
		{40, "64 clients of the 207 relisted 81 times…"},
		{3, "64…"},
		{2, line},
	} {
		got := foldedText(line, func(s string) bool { return utf8.RuneCountInString(s) <= c.room })
		if got != c.want {
			t.Errorf("in room for %d characters the folded line reads %q, want %q", c.room, got, c.want)
		}
	}
}
