package canvas

import (
	"math/rand/v2"
	"testing"
)

// TestFileSet checks the set, and its length, against a map over random
// toggles of 300 files, and that its text reads back to the same set.
func TestFileSet(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(1, 2))
	var s FileSet
	want := map[int]bool{}
	for step := 0; step < 3000; step++ {
		f := rng.IntN(n)
		s = s.Toggle(f)
		want[f] = !want[f]
		if step%97 != 0 {
			continue
		}
		in := 0
		for g := 0; g < n; g++ {
			if s.Has(g) != want[g] {
				t.Fatalf("step %d: file %d in the set %v, want %v (%s)", step, g, s.Has(g), want[g], s)
			}
			if want[g] {
				in++
			}
		}
		if s.Len() != in {
			t.Fatalf("step %d: the set holds %d files, Len says %d (%s)", step, in, s.Len(), s)
		}
		back, ok := ParseFileSet(s.String(), n)
		if !ok || !back.Equal(s) {
			t.Fatalf("step %d: %q reads back as %q (ok %v)", step, s.String(), back.String(), ok)
		}
	}
	all := AllFiles(10000).With(70, false).With(9999, false)
	if got := all.String(); got != "0-69,71-9998" {
		t.Errorf("all of 10000 files but 70 and 9999 writes as %q", got)
	}
	if s, ok := ParseFileSet("7,0-3,2-5", 10); !ok || s.String() != "0-5,7" {
		t.Errorf(`"7,0-3,2-5" reads as %q (ok %v)`, s.String(), ok)
	}
	for _, bad := range []string{"-1", "3-2", "a", "1,,2", "0-10"} {
		if _, ok := ParseFileSet(bad, 10); ok {
			t.Errorf("%q reads as a set of 10 files", bad)
		}
	}
}
