package parser

import "bytes"

// looksLikeLen is how much of a file's decoded start LooksLike needs.
const looksLikeLen = 512

// LooksLike names the kind of file the decoded start of an input is when
// it is a well-known format that is no watch record ("a PNG image", "a
// pcap packet capture"), and is empty otherwise: it lets a file dropped by
// mistake be told for what it is rather than as a capture with no event.
// head may end anywhere.
func LooksLike(head []byte) string {
	for _, m := range fileMagics {
		if bytes.HasPrefix(head, m.prefix) {
			return m.kind
		}
	}
	if len(head) >= 12 && bytes.HasPrefix(head, []byte("RIFF")) && string(head[8:12]) == "WEBP" {
		return "a WebP image"
	}
	if len(head) > 262 && string(head[257:262]) == "ustar" {
		return "a tar archive"
	}
	text := bytes.ToLower(bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n"))
	if bytes.HasPrefix(text, []byte("<!doctype html")) || bytes.HasPrefix(text, []byte("<html")) {
		return "an HTML page"
	}
	if markdownHeading(text) {
		return "a Markdown document"
	}
	return ""
}

// markdownHeading says text begins as a Markdown document does, as the
// README beside an incident's records does: a heading ("# A fleet loses
// its load balancer"), a blank line, then prose. A capture's line begins
// with a time, a JSON value, an HTTP line or YAML; its recorder's notes
// ("# transport error: ...") only follow a request, and a YAML comment
// at its start is followed by a key.
func markdownHeading(text []byte) bool {
	heading, rest, ok := bytes.Cut(text, []byte("\n"))
	hashes := 0
	for hashes < len(heading) && hashes < 6 && heading[hashes] == '#' {
		hashes++
	}
	if !ok || hashes == 0 || !bytes.HasPrefix(heading[hashes:], []byte(" ")) || len(bytes.TrimSpace(heading[hashes:])) == 0 {
		return false
	}
	blank, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || len(bytes.TrimSpace(blank)) > 0 {
		return false
	}
	prose, _, _ := bytes.Cut(bytes.TrimLeft(rest, " \t\r\n"), []byte("\n"))
	if len(prose) == 0 || prose[0] < 'a' || prose[0] > 'z' {
		return false
	}
	word := bytes.IndexAny(prose, " :")
	return word > 0 && prose[word] == ' '
}

// fileMagics are the leading bytes of formats people keep beside their
// captures, or drop by mistake.
var fileMagics = []struct {
	prefix []byte
	kind   string
}{
	{[]byte("\x89PNG\r\n\x1a\n"), "a PNG image"},
	{[]byte("\xff\xd8\xff"), "a JPEG image"},
	{[]byte("GIF87a"), "a GIF image"},
	{[]byte("GIF89a"), "a GIF image"},
	{[]byte("%PDF-"), "a PDF document"},
	{[]byte("PK\x03\x04"), "a ZIP archive (or a document kept as one)"},
	{[]byte("\x7fELF"), "an executable program"},
	{[]byte("\xd4\xc3\xb2\xa1"), "a pcap packet capture (watchlens reads the HTTP of a watch, as curl or a proxy records it)"},
	{[]byte("\xa1\xb2\xc3\xd4"), "a pcap packet capture (watchlens reads the HTTP of a watch, as curl or a proxy records it)"},
	{[]byte("\x0a\x0d\x0d\x0a"), "a pcapng packet capture (watchlens reads the HTTP of a watch, as curl or a proxy records it)"},
	{[]byte("SQLite format 3\x00"), "an SQLite database"},
	{[]byte("7z\xbc\xaf\x27\x1c"), "a 7-Zip archive"},
	{[]byte("Rar!\x1a\x07"), "a RAR archive"},
}
