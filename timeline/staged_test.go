package timeline

import "testing"

// TestStaged writes a staged column as the Builder does, and out of
// order too: zeros added without memory, values set after packing
// (unpacking the chunk again), shifted packed and plain, packed by
// range, permuted and sealed. Every read must be what a plain slice
// written the same way holds.
func TestStaged(t *testing.T) {
	const n = 3*chunkSize + 501
	var c staged[int32]
	want := make([]int32, n)
	check := func(stage string) {
		t.Helper()
		if c.len() != n {
			t.Fatalf("%s: %d values, want %d", stage, c.len(), n)
		}
		for i := range n {
			if got := c.at(i); got != want[i] {
				t.Fatalf("%s: value %d reads %d, want %d", stage, i, got, want[i])
			}
		}
	}
	// The first chunk and a half are zeros, the rest rise, as sessions do.
	for i := range n {
		v := int32(0)
		if i >= chunkSize+chunkSize/2 {
			v = int32(i/1000 + i%3)
		}
		c.add(v)
		want[i] = v
	}
	if c.chunks[0].plain != nil || c.chunks[0].blocks != nil {
		t.Fatalf("a chunk of zeros holds %d plain values and %d blocks, want none", len(c.chunks[0].plain), len(c.chunks[0].blocks))
	}
	if c.chunks[1].blocks == nil || c.chunks[1].plain != nil {
		t.Fatalf("a chunk that filled is not packed")
	}
	check("added")
	// Set in order, packing each chunk once written, then go back into a
	// packed one.
	for i := 0; i < n; i += 3 {
		c.set(i, int32(-i))
		want[i] = int32(-i)
		if i&chunkMask == 0 && i > 0 {
			c.pack(i-chunkSize, i)
		}
	}
	c.set(chunkSize+5, 42)
	want[chunkSize+5] = 42
	check("set")
	c.pack(0, n)
	for k, ch := range c.chunks {
		if ch.plain != nil {
			t.Fatalf("chunk %d is plain after packing all", k)
		}
	}
	// Shift a range that starts inside a chunk and covers whole ones.
	c.shift(chunkSize/3, n, 7)
	for i := chunkSize / 3; i < n; i++ {
		want[i] += 7
	}
	check("shifted")
	if c.chunks[2].plain != nil {
		t.Fatal("a packed chunk wholly shifted was unpacked")
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32((i * 7919) % n)
	}
	p := c.permute(order, nil)
	sealed := c.seal(nil)
	permuted := p.seal(nil)
	if sealed.len() != n || permuted.len() != n {
		t.Fatalf("sealed %d and %d values, want %d", sealed.len(), permuted.len(), n)
	}
	for i := range n {
		if got := sealed.at(i); got != want[i] {
			t.Fatalf("sealed value %d reads %d, want %d", i, got, want[i])
		}
		if got := permuted.at(i); got != want[order[i]] {
			t.Fatalf("permuted value %d reads %d, want %d", i, got, want[order[i]])
		}
	}
}

// TestStagedZeros: a column of zeros only, never set, seals to zeros,
// and one value set in it is the only one that is not.
func TestStagedZeros(t *testing.T) {
	var c staged[int64]
	for range chunkSize + 10 {
		c.add(0)
	}
	c.set(chunkSize+3, -9)
	p := c.seal(nil)
	for i := range chunkSize + 10 {
		want := int64(0)
		if i == chunkSize+3 {
			want = -9
		}
		if got := p.at(i); got != want {
			t.Fatalf("value %d reads %d, want %d", i, got, want)
		}
	}
}
