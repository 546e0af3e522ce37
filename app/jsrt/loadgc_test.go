package jsrt

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// gcCycles is the count of collections the runtime has completed.
func gcCycles() uint32 {
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	return stats.NumGC
}

// growPastDue holds live bytes until the heap reaches g's next
// collection, and returns them.
func growPastDue(g *GCPacer) [][]byte {
	held := make([][]byte, 0, 64)
	for g.heap() < g.next {
		held = append(held, make([]byte, 4<<20))
	}
	return held
}

func TestLoadGCPacesCollections(t *testing.T) {
	var g GCPacer
	before := gcPercent()
	g.Start()
	if p := gcPercent(); p != -1 {
		t.Fatalf("during a load the collector's own pacing is %d, want off (-1)", p)
	}
	g.Start() // a second drop before the first is read
	if g.collectIfDue() {
		t.Error("collected with the heap not grown")
	}
	// Live bytes past the due point: the next check collects, and the
	// one after it waits for the heap to double again.
	held := growPastDue(&g)
	cycles := gcCycles()
	if !g.collectIfDue() {
		t.Fatalf("no collection with the heap at %d, due at %d", g.heap(), g.next)
	}
	if gcCycles() == cycles {
		t.Error("collectIfDue said it collected, but no GC cycle ran")
	}
	if g.collectIfDue() {
		t.Errorf("collected again at once (heap %d, next due at %d)", g.heap(), g.next)
	}
	if g.next < 2*g.live {
		t.Errorf("the next collection is due at %d, before the heap doubles from %d", g.next, g.live)
	}
	runtime.KeepAlive(held)
	runtime.GC()
	g.Stop()
	if p := gcPercent(); p != -1 {
		t.Errorf("one of two loads stopped, and the pacing is back to %d", p)
	}
	g.Stop()
	if p := gcPercent(); p != before {
		t.Errorf("after the loads the pacing is %d, want %d as before", p, before)
	}
}

// TestLoadGCStartDuringStop starts a load while the last one's stop
// yields around its collection: the pacing must come back when the new
// load stops, as it was before both.
func TestLoadGCStartDuringStop(t *testing.T) {
	before := gcPercent()
	var g GCPacer
	g.Start()
	held := make([][]byte, 0, 64)
	for g.heap() < max(gcFloor, g.live+g.live/2) {
		held = append(held, make([]byte, 4<<20))
	}
	started := false
	g.yield = func() {
		if !started {
			started = true
			g.Start() // a drop while the page yields
		}
	}
	g.Stop()
	runtime.KeepAlive(held)
	if !started {
		t.Fatal("stop did not yield around a collection: the test tests nothing")
	}
	if p := gcPercent(); p != -1 {
		t.Errorf("with a load running the pacing is %d, want off (-1)", p)
	}
	g.Stop()
	if p := gcPercent(); p != before {
		t.Errorf("after both loads the pacing is %d, want %d as before", p, before)
	}
}

// TestLoadGCStopCollectsASmallHeap: a load that grew the heap by half,
// however small the heap, collects as it stops, in a task of its own,
// rather than hand the collector a heap already past its goal, which it
// then marks in whatever task allocates next.
func TestLoadGCStopCollectsASmallHeap(t *testing.T) {
	runtime.GC() // the tests before leave garbage
	var g GCPacer
	g.Start()
	held := make([][]byte, 0, 64)
	for g.heap() < g.live+g.live/2 {
		held = append(held, make([]byte, 256<<10))
	}
	if g.heap() >= gcFloor {
		t.Fatalf("the heap grew to %d, past gcFloor: the test tests nothing", g.heap())
	}
	yields := 0
	g.yield = func() { yields++ }
	cycles := gcCycles()
	g.Stop()
	n := gcCycles() - cycles
	runtime.KeepAlive(held)
	if n == 0 || yields != 2 {
		t.Errorf("the load stopped with %d GC cycles and %d yields, want one cycle between two yields", n, yields)
	}
}

// TestSettleCollects: a spare that settles after its warm-up has
// collected its garbage, and the load after it starts from the heap the
// warm-up keeps.
func TestSettleCollects(t *testing.T) {
	var g GCPacer
	kept := make([]byte, 8<<20)
	var garbage [][]byte
	for range 16 {
		garbage = append(garbage, make([]byte, 1<<20))
	}
	runtime.KeepAlive(garbage)
	garbage = nil
	before := g.heap()
	cycles := gcCycles()
	g.Settle()
	if gcCycles() == cycles {
		t.Fatal("Settle ran no collection")
	}
	if after := g.heap(); after+8<<20 > before {
		t.Errorf("Settle left the heap at %d bytes, from %d with 16 MiB of garbage", after, before)
	}
	g.Start()
	if g.live > before {
		t.Errorf("the load after Settle starts from a heap of %d bytes, more than the %d before it", g.live, before)
	}
	g.Stop()
	runtime.KeepAlive(kept)
}

// TestReleaseCollectsNothing: a load that releases its pacing (the
// engine worker's, once its files are read) hands the collector its
// pacing back at once, without a collection on the load's path, however
// grown the heap.
func TestReleaseCollectsNothing(t *testing.T) {
	var g GCPacer
	before := gcPercent()
	g.Start()
	held := growPastDue(&g)
	cycles := gcCycles()
	g.Release()
	if n := gcCycles() - cycles; n != 0 {
		t.Errorf("Release ran %d collections, want none", n)
	}
	if p := gcPercent(); p != before {
		t.Errorf("after the load the pacing is %d, want %d as before", p, before)
	}
	runtime.KeepAlive(held)
}
