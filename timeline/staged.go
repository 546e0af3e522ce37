package timeline

import "watchlens/internal/word"

// staged is a column of the event table that the Builder rewrites after
// it is read: the instants, all zero until the file's clock places them,
// the sessions, made global once the file is finished, the flags, which
// placing sets, and the lanes, renumbered once all files are read. Each chunk of it is in one of three
// forms: all zeros (never written, no memory), plain (being written) or
// packed (as a packed column's blocks). Adding packs each chunk as it
// fills, and the Builder packs the chunks it has rewritten once it is
// done with them (pack), so that with millions of events the staging
// columns hold a few bytes an event where plain ones hold 8 for the
// instant and 4 each for the session and lane.
//
// Writing to a packed chunk unpacks it again, so any order of writes
// gives the same values; writes in event order, which are the Builder's,
// unpack nothing.
type staged[T integer] struct {
	chunks []stagedChunk[T]
	n      int
}

// stagedChunk is chunkSize values of a staged column (fewer for the
// last): plain, else packed into blocks, else, with both nil, all zero.
type stagedChunk[T integer] struct {
	plain  []T
	blocks []block
}

func (c *staged[T]) len() int { return c.n }

// add appends v, packing its chunk when it fills.
func (c *staged[T]) add(v T) {
	j := c.n & chunkMask
	if j == 0 {
		c.chunks = append(c.chunks, stagedChunk[T]{})
	}
	ch := &c.chunks[len(c.chunks)-1]
	c.n++
	if ch.plain == nil && ch.blocks == nil && v == 0 {
		return // still all zeros
	}
	if ch.plain == nil {
		ch.plain = c.unpacked(len(c.chunks)-1, j)
	}
	ch.plain = append(growChunk(ch.plain), v)
	if len(ch.plain) == chunkSize {
		ch.blocks, ch.plain = appendBlocks(nil, ch.plain), nil
	}
}

// tryAdd appends v when that neither starts, fills nor grows a chunk:
// to a plain chunk with room, or a zero to a chunk still all zeros. It
// says whether it did, and is inlined (see sealed.tryAdd).
func (c *staged[T]) tryAdd(v T) bool {
	if c.n&chunkMask == 0 {
		return false
	}
	ch := &c.chunks[len(c.chunks)-1]
	if n := len(ch.plain); n+1 < cap(ch.plain) {
		ch.plain = ch.plain[:n+1]
		ch.plain[n] = v
	} else if ch.plain != nil || ch.blocks != nil || v != 0 {
		return false
	}
	c.n++
	return true
}

// unpacked returns the first n values of chunk k as a plain slice, and
// releases its packed form.
func (c *staged[T]) unpacked(k, n int) []T {
	ch := &c.chunks[k]
	out := make([]T, n, n+min(n/4, chunkSize-n))
	if k > 0 {
		out = make([]T, n, chunkSize)
	}
	for j := range out {
		if ch.blocks != nil {
			out[j] = T(blockValue(&ch.blocks[j>>blockBits], uint32(j&blockMask)))
		}
	}
	ch.blocks = nil
	return out
}

// chunkLen is the number of values in chunk k.
func (c *staged[T]) chunkLen(k int) int { return min(chunkSize, c.n-k<<chunkBits) }

func (c *staged[T]) at(i int) T {
	ch := &c.chunks[i>>chunkBits]
	j := i & chunkMask
	if ch.plain != nil {
		return ch.plain[j]
	}
	if ch.blocks == nil {
		return 0
	}
	return T(blockValue(&ch.blocks[j>>blockBits], uint32(j&blockMask)))
}

// blockValue is value j of a block, as packed.at reads it.
func blockValue(b *block, j uint32) uint64 {
	return b.base + b.slope*uint64(j) + word.Load64(b.data, int(j*b.w))&b.mask
}

// trySet sets value i to v when its chunk is plain, and says whether it
// did; it is inlined where set is not (see tryAdd).
func (c *staged[T]) trySet(i int, v T) bool {
	ch := &c.chunks[i>>chunkBits]
	if ch.plain == nil {
		return false
	}
	ch.plain[i&chunkMask] = v
	return true
}

func (c *staged[T]) set(i int, v T) {
	k := i >> chunkBits
	ch := &c.chunks[k]
	if ch.plain == nil {
		if ch.blocks == nil && v == 0 {
			return
		}
		ch.plain = c.unpacked(k, c.chunkLen(k))
	}
	ch.plain[i&chunkMask] = v
}

// shift adds d to the values [lo, hi). A packed chunk wholly among them
// stays packed: its blocks' bases move.
func (c *staged[T]) shift(lo, hi int, d T) {
	if d == 0 || lo >= hi {
		return
	}
	for k := lo >> chunkBits; k<<chunkBits < hi; k++ {
		start := k << chunkBits
		ch := &c.chunks[k]
		if ch.plain == nil && ch.blocks != nil && start >= lo && start+c.chunkLen(k) <= hi {
			// Every read is modulo 2^64 and then T's width (packed.at).
			for b := range ch.blocks {
				ch.blocks[b].base += uint64(d)
			}
			continue
		}
		if ch.plain == nil {
			ch.plain = c.unpacked(k, c.chunkLen(k))
		}
		for i := max(lo, start); i < min(hi, start+len(ch.plain)); i++ {
			ch.plain[i-start] += d
		}
	}
}

// pack packs the plain chunks that lie wholly within [lo, hi): the
// Builder calls it once it has rewritten them.
func (c *staged[T]) pack(lo, hi int) {
	for k := (lo + chunkMask) >> chunkBits; k < len(c.chunks) && k<<chunkBits+c.chunkLen(k) <= hi; k++ {
		if ch := &c.chunks[k]; ch.plain != nil {
			ch.blocks, ch.plain = appendBlocks(nil, ch.plain), nil
		}
	}
}

// drop releases chunk k, whose values are no longer read.
func (c *staged[T]) drop(k int) { c.chunks[k] = stagedChunk[T]{} }

// permute returns a new column holding c[order[0]], c[order[1]], ...
func (c *staged[T]) permute(order []int32, pace *pacer) staged[T] {
	var out staged[T]
	for _, i := range order {
		out.add(c.at(int(i)))
		pace.tick(1)
	}
	return out
}

// seal returns the column packed, releasing each chunk as it goes; c
// must not be used afterwards.
func (c *staged[T]) seal(pace *pacer) packed[T] {
	p := packed[T]{n: c.n}
	// The whole chunks of zeros share the blocks of one, which nothing
	// writes: a column of one value, such as the sessions of a capture of
	// one watch, is packed once, not a chunk at a time.
	var zeroBlocks []block
	for k := range c.chunks {
		ch := &c.chunks[k]
		switch {
		case ch.plain != nil:
			p.blocks = appendBlocks(p.blocks, ch.plain)
		case ch.blocks != nil:
			p.blocks = append(p.blocks, ch.blocks...)
		case c.chunkLen(k) == chunkSize:
			if zeroBlocks == nil {
				zeroBlocks = appendBlocks(nil, make([]T, chunkSize))
			}
			p.blocks = append(p.blocks, zeroBlocks...)
		default: // the last chunk, of fewer values
			p.blocks = appendBlocks(p.blocks, make([]T, c.chunkLen(k)))
		}
		pace.tick(c.chunkLen(k))
		c.chunks[k] = stagedChunk[T]{}
	}
	c.chunks = nil
	return p
}
