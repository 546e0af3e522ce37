//go:build js && wasm

package main

import (
	"sync"
	"time"
)

// queue holds the questions that arrived and are not answered yet. It
// has no bound: the worker's message callback puts each question in
// without waiting, since while a callback waits the worker's event loop
// waits with it, and the question being answered may wait on that loop
// (a load reading its files, jsrt.AfterQueuedTasks). A channel of 64
// blocked the callback at the 65th question, the hovers of a pointer
// moved over the page while a load was read among them.
type queue[T any] struct {
	mu      sync.Mutex
	items   []T
	arrived chan struct{} // holds a token while items may be waiting
}

func newQueue[T any]() *queue[T] {
	return &queue[T]{arrived: make(chan struct{}, 1)}
}

// put adds x at the end, at once.
func (q *queue[T]) put(x T) {
	q.mu.Lock()
	q.items = append(q.items, x)
	q.mu.Unlock()
	select {
	case q.arrived <- struct{}{}:
	default:
	}
}

// take answers the first item, waiting for one to arrive.
func (q *queue[T]) take() T {
	for {
		if x, ok := q.takeNow(); ok {
			return x
		}
		<-q.arrived
	}
}

// takeWithin answers the first item as take does, or false once d has
// passed with none.
func (q *queue[T]) takeWithin(d time.Duration) (T, bool) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		if x, ok := q.takeNow(); ok {
			return x, true
		}
		select {
		case <-q.arrived:
		case <-timer.C:
			return q.takeNow()
		}
	}
}

// takeNow answers the first item if one is waiting.
func (q *queue[T]) takeNow() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var zero T
	if len(q.items) == 0 {
		return zero, false
	}
	x := q.items[0]
	q.items[0] = zero
	q.items = q.items[1:]
	return x, true
}

// waiting says whether an item is waiting.
func (q *queue[T]) waiting() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items) > 0
}
