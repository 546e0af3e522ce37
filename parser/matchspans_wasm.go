package parser

// matchSpans reads b from i as the template tb whose strings are spans
// (templateSpan): the bytes around them must be tb's, and each string ends
// at its quote, found as the walk finds it (a string the walk skips may
// hold escapes, passed over as stringEnd does; one it reads may not, nor
// may any hold a raw line end). Each string's start and end in b go into
// found at its span's slot, two ints a slot; the result is where the template ends in b, or -1
// where it does not fit. It is written in assembly (matchspans_wasm.s): Go's
// wasm code goes through a function's dispatch table at each turn of a
// loop and keeps most of its variables in memory, and this loop was most
// of the time of reading a small event's metadata.
//
//go:noescape
func matchSpans(b []byte, i int, tb []byte, spans []uint64, found []int) int
