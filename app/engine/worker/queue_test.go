//go:build js && wasm

package main

import "testing"

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
