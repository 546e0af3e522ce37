//go:build wasm

package canvas

import "unsafe"

// FloatBytes is what Floats writes, without writing it: wasm's memory is
// little-endian, so the frame's float32s already are the bytes
// web/timeline.js reads, and a frame handed to JavaScript (the engine's
// worker copies each into the Uint8Array it posts) needs no buffer of
// its own, nor the loop that fills one. The bytes are the frame's, valid
// until it is built again; it answers their count of floats too.
func (f *Frame) FloatBytes() ([]byte, int) {
	n := len(f.floats)
	if n == 0 {
		return nil, 0
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(f.floats))), 4*n), n
}
