//go:build js && wasm

package main

import (
	"testing"
	"time"
)

// TestQueuePutDoesNotWait puts more questions than the channel the
// callback once sent to held (64), with nothing taking them, then takes
// them in the order they came.
func TestQueuePutDoesNotWait(t *testing.T) {
	q := newQueue[int]()
	const n = 1000
	for i := range n {
		q.put(i)
	}
	for i := range n {
		if got := q.take(); got != i {
			t.Fatalf("take %d answered %d", i, got)
		}
	}
	done := make(chan int)
	go func() { done <- q.take() }()
	q.put(7)
	if got := <-done; got != 7 {
		t.Fatalf("a take waiting for a question answered %d, want 7", got)
	}
}

// TestQueueTakeWithin: takeWithin answers what waits at once, what
// arrives within its wait, and nothing once its wait has passed.
func TestQueueTakeWithin(t *testing.T) {
	q := newQueue[int]()
	q.put(1)
	if got, ok := q.takeWithin(time.Hour); !ok || got != 1 {
		t.Fatalf("takeWithin answered %d, %v with 1 waiting", got, ok)
	}
	if q.waiting() {
		t.Fatal("the queue says an item waits once its only one was taken")
	}
	start := time.Now()
	if got, ok := q.takeWithin(20 * time.Millisecond); ok {
		t.Fatalf("takeWithin answered %d from an empty queue", got)
	}
	if waited := time.Since(start); waited < 20*time.Millisecond {
		t.Fatalf("takeWithin gave up after %v, before its 20 ms", waited)
	}
	go func() {
		time.Sleep(10 * time.Millisecond)
		q.put(2)
	}()
	if got, ok := q.takeWithin(time.Hour); !ok || got != 2 {
		t.Fatalf("takeWithin answered %d, %v for an item put while it waited", got, ok)
	}
}
