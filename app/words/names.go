// Package words writes what the page says in its text: names from a
// capture made safe to show (sizes and counts: internal/quantity).
package words

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxNameRunes is the most of a name from a capture (an object's name, a
// namespace, a file's name, a link) that the page shows in a line of its
// own text; the whole name is in the element's title. A 100 KB object
// name made the page 1.5 M px wide.
const maxNameRunes = 100

// ShortName is a name from a capture as the page shows it: its
// direction controls made visible (see VisibleControls) and cut to
// maxNameRunes.
func ShortName(s string) string {
	return ClipRunes(VisibleControls(s), maxNameRunes)
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

// VisibleControls writes each character that changes the direction of
// the text after it (U+202E RIGHT-TO-LEFT OVERRIDE and the like) as its
// code point, "<U+202E>": a name shows what it holds, not what it makes
// itself look like, and cannot reverse the page's text after it.
func VisibleControls(s string) string {
	if !strings.ContainsFunc(s, isBidiControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isBidiControl(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isBidiControl reports the Unicode bidirectional formatting characters.
func isBidiControl(r rune) bool {
	return r == 0x061C || r == 0x200E || r == 0x200F ||
		(r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
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
