package canvas

import (
	"encoding/binary"
	"math"
)

// SetFloats sets the frame's coordinates from b, little-endian float32s
// as Floats writes them: a frame built elsewhere (in the engine's
// worker) and sent as its spec and floats is read back whole.
func (f *Frame) SetFloats(b []byte) {
	n := len(b) / 4
	f.floats = f.floats[:0]
	for i := range n {
		f.floats = append(f.floats, math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
}
