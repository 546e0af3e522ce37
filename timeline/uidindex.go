package timeline

import "hash/maphash"

// uidIndex finds the lanes of the file being read by uid. It holds each
// lane's uid as the parser gave it (the parser interns them, so an event
// of a known object compares pointers, not the 36 bytes the lane table
// keeps packed) and an open-addressing table of lane numbers: where a
// map[string]int32 costs some 50 bytes an object while a capture is
// read, these cost 16 for the uid and 8 to 16 for the table.
type uidIndex struct {
	uids  []string // by lane, from the file's first; "" for none
	slots []int32  // 1 + a lane of uids, 0 for an empty slot; a power of two long, at most half full
	used  int
	seed  maphash.Seed
}

// uidSlotsMin is the table's first size: small, for a split capture
// reads thousands of virtual clients of a few objects each.
const uidSlotsMin = 16

// uid is the uid of the file's lane k.
func (x *uidIndex) uid(k int32) string { return x.uids[k] }

// add appends the file's next lane, whose uid is uid ("" for a lane
// found by name).
func (x *uidIndex) add(uid string) {
	k := int32(len(x.uids))
	x.uids = append(x.uids, uid)
	if uid == "" {
		return
	}
	if 2*(x.used+1) > len(x.slots) {
		x.grow()
	}
	x.put(uid, k)
	x.used++
}

// find returns the file's lane with uid, if any.
func (x *uidIndex) find(uid string) (int32, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	mask := len(x.slots) - 1
	for i := int(maphash.String(x.seed, uid)) & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return 0, false
		}
		if x.uids[s-1] == uid {
			return s - 1, true
		}
	}
}

// put places lane k, whose uid is uid, in the first free slot from its
// hash's.
func (x *uidIndex) put(uid string, k int32) {
	mask := len(x.slots) - 1
	i := int(maphash.String(x.seed, uid)) & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = k + 1
}

// grow doubles the table and places its lanes again.
func (x *uidIndex) grow() {
	old := x.slots
	if len(old) == 0 {
		x.seed = maphash.MakeSeed()
	}
	x.slots = make([]int32, max(2*len(old), uidSlotsMin))
	for _, s := range old {
		if s != 0 {
			x.put(x.uids[s-1], s-1)
		}
	}
}
