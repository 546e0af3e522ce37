package parser

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// checkScanLine holds scanLine to the plain way of finding what it finds:
// the line's end, and whether an "object" key starts at or after each
// position on the line.
func checkScanLine(t *testing.T, b []byte) {
	end, keys := scanLine(b)
	if want := bytes.IndexByte(b, '\n'); end != want {
		t.Fatalf("scanLine(%q) ends the line at %d, want %d", b, end, want)
	}
	line := b
	if end >= 0 {
		line = b[:end]
	}
	// Every position of a short line, and 256 of a long one.
	step := max(1, len(line)/256)
	for i := 0; i <= len(line); i += step {
		if got, want := keys.after(i), bytes.Contains(line[i:], []byte(`"object"`)); got != want {
			t.Fatalf("scanLine(%q): an object key at or after %d: %v, want %v", b, i, got, want)
		}
	}
}

func FuzzScanLine(f *testing.F) {
	f.Add([]byte(`{"type":"ADDED","object":{"kind":"k"}}{"object":1}` + "\n" + `"object"`))
	f.Add([]byte(`"object"object"jk"object`))
	f.Fuzz(checkScanLine)
}

// TestScanLineAlphabet runs scanLine on inputs made of the bytes that
// matter to it, in lengths around its sixteen-byte steps. The fuzzer runs
// natively only; this also tests the assembly under wasm.
func TestScanLineAlphabet(t *testing.T) {
	alphabet := []byte("\n\x0b\"objectk *J\x8a\xea\xc3\x81\xff")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 30000 {
		b := make([]byte, rng.IntN(70))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if len(b) >= 8 && rng.IntN(2) == 0 {
			copy(b[rng.IntN(len(b)-7):], `"object"`)
		}
		checkScanLine(t, b)
	}
}

// TestScanLineEveryPosition puts one '\n' or 'j' at each position of runs
// of other bytes, so that each falls in each lane of a sixteen-byte step.
func TestScanLineEveryPosition(t *testing.T) {
	for n := range 50 {
		b := bytes.Repeat([]byte("k"), n)
		checkScanLine(t, b)
		for p := range n {
			for _, c := range []byte("\nj\x0b*J\xea\xc3\x81") {
				b[p] = c
				checkScanLine(t, b)
				if p >= 3 && p+5 <= n {
					copy(b[p-3:], `"object"`)
					checkScanLine(t, b)
					copy(b[p-3:], "kkkkkkkk")
				}
				b[p] = 'k'
			}
		}
	}
}

// TestScanLineStopsAtTheEnd scans slices followed by the bytes it looks
// for: a read past the end would find them.
func TestScanLineStopsAtTheEnd(t *testing.T) {
	for _, after := range []byte("\nj") {
		buf := bytes.Repeat([]byte{after}, 128)
		for n := range 50 {
			copy(buf, bytes.Repeat([]byte("k"), n))
			if end, _ := scanLine(buf[:n]); end != -1 {
				t.Fatalf("%d bytes with no line end, followed by %q: scanLine found one at %d", n, after, end)
			}
		}
	}
	// A key cut by the slice's end.
	for n := 4; n < 50; n++ {
		buf := append(bytes.Repeat([]byte("k"), n-4), `"object"`...)
		if _, keys := scanLine(buf[:n]); keys.after(0) {
			t.Fatalf("%q, cut from %q: scanLine found an object key", buf[:n], buf)
		}
	}
}
