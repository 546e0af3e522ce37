package timeline

import (
	"strconv"
	"strings"
)

// VisibleBidi writes each character of s that changes the direction of
// the text after it (U+202E RIGHT-TO-LEFT OVERRIDE, the embeddings, the
// isolates, the marks) as the escape Go writes for it in a quoted
// string, `\u202e`: a name then shows what it holds, not what it makes
// itself look like ("abc\u202egpj.exe" drew as "abcexe.jpg" in the
// fleet view), and cannot reverse the text after it. It is the one
// neutraliser of every view: the summary's sentences, the text and
// Markdown reports (whose escaping writes the same `\u202e`), and the
// page's text and canvas labels.
func VisibleBidi(s string) string {
	if !strings.ContainsFunc(s, isBidiControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isBidiControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
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
