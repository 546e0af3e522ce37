package parser

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"strings"
	"unsafe"

	"watchlens/internal/word"
)

// internTable holds the Reader's one copy of each string it hands out.
// It is an open-addressing table with a hash of a few multiplications,
// in place of a map[string]string: under wasm the runtime hashes strings
// without AES (wyhash, whose 128-bit products are emulated) and a map
// access is a chain of calls, and with small events the names, namespaces
// and uids, new in almost every event, would make the lookups a large
// part of the reading.
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
	internGen // the current generation
	// prev is the generation before (nil for none), whose strings are
	// found and copied into the current one.
	prev *internGen
	seed uint64
	// ids counts the strings added: each has its number, 1 up, for as
	// long as the table lives (see Event.Identity).
	ids uint32
	// limit is how many strings a generation holds, 0 for no bound.
	limit int
}

// internGen is a generation of the table: its slots, and the records
// they point to.
//
// A string's record holds its number and its bytes side by side, in
// blocks of memory the generation's strings share: the string handed
// out is a view of the record's bytes. A slot is its string's hash and
// where its record is, 8 bytes without a pointer, so that the slots of
// a generation of 16384 strings take 256 KiB the collector never scans,
// and a lookup reads a slot and then one record, the number beside the
// bytes it compares, rather than a slot and a string elsewhere: about
// one cache miss a lookup instead of two. (A small event's identity is
// new to the last event, and looked up in tables of megabytes.)
type internGen struct {
	slots []internSlot // a power of two long, at most half full
	// taken has a bit for each slot, set where it holds a string. A
	// probe reads a slot only where its bit is set: a new object's
	// identity, whose slots are empty at least half the time, is then
	// looked up without reading the slots, whose 256 KiB a generation
	// the capture's bytes push out of the cache between two events,
	// while the bits' 4 KiB stay in it.
	taken  []uint64
	shift  uint // 32 - log2(len(slots))
	n      int
	blocks [][]byte // the records (see nextBlock)
	used   int      // the bytes used of the last block
	// long holds the strings of more than maxBlockString bytes, each its
	// own allocation; their records hold their index here.
	long     []string
	overflow map[string]internSlot
}

type internSlot struct {
	// h is the string's 32-bit hash, 0 for an empty slot (see hash). Its
	// high bits are the slot's index, so that growing the table moves
	// slots without reading their strings again.
	h uint32
	// loc is where the string's record is: its block's index times
	// maxInternBlock, plus its offset in the block.
	loc uint32
}

const (
	maxInternBlock = 1 << internBlockBits
	minInternBlock = 16 << 10
	maxBlockString = 256
	// recordHeader is the bytes of a record before the string's: its
	// number, then its length, or longRecord plus its index in long.
	recordHeader = 8
	longRecord   = 1 << 31
)

const (
	internInitial = 1 << 12
	maxProbe      = 64
	// internLimit is the strings of one generation: objects that recur
	// within some 16 000 others (a watch over 10 000 ConfigMaps, 3000
	// pods) keep their numbers, and the two generations keep at most
	// 2^15 strings, with their slots 512 KiB. The table is alive for
	// the whole read, beside the model being built, so a larger bound
	// is a larger share of analyze's peak memory on captures of many
	// distinct objects. An
	// object past the bound is found again by its uid (the timeline's
	// uid index), only slower.
	internLimit = 1 << 14
)

func newInternTable() *internTable {
	t := &internTable{seed: rand.Uint64() | 1, limit: internLimit}
	t.resize(internInitial)
	return t
}

// record returns the string whose record is at loc, and its number.
func (g *internGen) record(loc uint32) (string, uint32) {
	b := g.blocks[loc>>internBlockBits]
	off := int(loc & (maxInternBlock - 1))
	hdr := word.Load64(b, off)
	id, n := uint32(hdr), uint32(hdr>>32)
	switch {
	case n&longRecord != 0:
		return g.long[n&^longRecord], id
	case n == 0:
		return "", id
	}
	return unsafe.String(&b[off+recordHeader], n), id
}

// addRecord writes the record of s, numbered id, and returns where it
// is and the generation's copy of s, a view of the record's bytes.
// Under wasm, whose collector runs on the parser's thread, an
// allocation per string costs more than the rest of interning it: small
// strings share blocks. A string of more than maxBlockString bytes keeps
// its own memory (s itself, which must then not change).
func (g *internGen) addRecord(s string, id uint32) (uint32, string) {
	size := recordHeader + len(s)
	n := uint32(len(s))
	long := len(s) > maxBlockString
	if long {
		size, n = recordHeader, longRecord|uint32(len(g.long))
		g.long = append(g.long, s)
	}
	if len(g.blocks) == 0 || len(g.blocks[len(g.blocks)-1])-g.used < size {
		g.blocks = append(g.blocks, make([]byte, g.nextBlock()))
		g.used = 0
	}
	b := g.blocks[len(g.blocks)-1]
	off := g.used
	loc := g.writeHeader(len(g.blocks)-1, off, n, id)
	g.used += size
	switch {
	case long:
		return loc, s
	case len(s) == 0:
		return loc, ""
	}
	if unsafe.StringData(s) != &b[off+recordHeader] {
		// Else s was built in place (spare).
		copy(b[off+recordHeader:], s)
	}
	return loc, unsafe.String(&b[off+recordHeader], len(s))
}

// writeHeader writes the header of a record of n (its length, or
// longRecord and its index in long) numbered id at off in block, and
// returns the record's loc, as record reads them.
func (g *internGen) writeHeader(block, off int, n, id uint32) uint32 {
	binary.LittleEndian.PutUint64(g.blocks[block][off:], uint64(n)<<32|uint64(id))
	return uint32(block)<<internBlockBits | uint32(off)
}

// spare returns room for a string of up to n bytes, no more than
// maxBlockString, where the generation's next record would hold it: a
// string built there, looked up (bytesID) and added is not copied, and
// one found is left to be written over. An object's identity is built
// so: each new object's would be copied again, into memory written for
// the first time, which under wasm costs more than the bytes.
func (g *internGen) spare(n int) []byte {
	if len(g.blocks) == 0 || len(g.blocks[len(g.blocks)-1])-g.used < recordHeader+n {
		g.blocks = append(g.blocks, make([]byte, g.nextBlock()))
		g.used = 0
	}
	at := g.used + recordHeader
	return g.blocks[len(g.blocks)-1][at : at : at+n]
}

// nextBlock is the size of the generation's next block of records: the
// table's first of minInternBlock bytes, so that a small capture takes
// little, and the next ones of maxInternBlock (internBlockBits), where a
// capture holds more than a few hundred objects.
func (g *internGen) nextBlock() int {
	if len(g.blocks) == 0 {
		return minInternBlock
	}
	return maxInternBlock
}

// clearedOrNew is old cleared when it holds n, else a new slice of n.
func clearedOrNew[T any](old []T, n int) []T {
	if len(old) == n {
		clear(old)
		return old
	}
	return make([]T, n)
}

// age makes the current generation the one before, dropping the one
// before it, and starts an empty one as large, in the slots of the one
// dropped where they are as large: the strings it handed out live on in
// their blocks, but nothing reads its slots any more.
func (t *internTable) age() {
	old := t.prev
	cur := t.internGen
	t.prev = &cur
	var oldSlots []internSlot
	var oldTaken []uint64
	if old != nil {
		oldSlots, oldTaken = old.slots, old.taken
	}
	t.internGen = internGen{slots: clearedOrNew(oldSlots, len(cur.slots)), taken: clearedOrNew(oldTaken, len(cur.taken)), shift: cur.shift}
	if len(cur.blocks) > 0 {
		// The new generation goes on filling the last block, which
		// may be large (see internBlockBits).
		t.blocks, t.used = [][]byte{cur.blocks[len(cur.blocks)-1]}, cur.used
	}
}

// full says whether the current generation has no room for one more
// string: it holds limit, or is half full.
func (t *internTable) full() bool {
	return t.limit > 0 && t.n >= t.limit || 2*(t.n+1) > len(t.slots)
}

// room makes room for one more string in the current generation, where
// it is full: a new generation when it holds limit, else a larger table.
// It says whether it changed the slots.
func (t *internTable) room() bool {
	aged := false
	if t.limit > 0 && t.n >= t.limit {
		t.age()
		aged = true
	}
	if 2*(t.n+1) > len(t.slots) {
		t.resize(2 * len(t.slots))
		return true
	}
	return aged
}

func (g *internGen) resize(n int) {
	old := g.slots
	g.slots = make([]internSlot, n)
	g.taken = make([]uint64, (n+63)/64)
	g.shift = uint(32 - bits.TrailingZeros(uint(n)))
	g.n = 0
	ov := g.overflow
	g.overflow = nil
	for _, e := range old {
		if e.h != 0 {
			g.insert(e)
		}
	}
	for _, e := range ov {
		g.insert(e)
	}
}

// hash is hashBytes with the table's seed. The result is never 0, which
// marks an empty slot.
func (t *internTable) hash(b []byte) uint32 { return hashBytes(t.seed, b) }

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
	return t.probedID(b, t.probe(t.hash(b)))
}

// probedID is bytesID of b, whose probe p is, made since the table last
// changed: a caller that has other work to do between the two gives the
// reads of the probe, mostly cache misses for a new object's identity,
// that work's time to arrive.
func (t *internTable) probedID(b []byte, p internProbe) (string, uint32) {
	// A view of b, only compared, never kept: the copy is made only for a
	// string the table does not hold yet. One longer than a record holds
	// is kept as it is: a copy of its own.
	return t.lookup(unsafe.String(unsafe.SliceData(b), len(b)), p, len(b) > maxBlockString)
}

// string returns the table's copy of s, adding s.
func (t *internTable) string(s string) string {
	x, _ := t.lookup(s, t.probe(t.hashString(s)), false)
	return x
}

// internProbe is the first slot of each generation's probe for a string
// whose hash is h (an empty one where there is no generation before).
type internProbe struct {
	h         uint32
	cur, prev internSlot
}

// probe reads the slots where the probes for a string whose hash is h
// start, one after the other, so that the two reads overlap.
func (t *internTable) probe(h uint32) internProbe {
	p := internProbe{h: h, cur: t.first(h)}
	if t.prev != nil {
		p.prev = t.prev.first(h)
	}
	return p
}

// first returns the slot where the probe for a string whose hash is h
// starts, read only where it is taken.
func (g *internGen) first(h uint32) internSlot {
	if i := h >> g.shift; g.taken[i>>6]&(1<<(i&63)) != 0 {
		return g.slots[i]
	}
	return internSlot{}
}

// put writes e into slot i, which was free.
func (g *internGen) put(i int, e internSlot) {
	g.slots[i] = e
	g.taken[i>>6] |= 1 << (i & 63)
	g.n++
}

// lookup returns the table's copy of s, whose probe p is, and its
// number: the current generation's; else the one before's, copied into
// the current one with its number, so that the one before holds nothing
// the table still hands out once it is dropped; else s, or a copy of it
// with clone, added. A generation's probe that starts at an empty slot
// ends there: s is then in its overflow map if anywhere, and the slot is
// the one it takes.
func (t *internTable) lookup(s string, p internProbe, clone bool) (string, uint32) {
	h := p.h
	free := int(h >> t.shift)
	if p.cur.h != 0 || t.overflow != nil {
		var x string
		var id uint32
		var ok bool
		if x, id, free, ok = t.find(h, s); ok {
			return x, id
		}
	}
	if t.prev != nil && (p.prev.h != 0 || t.prev.overflow != nil) {
		if x, id, _, ok := t.prev.find(h, s); ok {
			return t.add(h, x, id, free), id
		}
	}
	if clone {
		s = strings.Clone(s)
	}
	t.ids++
	return t.add(h, s, t.ids, free), t.ids
}

// find returns the generation's copy of s, whose hash is h, and its
// number; where it has none, free is the free slot that ended the probe,
// the one s would take, or -1.
func (g *internGen) find(h uint32, s string) (x string, id uint32, free int, ok bool) {
	mask := len(g.slots) - 1
	i := int(h >> g.shift)
	free = -1
	for p := 0; p < maxProbe; p++ {
		e := g.slots[i]
		if e.h == 0 {
			free = i
			break
		}
		if e.h == h {
			if x, id := g.record(e.loc); equalStrings(x, s) {
				return x, id, 0, true
			}
		}
		i = (i + 1) & mask
	}
	// The map is mostly nil, where a lookup is still a call.
	if g.overflow != nil {
		if e, ok := g.overflow[s]; ok {
			x, id := g.record(e.loc)
			return x, id, 0, true
		}
	}
	return "", 0, free, false
}

// add adds s, whose hash is h, numbered id, to the current generation,
// making room for it, and returns the generation's copy. free is the
// slot where the probe for s ended (-1 for none), which s takes unless
// making room moved the slots: a new object is probed for once.
func (t *internTable) add(h uint32, s string, id uint32, free int) string {
	// The test is apart from room, which is seldom called.
	moved := t.full() && t.room()
	var loc uint32
	x := s
	// A string built in the spare room of the last block (spare), as a
	// new object's identity is, has its header written before it here,
	// without addRecord's call and checks, which every new object would
	// pass through.
	if n, last := len(s), len(t.blocks)-1; n > 0 && n <= maxBlockString && last >= 0 &&
		t.used+recordHeader+n <= len(t.blocks[last]) && unsafe.StringData(s) == &t.blocks[last][t.used+recordHeader] {
		loc = t.writeHeader(last, t.used, uint32(n), id)
		t.used += recordHeader + n
	} else {
		loc, x = t.addRecord(s, id)
	}
	if e := (internSlot{h: h, loc: loc}); moved || free < 0 {
		t.insert(e)
	} else {
		t.put(free, e)
	}
	return x
}

// insert adds e, which is in neither the slots nor the overflow map.
func (g *internGen) insert(e internSlot) {
	mask := len(g.slots) - 1
	i := int(e.h >> g.shift)
	for p := 0; p < maxProbe; p++ {
		if g.slots[i].h == 0 {
			g.put(i, e)
			return
		}
		i = (i + 1) & mask
	}
	if g.overflow == nil {
		g.overflow = make(map[string]internSlot)
	}
	s, _ := g.record(e.loc)
	g.overflow[s] = e
}
