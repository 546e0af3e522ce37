package timeline

import (
	"math/rand/v2"

	"watchlens/internal/word"
)

// uidIndex finds the lanes of the file being read by uid. It is an
// open-addressing table of lane numbers, and holds no uid: each is read
// from the lane table, where a UUID is its 16 bytes. (It held each
// lane's uid as the parser gave it, which kept the parser's copy of every
// object's uid, name and namespace alive for as long as the file was
// read: with millions of distinct objects, more than the lanes
// themselves.) A uid's key is what the lane table keeps of it, so that
// the table is hashed without making text again.
//
// A new object's uid is looked up, not found, and entered: find gives
// the key's hash, which add takes, so each new uid is hashed once (and
// its key, made once, is what the lane table keeps). The
// hash is a few 64-bit multiplications a word, seeded per table: under
// wasm, hash/maphash's takes 128-bit products the runtime emulates, and
// with small events, most of them of new objects (core/v1 Events), it
// was most of finding a lane.
type uidIndex struct {
	slots []uidSlot // a power of two long, at most half full
	used  int
	seed  uint64
}

// uidSlot is a slot of the table: a lane and the low 32 bits of its
// key's hash. A probe reads the lane's key only when the hash matches, so
// that a new uid's lookup (core/v1 Events': nearly every event's) reads
// no lanes, and growing places each lane again without reading its key
// (a table is never 2^32 slots long). The two sit side by side: a new
// uid's probe of a large table is mostly a cache miss, and one cache
// line holds both.
type uidSlot struct {
	lane int32 // 1 + a lane of the file, 0 for an empty slot
	hash uint32
}

// uidSlotsMin is the table's first size: small, for a split capture
// reads thousands of virtual clients of a few objects each.
const uidSlotsMin = 16

// uidKey is the key of uid: its 16 bytes when it is a UUID in its
// canonical text, else its text; buf has room for the 16.
func uidKey(buf []byte, uid string) (key []byte, packed bool) {
	if b, ok := appendUUID(buf[:0], uid); ok {
		return b, true
	}
	return []byte(uid), false
}

// hash mixes key eight bytes at a time. A packed key and a text one
// of the same bytes hash apart, as they are different uids.
func (x *uidIndex) hash(key []byte, packed bool) uint64 {
	if x.seed == 0 {
		x.seed = rand.Uint64() | 1
	}
	h := x.seed ^ uint64(len(key))*word.Mul1
	if packed {
		h = ^h
	}
	h = word.Mix(h, key)
	h ^= h >> 33
	h *= word.Mul1
	h ^= h >> 33
	return h
}

// add enters the file's lane k, whose uid is uid ("" for a lane found by
// name, which is not entered) and whose key hashes to h, as find gave it.
func (x *uidIndex) add(k int32, uid string, h uint64) {
	if uid == "" {
		return
	}
	if 2*(x.used+1) > len(x.slots) {
		x.grow()
	}
	x.put(h, k)
	x.used++
}

// find returns the file's lane whose uid's key (uidKey) is key, if any,
// and the hash of key, which add takes.
func (x *uidIndex) find(ls *Lanes, lo int, key []byte, packed bool) (int32, bool, uint64) {
	h := x.hash(key, packed)
	if len(x.slots) == 0 {
		return 0, false, h
	}
	mask := uint64(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		i = x.probe(i, uint32(h))
		s := x.slots[i].lane
		if s == 0 {
			return 0, false, h
		}
		if k, p := ls.uidKey(lo + int(s-1)); p == packed && equalKeys(k, key) {
			return s - 1, true, h
		}
	}
}

// probe returns the first slot from i that is empty or holds a lane
// whose key's hash has low bits h. It makes no call, and is kept out of
// find, whose loop compares keys: as wasm a loop that makes any call,
// even on a branch rarely taken, is several times slower (see
// clearWalk.walk), and a new uid's lookup probes and compares none.
//
//go:noinline
func (x *uidIndex) probe(i uint64, h uint32) uint64 {
	slots := x.slots
	mask := uint64(len(slots) - 1)
	for slots[i].lane != 0 && slots[i].hash != h {
		i = (i + 1) & mask
	}
	return i
}

// equalKeys is bytes.Equal, a word at a time: under wasm bytes.Equal
// compares a byte at a time, and most keys are 16 bytes.
func equalKeys(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for ; i+8 <= len(a); i += 8 {
		if word.Load64(a, i) != word.Load64(b, i) {
			return false
		}
	}
	for ; i < len(a); i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// put places lane k, whose key hashes to h, in the first free slot from
// h's.
func (x *uidIndex) put(h uint64, k int32) {
	mask := uint64(len(x.slots) - 1)
	i := h & mask
	for x.slots[i].lane != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = uidSlot{lane: k + 1, hash: uint32(h)}
}

// grow doubles the table and places its lanes again, by their hashes.
func (x *uidIndex) grow() {
	old := x.slots
	x.slots = make([]uidSlot, max(2*len(old), uidSlotsMin))
	for _, s := range old {
		if s.lane != 0 {
			x.put(uint64(s.hash), s.lane-1)
		}
	}
}
