package report

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"watchlens/timeline"
)

// textSafe is s with what a terminal would act on escaped as Go escapes it
// inside a quoted string (`\x1b`, `\n`, `\u202e`): control characters,
// other unprintable runes (right-to-left overrides among them) and bytes
// that are not UTF-8. Every string of a capture (names, messages,
// selectors) and file names go through it before a text report writes
// them: a name holding ESC, CR or LF could otherwise rewrite the report
// on the reader's terminal. Direction controls are written by
// timeline.VisibleBidi, as every view writes them. Other characters,
// backslashes included, are left as they are.
func textSafe(s string) string {
	s = timeline.VisibleBidi(s)
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !strconv.IsPrint(r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			q := strconv.Quote(s[i : i+1])
			b.WriteString(q[1 : len(q)-1])
		case r != ' ' && !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// mdSafe is s as literal text in a Markdown table cell: textSafe first
// (a newline would end the row, and the file is read in terminals too),
// then as entities what would start HTML (a name could carry an <img
// onerror=...>: a "<" before a letter, "/", "!" or "?", as CommonMark's
// raw HTML and autolinks begin; every "&", which could start an entity;
// a leading ">", a quote where s begins a line), and the characters
// Markdown gives a meaning backslash-escaped: a pipe would start a new
// cell, a leading # a heading, a backtick a code span, brackets a link,
// and *, _ and ~ emphasis. The backslash itself is escaped so that
// textSafe's \x1b reads as written. Any other "<", ">" and "#" stay as
// they are, so that the report's own "r < oldest - 1" and "a#1 → c#1"
// read as written in the file pasted.
func mdSafe(s string) string {
	s = textSafe(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			if i+1 < len(s) && opensHTML(s[i+1]) {
				b.WriteString("&lt;")
			} else {
				b.WriteByte(c)
			}
		case '>':
			if i == 0 {
				b.WriteString("&gt;")
			} else {
				b.WriteByte(c)
			}
		case '#':
			if i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '&':
			b.WriteString("&amp;")
		case '\\', '|', '`', '[', ']', '*', '_', '~':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// opensHTML says whether c after a "<" makes it the start of raw HTML or
// an autolink in Markdown: a tag's or a scheme's letter, a closing tag's
// "/", a comment's or declaration's "!", a processing instruction's "?".
func opensHTML(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || c == '/' || c == '!' || c == '?'
}

// safe is a capture's string as this printer writes it.
func (p *printer) safe(s string) string {
	if p.md {
		return mdSafe(s)
	}
	return textSafe(s)
}

// maxCell and maxLastCell bound a table cell, in runes: a column is
// padded to its widest cell, and a capture's name or user agent can be a
// megabyte (the last column, a sentence, is not padded).
const (
	maxCell     = 160
	maxLastCell = 4000
)

// clipCell shortens s to n runes, the last an ellipsis.
func clipCell(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := 0
	for i := range s {
		if k == n-1 {
			return s[:i] + "…"
		}
		k++
	}
	return s
}

// safeRows makes every cell of rows safe and bounded, in place.
func (p *printer) safeRows(rows [][]string) {
	for _, r := range rows {
		for i, c := range r {
			n := maxCell
			if i == len(r)-1 {
				n = maxLastCell
			}
			r[i] = clipCell(p.safe(c), n)
		}
	}
}
