package parser

import (
	"unsafe"

	"watchlens/internal/word"
)

// wholePostFirst says whether managedEntry compares the whole of an
// entry's remembered bytes after its time before their parts: under wasm
// it does not, for where they differ in the fieldsV1 (a pod's kubelet
// entry) skipMemo compares that value again.
const wholePostFirst = false

// equalBytes is bytes.Equal 32 bytes at a time, written in assembly
// (equal_wasm.s): under wasm, bytes.Equal compares one byte at a time,
// and Go's own loop of words goes through the function's dispatch table
// at each turn; the fieldsV1 it compares are a third of a pod event, and
// it compares every small event's envelope and identity.
//
//go:noescape
func equalBytes(a, b []byte) bool

// equalStrings is a == b with equalBytes: the runtime's comparison, too,
// goes a byte at a time under wasm, and the intern table compares each
// object's identity (uid, name and namespace, some 60 bytes) with its copy.
func equalStrings(a, b string) bool {
	return len(a) == len(b) && equalBytes(unsafe.Slice(unsafe.StringData(a), len(a)), unsafe.Slice(unsafe.StringData(b), len(b)))
}

// equalRuns returns how many of the first n bytes of a and b, n at most
// the length of either, are equal in whole runs of 32, four words at a
// time in one loop: a call of equalBytes for each run costs more than
// its comparison, and a pod's fieldsV1 values share runs of kilobytes
// with the last one's (commonPrefix).
func equalRuns(a, b []byte, n int) int {
	i := 0
	for i+32 <= n && word.Load64(a, i) == word.Load64(b, i) && word.Load64(a, i+8) == word.Load64(b, i+8) &&
		word.Load64(a, i+16) == word.Load64(b, i+16) && word.Load64(a, i+24) == word.Load64(b, i+24) {
		i += 32
	}
	return i
}

// equalShort reports whether k, of 8 to 16 bytes, equals name, of as
// many, by the words at their starts and at their ends, which between
// them cover the bytes: the runtime's comparison goes a byte at a time.
func equalShort(k []byte, name string) bool {
	n, e := unsafe.Slice(unsafe.StringData(name), len(name)), len(k)-8
	return word.Load64(k, 0) == word.Load64(n, 0) && word.Load64(k, e) == word.Load64(n, e)
}
