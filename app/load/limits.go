package load

import (
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"watchlens/timeline"
)

// loadLimits bound what one load may take of the page, so that a hostile
// or broken source ends in a message rather than a tab that hangs or runs
// out of memory.
type loadLimits struct {
	// maxBytes is the most a file, or a link's body, may hold.
	maxBytes int64
	// maxEvents is the most events a load keeps, over all its files: at
	// what the timeline keeps of an ordinary event (docs/performance.md,
	// "Kept memory per capture"), 50 M events fit in the 4 GiB that a
	// wasm page's memory can never exceed; with captures whose every
	// event is a new object they do not, and the page's out-of-memory
	// message (web/crash.js) takes over first.
	maxEvents int
	// stall is how long a link's server may send nothing before the
	// page gives up on it.
	stall time.Duration
}

// maxFileBytes is the largest file the page reads. The file itself stays on
// the JS side, but the timeline of its events lives in Go's wasm memory,
// which is 32-bit, never shrinks, and fails once one slice grows past
// about 1 GiB; a few GiB of small events would come close.
const maxFileBytes = 4 << 30

// shippedLimits are the limits the page works with.
var shippedLimits = loadLimits{maxBytes: maxFileBytes, maxEvents: timeline.DefaultMaxEvents, stall: 30 * time.Second}

// limits are the limits in force: shippedLimits, or lower ones a browser
// test sets (see SetLimits).
var limits = shippedLimits

// MaxBytes is the most a file, or a link's body, may hold.
func MaxBytes() int64 { return limits.maxBytes }

// SetLimits puts readLimits in force. The page calls it once, as it
// starts.
func SetLimits() { limits = readLimits() }

// readLimits returns shippedLimits, lowered by what a browser test put in
// window.watchlensTestLimits before the page's scripts ran ({maxBytes,
// maxEvents, stallMs}): reaching the shipped ones takes gigabytes, tens of
// millions of events or half a minute.
// A limit can only be lowered this way.
func readLimits() loadLimits {
	l := shippedLimits
	set := goapp.Window().Get("watchlensTestLimits")
	if !set.Truthy() {
		return l
	}
	if v := set.Get("maxBytes"); v.Type() == goapp.TypeNumber {
		l.maxBytes = min(l.maxBytes, int64(v.Float()))
	}
	if v := set.Get("maxEvents"); v.Type() == goapp.TypeNumber {
		l.maxEvents = min(l.maxEvents, v.Int())
	}
	if v := set.Get("stallMs"); v.Type() == goapp.TypeNumber {
		l.stall = min(l.stall, time.Duration(v.Float()*float64(time.Millisecond)))
	}
	return l
}
