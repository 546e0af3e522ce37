package engine

import (
	"encoding/binary"
	"errors"
	"math"
)

// A frame's answer carries its Drawn in binary, as canvas.Layout's
// AppendBinary says why: its rows as a varint and its scroll as 8
// little-endian bytes, then the layout.

// AppendBinary appends d's binary form to b (encoding.BinaryAppender).
func (d Drawn) AppendBinary(b []byte) ([]byte, error) {
	b = binary.AppendVarint(b, int64(d.Rows))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(d.ScrollY))
	return d.Layout.AppendBinary(b)
}

// UnmarshalBinary reads what AppendBinary wrote into d (encoding.
// BinaryUnmarshaler); the layout's labels that are d's own share their
// strings (canvas.Layout.UnmarshalBinary).
func (d *Drawn) UnmarshalBinary(data []byte) error {
	rows, n := binary.Varint(data)
	if n <= 0 || rows != int64(int(rows)) || len(data)-n < 8 {
		return errBinaryDrawn
	}
	d.Rows = int(rows)
	d.ScrollY = math.Float64frombits(binary.LittleEndian.Uint64(data[n:]))
	return d.Layout.UnmarshalBinary(data[n+8:])
}

var errBinaryDrawn = errors.New("engine: a frame's binary Drawn is cut short")
