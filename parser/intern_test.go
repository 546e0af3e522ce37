package parser

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestInternTableBounded: the table holds two generations of at most
// limit strings each, however many distinct strings it is given; a string
// that recurs within them keeps its number, one seen again after longer
// gets a new one, and no two strings ever share a number.
func TestInternTableBounded(t *testing.T) {
	const limit = 1000
	tab := newInternTable()
	tab.limit = limit
	hot, hotID := tab.bytesID([]byte("kind=ConfigMap"))
	first, firstID := tab.bytesID([]byte("00000000-0000-4ec7-b3fb-ba14635341da/state-0/team-0"))
	owner := map[uint32]string{hotID: hot, firstID: first}
	last := firstID
	for i := 1; i < 100_000; i++ {
		s, id := tab.bytesID(fmt.Appendf(nil, "%08x-0000-4ec7-b3fb-ba14635341da/state-%d/team-%d", i, i, i%13))
		if id <= last || owner[id] != "" {
			t.Fatalf("string %d numbered %d after %d (%q)", i, id, last, owner[id])
		}
		owner[id], last = s, id
		if i%100 == 0 {
			if s, id := tab.bytesID([]byte("kind=ConfigMap")); id != hotID || s != hot {
				t.Fatalf("after %d strings the recurring one is %q, numbered %d, not %d", i, s, id, hotID)
			}
		}
		if held := tab.n + tab.prev.heldOrZero(); held > 2*limit {
			t.Fatalf("after %d strings the table holds %d, over two generations of %d", i, held, limit)
		}
		if i%997 == 0 {
			for _, g := range []*internGen{&tab.internGen, tab.prev} {
				if g != nil && !g.takenAgrees() {
					t.Fatalf("after %d strings a generation's taken bits differ from its slots", i)
				}
			}
		}
	}
	again, id := tab.bytesID([]byte("00000000-0000-4ec7-b3fb-ba14635341da/state-0/team-0"))
	if again != first || id <= firstID || owner[id] != "" {
		t.Errorf("a string seen again after 100 000 others is %q numbered %d (first %d, then %q's)", again, id, firstID, owner[id])
	}
	for id, s := range owner {
		if want := s; len(want) == 0 || (id != hotID && want[8] != '-') {
			t.Fatalf("number %d holds %q: a copy lost its bytes", id, s)
		}
	}
}

// takenAgrees says whether the bits of g.taken are set exactly for the
// slots that hold a string.
func (g *internGen) takenAgrees() bool {
	for i, e := range g.slots {
		if (e.h != 0) != (g.taken[i/64]&(1<<(i%64)) != 0) {
			return false
		}
	}
	return true
}

// heldOrZero is how many strings generation g holds, 0 when there is none.
func (g *internGen) heldOrZero() int {
	if g == nil {
		return 0
	}
	return g.n
}

// TestInternTable checks that each string has one copy and one number,
// across growth and in the overflow map that takes what finds no free
// slot, and that the copies, which small strings share blocks for, keep
// their bytes while the bytes they were made from are written over.
func TestInternTable(t *testing.T) {
	tab := newInternTable()
	tab.limit = 0 // one generation: every string keeps its one copy
	first := map[string]string{}
	idOf := map[string]uint32{}
	owner := map[uint32]string{}
	var buf []byte
	check := func(s string) {
		t.Helper()
		buf = append(buf[:0], s...)
		got, id := tab.bytesID(buf)
		if got != s {
			t.Fatalf("bytes(%q) = %q", s, got)
		}
		if c, ok := first[s]; ok {
			if unsafe.StringData(c) != unsafe.StringData(got) {
				t.Fatalf("%q: a second copy", s)
			}
			if c2 := tab.string(s); unsafe.StringData(c2) != unsafe.StringData(c) {
				t.Fatalf("string(%q): a second copy", s)
			}
			if id != idOf[s] {
				t.Fatalf("%q: numbered %d, then %d", s, idOf[s], id)
			}
			return
		}
		if o, ok := owner[id]; ok || id == 0 {
			t.Fatalf("%q numbered %d, the number of %q", s, id, o)
		}
		first[s], idOf[s], owner[id] = got, id, s
	}
	for round := range 2 {
		for i := range 3 * internInitial {
			check(fmt.Sprintf("%08x-%04x-4ec7-b3fb-ba14635341da", i, round))
			check(fmt.Sprint(i))
		}
		check("")
		check(string(make([]byte, maxBlockString+1)))
	}
	for s, c := range first {
		if c != s {
			t.Fatalf("the copy of %q holds %q", s, c)
		}
	}
	if tab.overflow != nil {
		t.Fatalf("%d strings in the overflow map", len(tab.overflow))
	}

	// Fill every slot, as a flood of collisions would:
	// new strings go to the overflow map, and keep one copy through a
	// resize.
	full := &internTable{seed: 1}
	full.resize(2 * maxProbe)
	for i := range full.slots {
		loc, _ := full.addRecord(fmt.Sprint("filler", i), 0)
		// Written without counting them, so that the table does not
		// grow before the next string is added.
		full.slots[i] = internSlot{h: uint32(i)<<full.shift | 1, loc: loc}
		full.taken[i/64] |= 1 << (i % 64)
	}
	a, aID := full.bytesID([]byte("a"))
	if again, id := full.bytesID([]byte("a")); full.overflow["a"] == (internSlot{}) || unsafe.StringData(again) != unsafe.StringData(a) || id != aID {
		t.Fatalf("overflow %v", full.overflow)
	}
	full.resize(4 * len(full.slots))
	if again, id := full.bytesID([]byte("a")); full.overflow != nil || unsafe.StringData(again) != unsafe.StringData(a) || id != aID {
		t.Fatal("a lost its copy or its number in the resize")
	}
}

// TestInternTableSpare: a string built in the table's spare room, as an
// object's identity is (probeIdentity), is added where it was built, not
// copied, through growth and aging; one the table holds already is
// found, its spare room left for the next; and the strings added keep
// their bytes and numbers while later ones are built after them.
func TestInternTableSpare(t *testing.T) {
	tab := newInternTable()
	tab.limit = 3000
	build := func(s string) []byte { return append(tab.spare(len(s)), s...) }
	got := map[string]string{}
	idOf := map[string]uint32{}
	owner := map[uint32]string{}
	for i := range 20_000 {
		s := fmt.Sprintf("%08x-91ab-4cde-8f01-23456789abcd/svc-%d/team-%d", i, i, i%13)
		b := build(s)
		c, id := tab.bytesID(b)
		if c != s || unsafe.StringData(c) != unsafe.SliceData(b) {
			t.Fatalf("string %d: %q, built at %p, is %q at %p", i, s, unsafe.SliceData(b), c, unsafe.StringData(c))
		}
		if o, ok := owner[id]; ok || id == 0 {
			t.Fatalf("%q numbered %d, the number of %q", s, id, o)
		}
		got[s], idOf[s], owner[id] = c, id, s
		if i%7 == 0 {
			// One added before, built again: found where the current
			// generation holds it, its spare room left for the next
			// string; copied into the current one, number and all,
			// from the one before; added again, with a new number, once
			// dropped.
			r := fmt.Sprintf("%08x-91ab-4cde-8f01-23456789abcd/svc-%d/team-%d", i/2, i/2, i/2%13)
			b := build(r)
			c, id := tab.bytesID(b)
			switch {
			case c != r:
				t.Fatalf("%q built again is %q", r, c)
			case unsafe.StringData(c) == unsafe.StringData(got[r]):
				if id != idOf[r] {
					t.Fatalf("%q built again is numbered %d, not %d", r, id, idOf[r])
				}
				if next := tab.spare(1); unsafe.SliceData(next[:1]) != unsafe.SliceData(b[:1]) {
					t.Fatalf("the spare room of %q, found, was not left for the next string", r)
				}
			case id == idOf[r]:
				got[r] = c
			default:
				if o, ok := owner[id]; ok {
					t.Fatalf("%q added again numbered %d, the number of %q", r, id, o)
				}
				got[r], idOf[r], owner[id] = c, id, r
			}
		}
	}
	for s, c := range got {
		if c != s {
			t.Fatalf("the copy of %q holds %q", s, c)
		}
	}
}
