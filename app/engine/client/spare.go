//go:build js && wasm

package client

import (
	"slices"
	"sync"
	"time"

	"watchlens/app/engine"
)

// Spare keeps one engine worker started and warmed ahead of the load
// that takes it: compiling the worker's wasm, and the browser optimising
// its code, take longer than a small load, and the first drop must not
// wait for either.
type Spare struct {
	// Script is the worker's script (web/engine-worker.js).
	Script string
	// WarmURLs are the captures the warm-up reads, WarmIncident the
	// files of the several-server incident it opens together, and
	// WarmView the view of their first frames (Worker.Warm).
	WarmURLs     []string
	WarmIncident []string
	WarmView     engine.ViewState

	next   *Worker
	warmed chan struct{}

	// optimised are the workers that run the page's optimised code: one
	// whose full warm-up ran to its end, and the spares started while
	// one of them lived. The browser shares a module's optimised code
	// among the workers that run it, so while one of these lives a new
	// spare's code is optimised already, and its warm-up is brief
	// (Worker.Warm): the full one would take the machine's cores for a
	// second or more beside the user's gestures, since the page starts
	// a spare once the user pauses. The warm-up's goroutine adds to
	// it, under mu.
	mu        sync.Mutex
	optimised []*Worker
	// movedAt is when the user last moved the view of a capture whose
	// worker this spare handed out (hold), and warming the worker whose
	// warm-up runs and has not been asked to end, nil when none.
	// A warm-up takes a core for seconds, which on a 2-core machine
	// made the frames of a pan beside it 40-60 ms (docs/performance.md,
	// the pan row): it ends while the user moves the view, and runs
	// again once they have been still for holdStill. Under mu.
	movedAt time.Time
	warming *Worker
}

// holdStill is how long the user must have left the view still before a
// warm-up ended by their moving it runs again: the page's own wait
// before it starts a spare (app/page.go's spareWorkerAfter).
const holdStill = time.Second

// Prepare starts the spare worker and its warm-up, if there is none: the
// page calls it once its first paint is done, as it starts the reading
// worker (jsrt.PrepareReadingWorker). It does not wait for either.
func (s *Spare) Prepare() {
	if s.next != nil {
		return
	}
	w, warmed := Start(s.Script), make(chan struct{})
	s.next, s.warmed = w, warmed
	s.mu.Lock()
	s.optimised = slices.DeleteFunc(s.optimised, func(o *Worker) bool { return o.Ended() != nil })
	brief := len(s.optimised) > 0
	if brief {
		s.optimised = append(s.optimised, w)
	}
	s.mu.Unlock()
	go func() {
		// A load that takes the worker meanwhile ends the warm-up early;
		// a worker that ended has nothing to warm. One the user's moving
		// ended runs again once they are still.
		for s.warmAgain(w) {
			done, err := w.Warm(s.WarmURLs, s.WarmIncident, s.WarmView, brief)
			if done && !brief {
				s.mu.Lock()
				s.optimised = append(s.optimised, w)
				s.mu.Unlock()
			}
			if done || err != nil {
				break
			}
		}
		s.mu.Lock()
		if s.warming == w {
			s.warming = nil
		}
		s.mu.Unlock()
		close(warmed)
	}()
}

// warmAgain waits until the user has left the view still for holdStill,
// and says whether w is still the spare, to warm up: a load took it
// otherwise.
func (s *Spare) warmAgain(w *Worker) bool {
	for {
		s.mu.Lock()
		mine, left := s.next == w, holdStill-time.Since(s.movedAt)
		if mine && left <= 0 {
			s.warming = w
		}
		s.mu.Unlock()
		if !mine || left <= 0 {
			return mine
		}
		time.Sleep(left)
	}
}

// hold notes that the user moves the view of a capture whose worker the
// spare handed out, and ends the spare's warm-up if one runs.
func (s *Spare) hold() {
	s.mu.Lock()
	s.movedAt = time.Now()
	w := s.warming
	s.warming = nil // asked to end once
	s.mu.Unlock()
	if w != nil {
		w.endWarmUp()
	}
}

// Warmed is closed once the spare's warm-up has answered, nil without
// a spare.
func (s *Spare) Warmed() <-chan struct{} {
	if s.next == nil {
		return nil
	}
	return s.warmed
}

// Open opens sources in the spare worker, or in one started now when
// there is none. A load that fails or is cancelled ends its worker: the
// memory it grew is given back. The page prepares the next spare once it
// has shown the load (so that its compiling does not compete with it),
// and ends the worker of the load it replaced (Terminate).
func (s *Spare) Open(sources []Source, opts engine.Options) (*Worker, engine.Opened, error) {
	w := s.take()
	defer endOnPanic(w)
	o, err := w.Open(sources, opts)
	if err != nil {
		w.Terminate()
		w = nil
	}
	return w, o, err
}

// OpenFirst is Open with the load's first frame of view, and its first
// zoneRows red zones, in its answer, arrived told as it arrives
// (Worker.OpenFirst).
func (s *Spare) OpenFirst(sources []Source, opts engine.Options, view engine.ViewState, zoneRows int, arrived func()) (*Worker, engine.Opened, First, error) {
	w := s.take()
	defer endOnPanic(w)
	o, f, err := w.OpenFirst(sources, opts, view, zoneRows, arrived)
	if err != nil {
		w.Terminate()
		w = nil
	}
	return w, o, f, err
}

// take is the spare worker, or one started now when there is none. The
// spare hears of the frames asked of it (hold).
func (s *Spare) take() *Worker {
	s.mu.Lock()
	w := s.next
	s.next = nil
	s.mu.Unlock()
	if w == nil {
		w = Start(s.Script)
	}
	w.framed = s.hold
	return w
}

// endOnPanic ends w when the load panics (a bug), and lets the panic go
// on: the page's load.Safely says so.
func endOnPanic(w *Worker) {
	if r := recover(); r != nil {
		w.Terminate()
		panic(r)
	}
}
