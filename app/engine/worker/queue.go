//go:build js && wasm

package main

import "sync"

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
		q.mu.Lock()
		if len(q.items) > 0 {
			x := q.items[0]
			var zero T
			q.items[0] = zero
			q.items = q.items[1:]
			q.mu.Unlock()
			return x
		}
		q.mu.Unlock()
		<-q.arrived
	}
}
