package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestPaceGC: while analyze's pace is set, a live heap of 100 MB gets a
// fifth of it as headroom, with a memory limit just above the goal; once
// the heap is small again, the pace follows it back (Go's default where
// the heap is under paceFloor: the test binary's own heap, what the
// package's other tests left live, may be a few MB more); undoing the
// pace restores the settings there were before.
func TestPaceGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	// settled collects until the pace a collection sets is what want
	// says, and returns it.
	settled := func(want func(int) bool) (int, int64) {
		deadline := time.Now().Add(10 * time.Second)
		for {
			runtime.GC()
			time.Sleep(10 * time.Millisecond) // the finalizer's turn
			p, limit := percent(), debug.SetMemoryLimit(-1)
			if want(p) || time.Now().After(deadline) {
				return p, limit
			}
		}
	}
	oldPercent, oldLimit := percent(), debug.SetMemoryLimit(-1)
	undo := paceGC()
	kept := make([]byte, 100<<20)
	p, limit := settled(func(p int) bool { return p < 100 })
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if p < 15 || p > 20 {
		t.Errorf("with %d MB live, GOGC is %d, want 20 (less for more live)", ms.HeapAlloc>>20, p)
	}
	if live := int64(ms.HeapAlloc); limit < live+live/paceShare || limit > live+live/4+2*limitSlack {
		t.Errorf("with %d MB live, the memory limit is %d MB", live>>20, limit>>20)
	}
	runtime.KeepAlive(kept)
	kept = nil
	live := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	// The live heap the finalizer read and the one read here differ by
	// the test's own few allocations (56 bytes in one run): the pace is
	// compared within a point and the limit within 1 %.
	near := func(p int, limit int64) bool {
		want, wantLimit := pace(live())
		if wantLimit == math.MaxInt64 { // no limit
			return p == want && limit == wantLimit
		}
		return p >= want-1 && p <= want+1 && limit >= wantLimit-wantLimit/100 && limit <= wantLimit+wantLimit/100
	}
	p, limit = settled(func(p int) bool { return near(p, debug.SetMemoryLimit(-1)) })
	if !near(p, limit) || p <= 50 {
		want, wantLimit := pace(live())
		t.Errorf("with a small heap again (%d MB live), GOGC is %d and the memory limit %d, want about %d and %d", live()>>20, p, limit, want, wantLimit)
	}
	undo()
	if p, limit := percent(), debug.SetMemoryLimit(-1); p != oldPercent || limit != oldLimit {
		t.Errorf("undone, GOGC is %d and the memory limit %d, were %d and %d", p, limit, oldPercent, oldLimit)
	}
}
