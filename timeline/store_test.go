package timeline

import "testing"

// TestColumnAcrossChunks fills a column past its first chunk (which grows
// from firstChunk by doubling) into later ones, and reads it back plain,
// permuted and packed.
func TestColumnAcrossChunks(t *testing.T) {
	const n = 2*chunkSize + 777
	var c column[int64]
	for i := range n {
		c.add(int64(i)*3 - 1000)
	}
	if c.n != n || len(c.chunks) != 3 {
		t.Fatalf("%d values in %d chunks", c.n, len(c.chunks))
	}
	for k, ch := range c.chunks[:2] {
		if len(ch) != chunkSize {
			t.Fatalf("chunk %d holds %d values, want %d", k, len(ch), chunkSize)
		}
	}
	for i := range n {
		if got := c.at(i); got != int64(i)*3-1000 {
			t.Fatalf("value %d is %d", i, got)
		}
	}
	c.set(chunkSize+1, 42)
	if c.at(chunkSize+1) != 42 {
		t.Fatalf("set did not take")
	}
	c.set(chunkSize+1, int64(chunkSize+1)*3-1000)

	order := make([]int32, n)
	for i := range order {
		order[i] = int32(n - 1 - i)
	}
	p := c.permute(order, nil)
	if p.n != n {
		t.Fatalf("permuted column holds %d values", p.n)
	}
	for i := range n {
		if got, want := p.at(i), c.at(n-1-i); got != want {
			t.Fatalf("permuted value %d is %d, want %d", i, got, want)
		}
	}

	packed := pack(&p, nil)
	if packed.len() != n {
		t.Fatalf("packed column holds %d values", packed.len())
	}
	for i := range n {
		if got, want := packed.at(i), int64(n-1-i)*3-1000; got != want {
			t.Fatalf("packed value %d is %d, want %d", i, got, want)
		}
	}
}

// TestColumnSmall: a small column allocates only its first chunk's start.
func TestColumnSmall(t *testing.T) {
	var c column[uint32]
	for i := range 10 {
		c.add(uint32(i))
	}
	if len(c.chunks) != 1 || cap(c.chunks[0]) != firstChunk {
		t.Fatalf("10 values in %d chunks, the first of capacity %d", len(c.chunks), cap(c.chunks[0]))
	}
}
