package parser

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestInternTable checks that each string has one copy, across growth and
// in the overflow map that takes what finds no free slot.
func TestInternTable(t *testing.T) {
	tab := newInternTable()
	first := map[string]string{}
	check := func(s string) {
		t.Helper()
		got := tab.bytes([]byte(s))
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
			return
		}
		first[s] = got
	}
	for round := range 2 {
		for i := range 3 * internInitial {
			check(fmt.Sprintf("%08x-%04x-4ec7-b3fb-ba14635341da", i, round))
			check(fmt.Sprint(i))
		}
		check("")
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
		full.slots[i] = internSlot{h: uint32(i)<<full.shift | 1, s: fmt.Sprint("filler", i)}
	}
	a := full.bytes([]byte("a"))
	if full.overflow["a"] != "a" || unsafe.StringData(full.bytes([]byte("a"))) != unsafe.StringData(a) {
		t.Fatalf("overflow %v", full.overflow)
	}
	full.resize(4 * len(full.slots))
	if full.overflow != nil || unsafe.StringData(full.string("a")) != unsafe.StringData(a) {
		t.Fatal("a lost its copy in the resize")
	}
}
