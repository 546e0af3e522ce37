package timeline

import "testing"

// HeadPassed, which searches a sample of the head first, answers what a
// walk over every step does: for every step's value, one less, and past
// the last.
func TestHeadPassed(t *testing.T) {
	tl := loadSamples(t, "w1-broad-configmaps-bookmarks.ts.http", "w2-broad-pods-bookmarks.http.gz", "w4-then-resume.ts.http")
	h := &tl.head
	if h.Len() < 3*headStride {
		t.Fatalf("%d head steps: the sample does not exercise the index", h.Len())
	}
	walk := func(rv uint64) (int64, bool) {
		for k := range h.Len() {
			if h.RV(k) > rv {
				return h.T(k), true
			}
		}
		return 0, false
	}
	for k := range h.Len() {
		for _, rv := range []uint64{h.RV(k) - 1, h.RV(k)} {
			wt, wok := walk(rv)
			if got, ok := tl.HeadPassed(rv); got != wt || ok != wok {
				t.Fatalf("rv %d: %d %v, a walk gives %d %v", rv, got, ok, wt, wok)
			}
		}
	}
	if _, ok := tl.HeadPassed(0); !ok {
		t.Errorf("the head never passed 0")
	}
}
