package word

import "unsafe"

// Load64 is binary.LittleEndian.Uint64(b[i:]) for a caller that has made
// sure of i+8 <= len(b). Go's wasm code checks the bounds of the slicing
// and of the load: in the parser's loops that take eight bytes at a time
// the checks take most of the time, and the timeline's packed columns
// read every value this way.
func Load64(b []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}
