package cli

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The collector's pace while analyze runs. Go's default (GOGC=100) lets
// the heap grow to twice what the last collection found live before the
// next, so a large model's process holds about twice the model. What
// analyze keeps is mostly packed columns and blocks of text, which hold
// no pointers and cost the collector little however often it runs: the
// headroom is paceFloor, and a fifth of the live heap once that is more.
// Heaps under paceFloor keep the default: a heap of a few MB of maps and
// strings (the sample recordings) collected that often costs more CPU
// than it saves memory. A memory limit a little above the goal makes the
// runtime return freed pages promptly, which it otherwise does at its own
// slow pace: the chunks a capture's columns are packed from would stay
// resident once free.
//
// The pace is kept for inputs too large to hold (streamsLarge): an
// ordinary recording's model is rich in pointers (maps, strings, audit
// records), and with a fifth of it as headroom the collector would take
// several times the default's time on samples-lab
// (docs/performance.md, "The collector's pace in analyze").
//
// The pace is set again after each collection, by a finalizer that
// re-arms itself; GOGC or GOMEMLIMIT in the environment leave the
// runtime's own settings alone.
const (
	// paceFloor is the least headroom (Go's own least heap is 4 MB).
	paceFloor = 4 << 20
	// paceShare: the headroom is at least 1/paceShare of the live heap.
	paceShare = 5
	// limitSlack is what the memory limit allows above the heap goal,
	// for the runtime's own memory and the heap's fragments.
	limitSlack = 4 << 20
)

// largeInput is how much input, on disk, makes analyze stream rather
// than hold: a gigabyte's capture, not an incident's folder of records
// (samples-lab is 12 MB).
const largeInput = 64 << 20

// streamsLarge says whether analyze reads inputs worth pacing the
// collector for: more than largeInput in all, or standard input, whose
// size is not known.
func streamsLarge(in []input) bool {
	var total int64
	for _, f := range in {
		if f.name == "-" {
			return true
		}
		if st, err := os.Stat(f.name); err == nil {
			total += st.Size()
		}
	}
	return total > largeInput
}

var gcPace struct {
	sync.Mutex
	users int
	// gen counts the pacings started: the finalizer of an ended one
	// stops.
	gen        uint64
	oldPercent int
	oldLimit   int64
}

// paceGC sets the collector's pace for analyze and returns what undoes
// it. Calls may overlap (tests run analyze in one process): the first
// sets the pace, the last undoes it.
func paceGC() (undo func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	p := &gcPace
	p.Lock()
	defer p.Unlock()
	p.users++
	if p.users == 1 {
		p.gen++
		p.oldPercent = debug.SetGCPercent(100)
		p.oldLimit = debug.SetMemoryLimit(-1)
		armPace(p.gen)
	}
	return func() {
		p.Lock()
		defer p.Unlock()
		if p.users--; p.users == 0 {
			p.gen++
			debug.SetGCPercent(p.oldPercent)
			debug.SetMemoryLimit(p.oldLimit)
		}
	}
}

// paceTick is the object whose finalizer runs after a collection. It
// holds a pointer, so that it is not one of the tiny allocations, which
// share a block and may never be finalized.
type paceTick struct{ gen *uint64 }

func armPace(gen uint64) {
	t := &paceTick{gen: new(uint64)}
	*t.gen = gen
	runtime.SetFinalizer(t, func(t *paceTick) { repace(*t.gen) })
}

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// repace sets the pace from the live heap the last collection found, and
// arms the next tick, unless pacing gen has ended.
func repace(gen uint64) {
	p := &gcPace
	p.Lock()
	defer p.Unlock()
	if p.gen != gen {
		return
	}
	metrics.Read(liveSample)
	percent, limit := pace(liveSample[0].Value.Uint64())
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
	armPace(gen)
}

// pace is the GOGC and the memory limit for a live heap of live bytes.
func pace(live uint64) (percent int, limit int64) {
	headroom := max(paceFloor, live/paceShare)
	if headroom >= live {
		return 100, math.MaxInt64
	}
	return int(100 * headroom / live), int64(live + headroom + limitSlack)
}
