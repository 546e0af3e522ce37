package parser

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// eventsJSONFrom reads every event of capture c again from file, the bytes
// as stored, in reverse order, and counts the times the file was opened
// to be decoded.
func eventsJSONFrom(t *testing.T, c *Capture, file []byte) ([][]byte, int) {
	t.Helper()
	spans := make([]EventSpan, len(c.Events))
	for k, e := range c.Events {
		spans[len(spans)-1-k] = EventSpan{Offset: e.Offset, Length: e.Length, Encoded: e.Encoded, BodyOffset: e.BodyOffset}
	}
	opened := 0
	readRange := func(from, to int64) ([]byte, error) {
		return file[min(from, int64(len(file))):min(to, int64(len(file)))], nil
	}
	open := func() (io.ReadCloser, error) {
		opened++
		return io.NopCloser(bytes.NewReader(file)), nil
	}
	js, err := EventsJSON(spans, readRange, open)
	if err != nil {
		t.Fatal(err)
	}
	for k := range js[:len(js)/2] {
		js[k], js[len(js)-1-k] = js[len(js)-1-k], js[k]
	}
	return js, opened
}

// TestEventsJSON reads events again by their spans from a plain capture,
// the same capture gzip-compressed, one whose bodies were sent with
// Content-Encoding: gzip, and that one compressed: every event gives the
// JSON it has in the plain capture, and only a compressed file is decoded.
func TestEventsJSON(t *testing.T) {
	plainBytes := decompressed(t, filepath.Join("../samples", "w3-then-resume.ts.http"))
	plain := mustReadOpts(t, plainBytes)
	want := make([][]byte, len(plain.Events))
	for k, e := range plain.Events {
		js, err := EventJSON(plainBytes[e.Offset : e.Offset+e.Length])
		if err != nil {
			t.Fatal(err)
		}
		want[k] = js
	}
	encoded := encodeCapture(t, plainBytes, "gzip", memberPerChunk)
	for _, tc := range []struct {
		name   string
		file   []byte
		decode bool
	}{
		{"plain", plainBytes, false},
		{"gzip file", gzipBytes(t, plainBytes), true},
		{"gzip bodies", encoded, false},
		{"gzip file of gzip bodies", gzipBytes(t, encoded), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustReadOpts(t, tc.file)
			if len(c.Events) != len(want) {
				t.Fatalf("%d events, plain %d", len(c.Events), len(want))
			}
			got, opened := eventsJSONFrom(t, c, tc.file)
			if decode := opened > 0; opened > 1 || decode != tc.decode {
				t.Errorf("the file was opened %d times to be decoded", opened)
			}
			for k := range want {
				if !bytes.Equal(got[k], want[k]) {
					t.Fatalf("event %d:\n%s\nwant\n%s", k, got[k], want[k])
				}
			}
		})
	}
}

// TestEventsJSONPastTheEnd: a span past the end of what the file decodes
// to is an error, not a short event.
func TestEventsJSONPastTheEnd(t *testing.T) {
	b, err := os.ReadFile("../samples/w2-broad-pods-bookmarks.http.gz")
	if err != nil {
		t.Fatal(err)
	}
	readRange := func(from, to int64) ([]byte, error) { return nil, nil }
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	if _, err := EventsJSON([]EventSpan{{Offset: 1 << 40, Length: 10}}, readRange, open); err == nil {
		t.Error("no error for a span past the end of the capture")
	}
}
