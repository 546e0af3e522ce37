package app

import (
	"testing"
	"time"
)

// A goroutinePool runs a func at once even while another one waits, and
// a goroutine of it that has run a func takes the next one handed to the
// pool, rather than end.
func TestGoroutinePoolKeepsItsGoroutines(t *testing.T) {
	p := goroutinePool{idle: make(chan func())}
	release := make(chan struct{})
	ran := make(chan int, 10)
	p.run(func() { <-release; ran <- 0 })
	p.run(func() { ran <- 1 }) // the first is waiting: this one runs beside it
	select {
	case i := <-ran:
		if i != 1 {
			t.Fatalf("func %d ran first; the second should not wait for the first", i)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second func waited for the first")
	}
	close(release)
	if i := <-ran; i != 0 {
		t.Fatalf("func %d ran last, want 0", i)
	}
	// Both goroutines wait for work now: each takes a func handed to
	// the pool.
	for i := range 4 {
		select {
		case p.idle <- func() { ran <- i }:
		case <-time.After(10 * time.Second):
			t.Fatalf("no goroutine of the pool took func %d", i)
		}
		if got := <-ran; got != i {
			t.Fatalf("ran %d, want %d", got, i)
		}
	}
}
