package parser

import (
	"bytes"
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
