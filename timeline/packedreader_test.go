package timeline

import "testing"

// The readers answer what the packed columns do, whatever the order of
// the reads: forward a value at a time (a cursor pass's walks), jumping
// forward and back across blocks (a cursor whose value goes down), and
// reading the short last block.
func TestBlockReaderReadsWhatPackedDoes(t *testing.T) {
	var c column[int64]
	n := 5<<blockBits + 300
	for i := range n {
		v := int64(i) * 3_600_000
		if i%7 == 0 {
			v += int64(i % 1000) // off the line: a block of bytes, not only a slope
		}
		c.add(v - 1<<40)
	}
	p := pack(&c, nil)
	r := newBlockReader(&p)
	order := make([]int, 0, 3*n)
	for i := range n {
		order = append(order, i)
	}
	for k := 0; k < 2*n; k++ {
		order = append(order, (k*7919)%n, n-1-k%n) // jumps, and a walk back
	}
	for _, i := range order {
		if got, want := int64(r.at(i)), p.at(i); got != want {
			t.Fatalf("value %d: %d, want %d", i, got, want)
		}
	}
	if len(r.buf) == 0 {
		t.Fatal("the forward walk decoded no block")
	}
}

// On a real capture, a cursor pass's readers of steps and of a kind's
// change instants answer what Steps and kindSeries do.
func TestStepAndTimeReadersMatchTheSeries(t *testing.T) {
	tl := loadSamples(t, "w1-broad-configmaps-bookmarks.http")
	for ci := range tl.Cursors {
		c := &tl.Cursors[ci]
		var r stepReader
		r.reuse(&c.Steps)
		for k := range c.Len() {
			wt, wrv := c.Step(k)
			if gt, grv := r.step(k); gt != wt || grv != wrv {
				t.Fatalf("cursor %d step %d: %d %d, want %d %d", ci, k, gt, grv, wt, wrv)
			}
			if gt := r.time(k); gt != wt {
				t.Fatalf("cursor %d step %d: instant %d, want %d", ci, k, gt, wt)
			}
		}
	}
	if len(tl.series) == 0 {
		t.Fatal("no series")
	}
	for kind, s := range tl.series {
		var r timeReader
		r.reuse(s)
		for k := range s.len() {
			if got, want := r.at(s, k), s.t(k); got != want {
				t.Fatalf("%s change %d: %d, want %d", kind, k, got, want)
			}
		}
		if s.len() == 0 {
			continue
		}
		if got, want := (*timeReader)(nil).at(s, 0), s.t(0); got != want {
			t.Fatalf("%s change 0 without a reader: %d, want %d", kind, got, want)
		}
	}
}
