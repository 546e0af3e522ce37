package parser

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"watchlens/internal/synth"
)

// A compressed capture is read in place from the decompressor's blocks;
// what it gives must be what the same bytes give uncompressed, with lines
// across block ends, events longer than a block, and lines longer than
// MaxEventSize read in pieces.
func TestCompressedInPlace(t *testing.T) {
	var b bytes.Buffer
	for i := range 700 {
		synth.Pod(&b, i)
		if i == 200 {
			// An event of 2.5 blocks, and a long line of garbage.
			big := `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"big","resourceVersion":"7"},"data":"` +
				strings.Repeat("x", 5*prefetchBlockSize/2) + `"}}` + "\n"
			b.WriteString(big)
			b.WriteString(strings.Repeat("y", prefetchBlockSize+3) + "\n")
		}
	}
	b.WriteString(`{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"last","resourceVersion":"9"}}}`) // no line end
	plain := b.Bytes()
	for _, opts := range []Options{{}, {MaxEventSize: 300 << 10}} {
		want, err := ReadAll(bytes.NewReader(plain), opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range []func([]byte) []byte{
			func(b []byte) []byte { return gzipBytes(t, b) },
			func(b []byte) []byte {
				var out bytes.Buffer
				zw, _ := zstd.NewWriter(&out)
				zw.Write(b)
				zw.Close()
				return out.Bytes()
			},
		} {
			got, err := ReadAll(bytes.NewReader(enc(plain)), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Events) != len(want.Events) || len(want.Events) < 400 {
				t.Fatalf("%d events, want %d", len(got.Events), len(want.Events))
			}
			for i := range want.Events {
				if !reflect.DeepEqual(got.Events[i], want.Events[i]) {
					t.Fatalf("event %d: %+v, want %+v", i, got.Events[i], want.Events[i])
				}
			}
			if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || !reflect.DeepEqual(got.Sessions, want.Sessions) {
				t.Fatalf("diagnostics %v\nsessions %+v\nwant %v\n%+v", got.Diagnostics, got.Sessions, want.Diagnostics, want.Sessions)
			}
		}
	}
}

// readStreamed reads in as a stream that is no bytes.Reader, so through
// the line reader's window, never in place.
func readStreamed(t *testing.T, in []byte, opts Options) *Capture {
	t.Helper()
	c, err := ReadAll(struct{ io.Reader }{bytes.NewReader(in)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sameInPlace fails t unless in, read in place from a bytes.Reader, gives
// what it gives read through the window.
func sameInPlace(t *testing.T, in []byte, opts Options) {
	t.Helper()
	got, err := ReadAll(bytes.NewReader(in), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := readStreamed(t, in, opts)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("in place:\n%s\nthrough the window:\n%s", render(got), render(want))
	}
}

// A capture in a bytes.Reader is read in place; the real samples, and
// lines longer than MaxEventSize and the window, read so give what they
// give through the window.
func TestBytesReaderInPlace(t *testing.T) {
	paths, err := filepath.Glob("../samples/*.*")
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".tsv") {
			continue
		}
		in, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sameInPlace(t, in, Options{})
		read++
	}
	if read < 10 {
		t.Fatalf("%d samples read", read)
	}
	var b bytes.Buffer
	for i := range 300 {
		synth.RealisticPod(&b, i)
		if i == 100 {
			b.WriteString(`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"big","resourceVersion":"7"},"data":"` +
				strings.Repeat("x", 3*windowSize/2) + `"}}` + "\n")
			b.WriteString(strings.Repeat("y", windowSize+3) + "\n")
		}
	}
	for _, opts := range []Options{{}, {MaxEventSize: 100 << 10}} {
		sameInPlace(t, b.Bytes(), opts)
	}
	rd := NewReader(bytes.NewReader(b.Bytes()), Options{})
	for rd.Next() {
	}
	if !rd.lines.inPlace || rd.InputBytes() != int64(b.Len()) {
		t.Fatalf("in place %v, input bytes %d of %d", rd.lines.inPlace, rd.InputBytes(), b.Len())
	}
}

// holdRest takes a bytes.Reader's unread bytes as they are, from where
// reading stopped: the one Write of its own slice that bytes.Reader's
// WriteTo makes, which heldBytes relies on.
func TestHoldRest(t *testing.T) {
	data := []byte("0123456789abcdef")
	br := bytes.NewReader(data)
	br.Seek(5, io.SeekStart)
	got, ok := holdRest(br)
	if !ok || string(got) != "56789abcdef" || &got[0] != &data[5] || br.Len() != 0 {
		t.Fatalf("held %q (ok %v, uncopied %v), %d left unread", got, ok, ok && &got[0] == &data[5], br.Len())
	}
}
