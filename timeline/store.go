package timeline

import (
	"encoding/binary"
	"strconv"

	"watchlens/internal/word"
)

// The event table is stored column by column in fixed-size chunks: a
// capture of millions of events then never needs one huge contiguous
// allocation (wasm memory grows in place and never shrinks, and append's
// doubling would briefly hold two copies of a slice of hundreds of MB).
//
// The Builder fills plain columns, which it rewrites while it places
// events on the clock and merges files; Build then packs each column
// (packed), which is what the Timeline keeps.

const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// column is an append-only array split into chunks of chunkSize elements.
// A chunk's length is its capacity: the values in it are those below n,
// so that adding one writes the value alone, not the chunk's slice again
// (a pointer, which as wasm costs a write barrier while the collector
// marks).
type column[T any] struct {
	chunks [][]T
	n      int
}

// firstChunk is the first chunk's starting capacity: a small capture
// (most are) then does not allocate a whole chunk per column, 2.5 MB for
// the event table, and a cursor of a client from audit logs, which has
// a handful of steps, costs tens of bytes, not kilobytes (a fleet has
// tens of thousands). The first chunk doubles up to chunkSize (append's
// own growth, by a quarter past 256 elements, copied five times as
// much); later ones, in a capture that has proved large, are allocated
// whole.
const firstChunk = 8

func (c *column[T]) add(v T) {
	j := c.n & chunkMask
	if j == 0 {
		size := chunkSize
		if c.n == 0 {
			size = firstChunk
		}
		c.chunks = append(c.chunks, make([]T, size))
	}
	last := len(c.chunks) - 1
	if ch := c.chunks[last]; j == len(ch) {
		grown := make([]T, min(2*len(ch), chunkSize))
		copy(grown, ch)
		c.chunks[last] = grown
	}
	c.chunks[last][j] = v
	c.n++
}

// chunkLen is the number of values in chunk k.
func (c *column[T]) chunkLen(k int) int { return min(chunkSize, c.n-k<<chunkBits) }

func (c *column[T]) at(i int) T { return c.chunks[i>>chunkBits][i&chunkMask] }

func (c *column[T]) set(i int, v T) { c.chunks[i>>chunkBits][i&chunkMask] = v }

// permute returns a new column holding c[order[0]], c[order[1]], ...
func (c *column[T]) permute(order []int32, pace *pacer) column[T] {
	out := column[T]{n: len(order)}
	// Its length is known: each chunk is allocated at its size.
	for lo := 0; lo < len(order); lo += chunkSize {
		ch := make([]T, min(len(order)-lo, chunkSize))
		for k := range ch {
			ch[k] = c.at(int(order[lo+k]))
			pace.tick(1)
		}
		out.chunks = append(out.chunks, ch)
	}
	return out
}

// integer is what a packed column holds.
type integer interface {
	~int32 | ~int64 | ~uint8 | ~uint32 | ~uint64
}

// A packed column splits each chunk into blocks of blockSize values and
// stores a block as its smallest value plus, per value, the offset from
// it in as few bytes as the block's spread needs (0 to 8). Neighbouring
// events have close instants, offsets and resourceVersions, the same
// session and type, and lanes from a narrow band, so most columns need
// 0 to 2 bytes a value where the plain column takes 4 or 8.
//
// A block whose values rise steadily is stored as a line instead: value
// j is base + slope*j plus its offset, when that needs fewer bytes. The
// steps of a series (event indices, nearly every event a step), a kind's
// changes and their running maximum RV, instants on a steady clock and
// the offsets of events of like sizes rise so: the offsets from the line
// are what varies, often none at all.
const (
	blockBits = 10
	blockMask = 1<<blockBits - 1
)

type packed[T integer] struct {
	blocks []block
	n      int
}

// A block's value j is base + slope*j plus its offset, as uint64(T): a
// flat block's base is its least value and its slope 0; a line's base is
// where the line through the values starts, lowered to the least offset.
// Its data is a slice of one allocation per chunk (the blocks of a chunk
// share it), which ends with 8 spare bytes.
type block struct {
	base  uint64
	slope uint64
	mask  uint64 // the low w bytes
	data  []byte
	w     uint32 // bytes per value
}

// at reads value i. Every value is read as 8 little-endian bytes and
// masked, the spare bytes making that safe: one code path serves every
// width, 0 included, and every block, flat or not (all arithmetic is
// modulo 2^64, so a line through any values reads them back). The read
// is unchecked under wasm (word.Load64): the block's data holds every
// value's 8 bytes by construction.
func (c *packed[T]) at(i int) T { return T(c.blocks[i>>blockBits].value(uint32(i & blockMask))) }

// value is the block's value j, as uint64(T).
func (b *block) value(j uint32) uint64 {
	return b.base + b.slope*uint64(j) + word.Load64(b.data, int(j*b.w))&b.mask
}

func (c *packed[T]) len() int { return c.n }

// pack packs a plain column, releasing each of its chunks once packed, so
// that the two forms never both exist whole. It ticks pace (which may be
// nil) once per value.
func pack[T integer](c *column[T], pace *pacer) packed[T] {
	var p packed[T]
	for k, ch := range c.chunks {
		ch = ch[:c.chunkLen(k)]
		p.appendChunk(ch)
		c.chunks[k] = nil
		pace.tick(len(ch))
	}
	return p
}

// appendChunk packs the values of a chunk after the column's: every
// chunk before it must have been whole (chunkSize values).
func (p *packed[T]) appendChunk(ch []T) {
	p.blocks = appendBlocks(p.blocks, ch)
	p.n += len(ch)
}

// appendBlocks appends the blocks of a chunk's values (at most
// chunkSize) to bs, their data one allocation.
func appendBlocks[T integer](bs []block, ch []T) []block {
	first := len(bs)
	size := 0
	var offs [chunkSize >> blockBits]int // byte offset of each block in the chunk's data
	for lo := 0; lo < len(ch); lo += 1 << blockBits {
		vs := ch[lo:min(lo+1<<blockBits, len(ch))]
		b := packBlock(vs)
		offs[len(bs)-first] = size
		bs = append(bs, b)
		size += int(b.w) * len(vs)
	}
	data := make([]byte, size+8)
	for j := range bs[first:] {
		bs[first+j].data = data[offs[j]:]
	}
	for j := range bs[first:] {
		b := &bs[first+j]
		if b.w == 0 {
			continue // every value lies on the line: its data, zeros, is never read
		}
		vs := ch[j<<blockBits : min((j+1)<<blockBits, len(ch))]
		data, w, base, slope := b.data, int(b.w), b.base, b.slope
		for k, v := range vs {
			binary.LittleEndian.PutUint64(data[k*w:], uint64(v)-slope*uint64(k)-base)
		}
	}
	return bs
}

// growChunk returns ch with room for one more value: a chunk being
// written doubles from firstChunk up to chunkSize, so a small capture
// does not take a whole chunk per column.
func growChunk[T integer](ch []T) []T {
	if len(ch) < cap(ch) {
		return ch
	}
	grown := make([]T, len(ch), min(max(2*cap(ch), firstChunk), chunkSize))
	copy(grown, ch)
	return grown
}

// sealed is a column whose values are never rewritten once added. It
// packs each chunk as soon as it is full, so that while a capture is
// read it holds a few bytes a value, not 8, and one chunk plain.
type sealed[T integer] struct {
	done packed[T]
	tail []T // the values after done's, fewer than chunkSize
}

// tryAdd appends v when that neither grows nor fills the tail, and says
// whether it did. It is small enough to be inlined, where add is not:
// the Builder adds to every column at every event, and as wasm the
// calls cost more than the stores (see eventTable.addRow).
func (c *sealed[T]) tryAdd(v T) bool {
	if n := len(c.tail); n+1 < cap(c.tail) {
		c.tail = c.tail[:n+1]
		c.tail[n] = v
		return true
	}
	return false
}

func (c *sealed[T]) add(v T) {
	// Once a chunk has filled, the next reuses its array.
	c.tail = append(growChunk(c.tail), v)
	if len(c.tail) == chunkSize {
		c.done.appendChunk(c.tail)
		c.tail = c.tail[:0]
	}
}

func (c *sealed[T]) at(i int) T {
	if i < c.done.n {
		return c.done.at(i)
	}
	return c.tail[i-c.done.n]
}

func (c *sealed[T]) len() int { return c.done.n + len(c.tail) }

// permute returns a new column holding c[order[0]], c[order[1]], ...
func (c *sealed[T]) permute(order []int32, pace *pacer) sealed[T] {
	var out sealed[T]
	for _, i := range order {
		out.add(c.at(int(i)))
		pace.tick(1)
	}
	return out
}

// seal packs the values not yet packed and returns the packed column;
// c must not be used afterwards.
func (c *sealed[T]) seal() packed[T] {
	if len(c.tail) > 0 {
		c.done.appendChunk(c.tail)
	}
	c.tail = nil
	return c.done
}

// packBlock chooses how to store the values of one block, flat or as a
// line through its first and last values, whichever needs fewer bytes a
// value; its data is left to pack.
func packBlock[T integer](vs []T) block {
	// One walk finds the spread of the values and that of their offsets
	// from the line: every column is packed a block at a time, some
	// twice over a load, and a second walk over each block was a large
	// part of packing.
	n := len(vs)
	var slope uint64
	if n > 1 {
		slope = uint64((int64(uint64(vs[n-1])) - int64(uint64(vs[0]))) / int64(n-1))
	}
	least, most := vs[0], vs[0]
	lo, hi := int64(uint64(vs[0])), int64(uint64(vs[0]))
	for j, v := range vs {
		least, most = min(least, v), max(most, v)
		r := int64(uint64(v) - slope*uint64(j))
		lo, hi = min(lo, r), max(hi, r)
	}
	b := block{base: uint64(least), w: width(uint64(most) - uint64(least))}
	// The rise is the values' as int64, modulo 2^64 like the reads: the
	// offsets from the line are ordered as int64, whose differences are
	// then what they span, however the values overflow.
	if n > 1 && b.w > 0 && slope != 0 {
		if w := width(uint64(hi) - uint64(lo)); w < b.w {
			b = block{base: uint64(lo), slope: slope, w: w}
		}
	}
	// A shift by 64 gives 0: the mask of a width-0 block.
	b.mask = ^uint64(0) >> (64 - 8*b.w)
	return b
}

// width is the bytes that spread needs.
func width(spread uint64) uint32 {
	w := uint32(0)
	for ; spread > 0; spread >>= 8 {
		w++
	}
	return w
}

// Per-event flag bits.
const (
	flagRVValid    = 1 << iota // RV parsed as uint64
	flagInitial                // inside the initial burst of a sendInitialEvents stream
	flagInitialEnd             // the bookmark with k8s.io/initial-events-end
	flagTimed                  // instant measured (arrival time), not estimated
)

// eventTable holds every event of every file while the Builder works:
// staged columns, which the Builder rewrites (instants placed on the
// clock, sessions and lanes renumbered, flags set) and packs again once
// rewritten; and sealed ones, packed as they fill. Merging files into time order makes each column again.
// Build then packs it into a table, which is what the Timeline keeps: a
// few bytes per event. What the whole model keeps, and the most it holds
// on the way, by kind of capture, are BenchmarkKept's
// (kept_bench_test.go).
type eventTable struct {
	t      staged[int64]  // instant, Unix ns
	rv     sealed[uint64] // parsed resourceVersion (valid when flagRVValid)
	lane   staged[int32]  // lane index, -1 for bookmarks and errors
	sess   staged[int32]  // session index: in its file until Finish, then global
	off    sealed[int64]  // byte offset in the decompressed stream
	length sealed[uint32] // byte length (saturated)
	typ    sealed[uint8]  // parser.EventType
	flags  staged[uint8]
}

func (e *eventTable) len() int { return e.t.n }

// addRow appends an event, its instant 0 until the clock places it: a
// call, where one per column made eight.
func (e *eventTable) addRow(rv uint64, lane, sess int32, off int64, length uint32, typ, flags uint8) {
	if !e.t.tryAdd(0) {
		e.t.add(0)
	}
	if !e.rv.tryAdd(rv) {
		e.rv.add(rv)
	}
	if !e.lane.tryAdd(lane) {
		e.lane.add(lane)
	}
	if !e.sess.tryAdd(sess) {
		e.sess.add(sess)
	}
	if !e.off.tryAdd(off) {
		e.off.add(off)
	}
	if !e.length.tryAdd(length) {
		e.length.add(length)
	}
	if !e.typ.tryAdd(typ) {
		e.typ.add(typ)
	}
	if !e.flags.tryAdd(flags) {
		e.flags.add(flags)
	}
}

func (e *eventTable) permute(order []int32, pace *pacer) eventTable {
	return eventTable{
		t: e.t.permute(order, pace), rv: e.rv.permute(order, pace), lane: e.lane.permute(order, pace),
		sess: e.sess.permute(order, pace), off: e.off.permute(order, pace),
		length: e.length.permute(order, pace), typ: e.typ.permute(order, pace), flags: e.flags.permute(order, pace),
	}
}

// table is the Timeline's event table: eventTable's columns, packed.
type table struct {
	t      packed[int64]
	rv     packed[uint64]
	lane   packed[int32]
	sess   packed[int32]
	off    packed[int64]
	length packed[uint32]
	typ    packed[uint8]
	flags  packed[uint8]
}

func (e *eventTable) pack(pace *pacer) table {
	return table{t: e.t.seal(pace), rv: e.rv.seal(), lane: e.lane.seal(pace),
		sess: e.sess.seal(pace), off: e.off.seal(), length: e.length.seal(),
		typ: e.typ.seal(), flags: e.flags.seal(pace)}
}

func (t *table) len() int { return t.t.n }

// rvString is an event's resourceVersion as sent: odd holds, by event,
// the ones that are not plain numbers (the table keeps numbers only).
func rvString(odd map[int]string, i int, flags uint8, rv uint64) string {
	if s, ok := odd[i]; ok {
		return s
	}
	if flags&flagRVValid != 0 {
		return strconv.FormatUint(rv, 10)
	}
	return ""
}

// holed is a sealed column of times of which some are 0, none: a block
// of steadily rising times packs into a line of 0 bytes a value, but one
// 0 among them (a bookmark's, which has no time of its own) spreads the
// block to 8 bytes a value: a capture with a bookmark every few thousand
// events would stage its estimated times nearly unpacked. A 0 after a
// time is stored as the line through the two values before it goes on,
// with its bit set in holes; the 0s before any time are stored as they
// are and need no bit.
type holed[T integer] struct {
	vals sealed[T]
	// holes holds a bit per value, a chunk of them at a time, nil for a
	// chunk that has none.
	holes [][]uint64
	// last is the last value stored that is not 0, step its rise from
	// the one before.
	last, step T
}

func (c *holed[T]) add(v T) {
	switch {
	case v != 0:
		if c.last != 0 {
			c.step = v - c.last
		}
	case c.last != 0:
		i := c.vals.len()
		k := i >> chunkBits
		for len(c.holes) <= k {
			c.holes = append(c.holes, nil)
		}
		if c.holes[k] == nil {
			c.holes[k] = make([]uint64, chunkSize/64)
		}
		c.holes[k][i&chunkMask>>6] |= 1 << (i & 63)
		v = c.last + c.step
	}
	c.last = v // unchanged when v and last are 0
	if !c.vals.tryAdd(v) {
		c.vals.add(v)
	}
}

// tryAdd is add of a value that is not 0, when its chunk has room: it
// says whether it added v, and is inlined where add is not (see
// sealed.tryAdd).
func (c *holed[T]) tryAdd(v T) bool {
	if v == 0 || !c.vals.tryAdd(v) {
		return false
	}
	if c.last != 0 {
		c.step = v - c.last
	}
	c.last = v
	return true
}

func (c *holed[T]) at(i int) T {
	if k := i >> chunkBits; k < len(c.holes) && c.holes[k] != nil && c.holes[k][i&chunkMask>>6]&(1<<(i&63)) != 0 {
		return 0
	}
	return c.vals.at(i)
}
