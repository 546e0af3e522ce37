package timeline

import (
	"bytes"
	"hash/maphash"
)

// uidIndex finds the lanes of the file being read by uid. It is an
// open-addressing table of lane numbers, and holds no uid: each is read
// from the lane table, where a UUID is its 16 bytes. (It held each
// lane's uid as the parser gave it, which kept the parser's copy of every
// object's uid, name and namespace alive for as long as the file was
// read: with millions of distinct objects, more than the lanes
// themselves.) A uid's key is what the lane table keeps of it, so that
// the table is hashed without making text again.
type uidIndex struct {
	slots []int32 // 1 + a lane of the file, 0 for an empty slot; a power of two long, at most half full
	used  int
	seed  maphash.Seed
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

func (x *uidIndex) hash(key []byte, packed bool) int {
	h := maphash.Bytes(x.seed, key)
	if packed {
		h = ^h
	}
	return int(h)
}

// add enters lane k of the file (lane lo+k of ls), whose uid is uid ("" for
// a lane found by name, which is not entered).
func (x *uidIndex) add(ls *Lanes, lo int, k int32, uid string) {
	if uid == "" {
		return
	}
	if 2*(x.used+1) > len(x.slots) {
		x.grow(ls, lo)
	}
	var buf [uuidBytes]byte
	x.put(x.hash(uidKey(buf[:], uid)), k)
	x.used++
}

// find returns the file's lane with uid, if any.
func (x *uidIndex) find(ls *Lanes, lo int, uid string) (int32, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	var buf [uuidBytes]byte
	key, packed := uidKey(buf[:], uid)
	mask := len(x.slots) - 1
	for i := x.hash(key, packed) & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return 0, false
		}
		if k, p := ls.uidKey(lo + int(s-1)); p == packed && bytes.Equal(k, key) {
			return s - 1, true
		}
	}
}

// put places lane k, whose key hashes to h, in the first free slot from
// h's.
func (x *uidIndex) put(h int, k int32) {
	mask := len(x.slots) - 1
	i := h & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = k + 1
}

// grow doubles the table and places its lanes again, their keys read
// from ls.
func (x *uidIndex) grow(ls *Lanes, lo int) {
	old := x.slots
	if len(old) == 0 {
		x.seed = maphash.MakeSeed()
	}
	x.slots = make([]int32, max(2*len(old), uidSlotsMin))
	for _, s := range old {
		if s != 0 {
			x.put(x.hash(ls.uidKey(lo+int(s-1))), s-1)
		}
	}
}
