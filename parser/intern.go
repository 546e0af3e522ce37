package parser

import (
	"math/bits"
	"math/rand/v2"
	"unsafe"

	"watchlens/internal/word"
)

// internTable holds the Reader's one copy of each string it hands out.
// It is an open-addressing table with a hash of a few multiplications,
// in place of a map[string]string: under wasm the runtime hashes strings
// without AES (wyhash, whose 128-bit products are emulated) and a map
// access is a chain of calls, and with small events the names, namespaces
// and uids, new in almost every event, made the lookups a fifth of the
// reading.
//
// The hash is seeded per table, so a capture cannot be made to collide
// without knowing the seed; should one collide anyway, a key that finds
// no free slot within maxProbe goes to the overflow map, so a lookup
// costs at most maxProbe comparisons of a 32-bit hash before the map's.
// (Linear probing at half load has runs of a few dozen slots in a table
// of 100 000 strings: maxProbe is well above them.)
//
// The table is bounded: it holds the strings of two generations, the
// current one of at most limit strings and the one before, read-only. A
// string found only in the one before is copied into the current one,
// number and all; when the current one is full it becomes the one
// before, and the strings of the one before that are no longer the
// table's. A capture of millions of distinct objects (Events, each a new
// object) kept every identity it read, some 150 bytes each; now the
// table keeps what a capture repeats within the last limit strings, at
// most a few MB, and an object seen again after that gets a new number.
type internTable struct {
	slots    []internSlot // a power of two long, at most half full
	shift    uint         // 32 - log2(len(slots))
	n        int
	seed     uint64
	overflow map[string]internSlot
	// ids counts the strings added: each has its number, 1 up, for as
	// long as the table lives (see Event.Identity).
	ids uint32
	// block holds the bytes of the small strings added from bytes (see
	// copyBytes).
	block []byte
	// prev is the generation before (nil for none), whose strings are
	// found and copied into this one; limit is how many strings a
	// generation holds, 0 for no bound.
	prev  *internTable
	limit int
}

const (
	internBlock    = 16 << 10
	maxBlockString = 256
)

// copyBytes returns a string of b's bytes. The table holds its strings
// for as long as they are in its generations, so small ones share blocks of memory rather than
// being one allocation each: a watch of Events, each a new object, made
// one for every event's identity, which under wasm, whose collector runs
// on the parser's thread, costs more than the rest of interning it.
func (t *internTable) copyBytes(b []byte) string {
	if len(b) == 0 || len(b) > maxBlockString {
		return string(b)
	}
	if cap(t.block)-len(t.block) < len(b) {
		t.block = make([]byte, 0, internBlock)
	}
	n := len(t.block)
	t.block = append(t.block, b...)
	return unsafe.String(&t.block[n], len(b))
}

type internSlot struct {
	// h is the string's 32-bit hash, 0 for an empty slot (see hash). Its
	// high bits are the slot's index, so that growing the table moves
	// slots without reading their strings again, which are all over the
	// heap.
	h  uint32
	id uint32
	s  string
}

const (
	internInitial = 1 << 12
	maxProbe      = 64
	// internLimit is the strings of one generation: objects that recur
	// within some 16 000 others (a watch over 10 000 ConfigMaps, 3000
	// pods) keep their numbers, and the two generations keep at most
	// 2^15 strings, with their slots about 3 MB. The table is alive for
	// the whole read, beside the model being built: 2^16 strings were a
	// tenth of analyze's peak memory on 1 GB of small ConfigMaps. An
	// object past the bound is found again by its uid (the timeline's
	// uid index), only slower.
	internLimit = 1 << 14
)

func newInternTable() *internTable {
	t := &internTable{seed: rand.Uint64() | 1, limit: internLimit}
	t.resize(internInitial)
	return t
}

// age makes the current generation the one before, dropping the one
// before it, and starts an empty one as large.
func (t *internTable) age() {
	prev := &internTable{slots: t.slots, shift: t.shift, n: t.n, seed: t.seed, overflow: t.overflow}
	t.slots, t.n, t.overflow, t.block, t.prev = make([]internSlot, len(t.slots)), 0, nil, nil, prev
}

// promote copies e, found in the generation before, into the current
// one, with its number: the string's bytes move into the current
// generation's blocks, so that the one before holds nothing the table
// still hands out once it is dropped.
func (t *internTable) promote(e internSlot) internSlot {
	t.room()
	if len(e.s) <= maxBlockString {
		e.s = t.copyBytes(unsafe.Slice(unsafe.StringData(e.s), len(e.s)))
	}
	t.insert(e)
	return e
}

// room makes room for one more string in the current generation: a
// new generation when it holds limit, else a larger table when it is
// half full.
func (t *internTable) room() {
	if t.limit > 0 && t.n >= t.limit {
		t.age()
	}
	if 2*(t.n+1) > len(t.slots) {
		t.resize(2 * len(t.slots))
	}
}

func (t *internTable) resize(n int) {
	old := t.slots
	t.slots = make([]internSlot, n)
	t.shift = uint(32 - bits.TrailingZeros(uint(n)))
	t.n = 0
	ov := t.overflow
	t.overflow = nil
	for _, e := range old {
		if e.h != 0 {
			t.insert(e)
		}
	}
	for _, e := range ov {
		t.insert(e)
	}
}

const (
	hashMul1 = 0x9e3779b97f4a7c15
	hashMul2 = 0xbf58476d1ce4e5b9
)

// hash mixes b eight bytes at a time with 64-bit multiplications (native
// under wasm, unlike the 128-bit products of the runtime's hash). The
// result is never 0, which marks an empty slot.
func (t *internTable) hash(b []byte) uint32 {
	h := t.seed ^ uint64(len(b))*hashMul1
	i := 0
	for ; i+8 <= len(b); i += 8 {
		h = bits.RotateLeft64((h^word.Load64(b, i))*hashMul2, 31)
	}
	if i < len(b) {
		var w uint64
		for k := len(b) - 1; k >= i; k-- {
			w = w<<8 | uint64(b[k])
		}
		h = bits.RotateLeft64((h^w)*hashMul2, 31)
	}
	// murmur3's finalizer, then the high half.
	h ^= h >> 33
	h *= hashMul1
	h ^= h >> 33
	h *= hashMul2
	h ^= h >> 33
	return uint32(h>>32) | 1
}

func (t *internTable) hashString(s string) uint32 {
	// The compiler does not copy a conversion used only for reading.
	return t.hash([]byte(s))
}

// bytes returns the table's copy of the string in b, adding one.
func (t *internTable) bytes(b []byte) string {
	s, _ := t.bytesID(b)
	return s
}

// bytesID is bytes with the string's number in the table.
func (t *internTable) bytesID(b []byte) (string, uint32) {
	h := t.hash(b)
	// A view of b, only compared, never kept: the copy is made only for a
	// string the table does not hold yet.
	view := unsafe.String(unsafe.SliceData(b), len(b))
	if e, ok := t.find(h, view); ok {
		return e.s, e.id
	}
	if t.prev != nil {
		if e, ok := t.prev.find(h, view); ok {
			e = t.promote(e)
			return e.s, e.id
		}
	}
	t.room()
	e := t.add(h, t.copyBytes(b))
	return e.s, e.id
}

// string returns the table's copy of s, adding s.
func (t *internTable) string(s string) string {
	h := t.hashString(s)
	if e, ok := t.find(h, s); ok {
		return e.s
	}
	if t.prev != nil {
		if e, ok := t.prev.find(h, s); ok {
			return t.promote(e).s
		}
	}
	t.room()
	return t.add(h, s).s
}

// find returns the table's entry of s, whose hash is h.
func (t *internTable) find(h uint32, s string) (internSlot, bool) {
	mask := len(t.slots) - 1
	i := int(h >> t.shift)
	for p := 0; p < maxProbe; p++ {
		e := &t.slots[i]
		if e.h == 0 {
			break
		}
		if e.h == h && equalStrings(e.s, s) {
			return *e, true
		}
		i = (i + 1) & mask
	}
	e, ok := t.overflow[s]
	return e, ok
}

// add adds s, numbering it, once room has made room for it.
func (t *internTable) add(h uint32, s string) internSlot {
	t.ids++
	e := internSlot{h: h, id: t.ids, s: s}
	t.insert(e)
	return e
}

// insert adds e, which is in neither the slots nor the overflow map.
func (t *internTable) insert(e internSlot) {
	mask := len(t.slots) - 1
	i := int(e.h >> t.shift)
	for p := 0; p < maxProbe; p++ {
		slot := &t.slots[i]
		if slot.h == 0 {
			*slot = e
			t.n++
			return
		}
		i = (i + 1) & mask
	}
	if t.overflow == nil {
		t.overflow = make(map[string]internSlot)
	}
	t.overflow[e.s] = e
}
