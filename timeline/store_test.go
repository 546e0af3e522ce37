package timeline

import (
	"math"
	"math/rand/v2"
	"testing"
)

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

// TestColumnSmall: a small column allocates only its first chunk's start,
// doubled as it fills.
func TestColumnSmall(t *testing.T) {
	var c column[uint32]
	for i := range firstChunk {
		c.add(uint32(i))
	}
	if len(c.chunks) != 1 || cap(c.chunks[0]) != firstChunk {
		t.Fatalf("%d values in %d chunks, the first of capacity %d", firstChunk, len(c.chunks), cap(c.chunks[0]))
	}
	c.add(firstChunk)
	if len(c.chunks) != 1 || cap(c.chunks[0]) != 2*firstChunk || c.at(firstChunk) != firstChunk {
		t.Fatalf("%d values in %d chunks, the first of capacity %d", firstChunk+1, len(c.chunks), cap(c.chunks[0]))
	}
}

// TestPackedLines packs blocks that rise steadily (stored as a line and
// its offsets), and values whose lines overflow, and reads them back.
func TestPackedLines(t *testing.T) {
	// Event indices of a series' steps: nearly every event, the odd one
	// skipped. As a line, a block needs a byte a value; flat, two.
	var steps column[int32]
	for i := range 3000 {
		steps.add(int32(i + i/100))
	}
	p := checkPacked(t, "steps", &steps)
	if w := p.blocks[0].w; w != 1 || p.blocks[0].slope == 0 {
		t.Errorf("steps block stored %d bytes a value, slope %d: want a line, 1 byte", w, p.blocks[0].slope)
	}
	// A steady clock going back (a permuted column) needs no bytes at all.
	var clock column[int64]
	for i := range 2048 {
		clock.add(1_800_000_000_000_000_000 - int64(i)*3_600_000)
	}
	if p := checkPacked(t, "clock", &clock); p.blocks[1].w != 0 {
		t.Errorf("steady clock stored %d bytes a value", p.blocks[1].w)
	}

	// Steps kept apart (^j) among event indices; values at the ends of
	// their types, whose lines wrap around.
	var mixed column[int32]
	var edges column[int64]
	var huge column[uint64]
	var small column[uint8]
	for i := range 3000 {
		v := int32(i)
		if i%37 == 0 {
			v = ^int32(i / 37)
		}
		mixed.add(v)
		edges.add([]int64{math.MaxInt64, math.MinInt64, 0, -1, math.MaxInt64 - int64(i)}[i%5])
		huge.add(math.MaxUint64 - uint64(i)*uint64(i)*1_000_003)
		small.add(uint8(i * 7))
	}
	checkPacked(t, "mixed", &mixed)
	checkPacked(t, "edges", &edges)
	checkPacked(t, "huge", &huge)
	checkPacked(t, "small", &small)
	rng := rand.New(rand.NewPCG(1, 2))
	var random column[uint64]
	for range 5000 {
		random.add(rng.Uint64() >> rng.IntN(64))
	}
	checkPacked(t, "random", &random)
}

// checkPacked packs a copy of c and checks every value reads back.
func checkPacked[T integer](t *testing.T, name string, c *column[T]) packed[T] {
	t.Helper()
	want := make([]T, c.n)
	for i := range want {
		want[i] = c.at(i)
	}
	p := pack(c, nil)
	for i, v := range want {
		if got := p.at(i); got != v {
			t.Fatalf("%s: value %d reads %d, want %d", name, i, got, v)
		}
	}
	return p
}

// TestSealed fills a sealed column past two chunks, reading it back while
// it fills (packed chunks and the plain tail), permuted and sealed.
func TestSealed(t *testing.T) {
	const n = 2*chunkSize + 777
	value := func(i int) int64 { return int64(i)*900 + int64(i%7)*13 - 5 }
	var c sealed[int64]
	for i := range n {
		c.add(value(i))
		if i%4099 == 0 || i == chunkSize-1 || i == chunkSize {
			for _, j := range []int{0, i / 2, i} {
				if got := c.at(j); got != value(j) {
					t.Fatalf("after %d values, value %d reads %d, want %d", i+1, j, got, value(j))
				}
			}
		}
	}
	if c.len() != n || c.done.n != 2*chunkSize || len(c.tail) != 777 {
		t.Fatalf("%d values, %d packed and %d plain", c.len(), c.done.n, len(c.tail))
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32((i * 7919) % n)
	}
	p := c.permute(order, nil)
	sealed := c.seal()
	permuted := p.seal()
	if sealed.len() != n || permuted.len() != n {
		t.Fatalf("sealed %d and %d values, want %d", sealed.len(), permuted.len(), n)
	}
	for i := range n {
		if got := sealed.at(i); got != value(i) {
			t.Fatalf("sealed value %d reads %d, want %d", i, got, value(i))
		}
		if got, want := permuted.at(i), value(int(order[i])); got != want {
			t.Fatalf("permuted value %d reads %d, want %d", i, got, want)
		}
	}
}
