package parser

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// checkScanLine holds scanLine to the plain way of finding what it finds.
func checkScanLine(t *testing.T, b []byte) {
	end, last := scanLine(b)
	wantEnd := bytes.IndexByte(b, '\n')
	line := b
	if wantEnd >= 0 {
		line = b[:wantEnd]
	}
	if wantLast := bytes.LastIndex(line, []byte(`"object"`)); end != wantEnd || last != wantLast {
		t.Fatalf("scanLine(%q) = %d, %d; want %d, %d", b, end, last, wantEnd, wantLast)
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
	alphabet := []byte("\n\x0b\"objectk ")
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
			for _, c := range []byte("\nj\x0b") {
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
