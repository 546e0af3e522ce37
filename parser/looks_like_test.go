package parser

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// A file dropped by mistake is named for what it is, compressed or not,
// and a capture, an audit log or a text file is not taken for one; a
// Markdown document is told by its heading, blank line and prose, so a
// YAML capture that begins with a comment is read as one.
func TestLooksLike(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("%PDF-1.7\n"))
	zw.Close()
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "a PNG image"},
		{gz.Bytes(), "a PDF document"},
		{[]byte("\ufeff  <!DOCTYPE html><html>"), "an HTML page"},
		{[]byte("\xd4\xc3\xb2\xa1\x02\x00\x04\x00"), "a pcap packet capture (watchlens reads the HTTP of a watch, as curl or a proxy records it)"},
		{[]byte(`{"type":"ADDED","object":{"kind":"ConfigMap"}}`), ""},
		{[]byte("HTTP/1.1 200 OK\r\n"), ""},
		{[]byte("# README\n"), ""},
		{[]byte("# A 99-client fleet loses its load balancer\n\nRecorded 2026-12-01, on loopback only, by\n"), "a Markdown document"},
		{[]byte("# a watch saved as YAML\n\ntype: ADDED\nobject:\n"), ""},
		{[]byte("# HELP apiserver_watch_cache_events_received_total Counter\n"), ""},
		{nil, ""},
	} {
		head, r := SniffHead(bytes.NewReader(tc.in))
		if got := head.LooksLike(); got != tc.want {
			t.Errorf("%q looks like %q, want %q", tc.in, got, tc.want)
		}
		if again, _ := io.ReadAll(r); !bytes.Equal(again, tc.in) {
			t.Errorf("%q: the reader gives %q again", tc.in, again)
		}
	}
}
