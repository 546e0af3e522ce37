package jsrt

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// LoadGC collects garbage between the tasks of a load rather than inside
// them. Go's collector starts a cycle when the heap reaches its goal, and
// on wasm nothing preempts its mark worker: the cycle's marking ran in one
// piece when the page next yielded, on top of the task before, and made
// long tasks over a million events. While a load runs, the page
// turns the collector's own pacing off and collects in a task of its own,
// right after a yield, once the heap has doubled since the last collection
// (the pace GOGC=100 keeps). The engine's worker paces the reading of
// its loads' files the same way, collecting between two slices of a file
// (BlobReader): a cycle the collector paces marks through much of the
// parse there, and every pointer the parser stores meanwhile goes through
// the write barrier's buffer.
var LoadGC GCPacer

// gcFloor is the least heap at which a load collects while it runs:
// below it a collection costs more yields than the memory it frees is
// worth. Stop, once, collects below it too.
const gcFloor = 32 << 20

// heapObjects is the runtime metric heap reads.
const heapObjects = "/memory/classes/heap/objects:bytes"

type GCPacer struct {
	loads      int  // loads running: a second drop may come before the first is read
	off        bool // the collector's pacing is off, and oldPercent is what it was
	oldPercent int
	live       uint64 // the heap after the last collection (or at the start)
	next       uint64 // the heap at which the next collection is due
	sample     [1]metrics.Sample
	yield      func() // YieldOnce, or a test's stand-in
}

// Start begins a load; every start must be matched by a stop.
func (g *GCPacer) Start() {
	if g.loads++; g.loads > 1 {
		return
	}
	// A load may start while the last one's stop collects, pacing still
	// off: what to give back is what it was before that one.
	if !g.off {
		g.oldPercent, g.off = debug.SetGCPercent(-1), true
	}
	g.live = g.heap()
	g.next = max(2*g.live, gcFloor)
}

// Stop ends a load. Handed back its pacing with the heap grown since the
// last collection, the collector came due while the page showed the
// capture, and marked inside that task: so the last load to stop collects
// first, in a task of its own. It does below gcFloor too: a load's heap
// under it still came due at once (the pacing's goal is twice the heap
// the last collection left), in the task that answered the fleet of
// 10 000 virtual clients and rendered it. Call it from a goroutine: it
// yields.
func (g *GCPacer) Stop() {
	if g.loads--; g.loads > 0 {
		return
	}
	if h := g.heap(); h >= g.live+g.live/2 {
		yield := g.yield
		if yield == nil {
			yield = YieldOnce
		}
		yield()
		g.collect()
		yield()
		if g.loads > 0 {
			return // a load started meanwhile; its stop gives the pacing back
		}
	}
	debug.SetGCPercent(g.oldPercent)
	g.off = false
}

// Release ends a load, as Stop does, but hands the collector its pacing
// back without collecting first: for a thread whose load goes on
// building after its read (the engine's worker), where a collection
// would wait on the load's path, and the collector's own pacing
// collects as the building needs it.
func (g *GCPacer) Release() {
	if g.loads--; g.loads > 0 {
		return
	}
	debug.SetGCPercent(g.oldPercent)
	g.off = false
}

// Settle collects now and reads the heap once, for a thread about to
// wait for its next load (the engine's spare worker, warmed up): that
// load's Start then waits for no cycle's marking (turning the pacing
// off waits for a cycle under way to end, and a warm-up leaves one under
// way) nor pays for the runtime's first read of its metrics, each a few
// milliseconds at the start of the load.
func (g *GCPacer) Settle() {
	runtime.GC()
	g.heap()
}

// heap is the bytes of heap objects, garbage not yet swept included.
func (g *GCPacer) heap() uint64 {
	g.sample[0].Name = heapObjects
	metrics.Read(g.sample[:])
	return g.sample[0].Value.Uint64()
}

// collectIfDue collects when the heap has doubled; it says whether it did.
func (g *GCPacer) collectIfDue() bool {
	if g.loads == 0 || g.heap() < g.next {
		return false
	}
	g.collect()
	return true
}

func (g *GCPacer) collect() {
	runtime.GC()
	g.live = g.heap()
	g.next = max(2*g.live, gcFloor)
}
