// Package words writes what the page says in its text: names from a
// capture made safe to show (sizes and counts: internal/quantity).
package words

import (
	"strings"
	"unicode/utf8"

	"watchlens/timeline"
)

// maxNameRunes is the most of a name from a capture (an object's name, a
// namespace, a file's name, a link) that the page shows in a line of its
// own text; the whole name is in the element's title. Uncut, a 100 KB
// object name makes the page over a million pixels wide.
const maxNameRunes = 100

// ShortName is a name from a capture as the page shows it: its
// direction controls made visible (timeline.VisibleBidi) and cut to
// maxNameRunes.
func ShortName(s string) string {
	return ClipRunes(timeline.VisibleBidi(s), maxNameRunes)
}

// Isolated is ShortName for plain text (messages, the progress bar, the
// tooltip, the canvas), Isolated (U+2068 ... U+2069) from the text around
// it when it holds right-to-left letters, which would otherwise reorder
// the page's words next to it. Without them, and with its controls made
// visible, a name cannot move the text around it, and stays as it is.
func Isolated(s string) string {
	s = ShortName(s)
	if !strings.ContainsFunc(s, isRightToLeft) {
		return s
	}
	return "\u2068" + s + "\u2069"
}

// isRightToLeft reports the letters of the right-to-left scripts (Hebrew,
// Arabic, Syriac, Thaana, N'Ko and their neighbours, and their
// presentation forms), by their Unicode blocks.
func isRightToLeft(r rune) bool {
	return (r >= 0x0590 && r <= 0x08FF) || (r >= 0xFB1D && r <= 0xFDFF) ||
		(r >= 0xFE70 && r <= 0xFEFF) || (r >= 0x10800 && r <= 0x10FFF) ||
		(r >= 0x1E800 && r <= 0x1EFFF)
}

// ClipRunes shortens s to n runes with an ellipsis.
func ClipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
