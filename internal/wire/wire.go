// Package wire writes and reads the binary form of the values that cross
// between the page and the engine's worker with every frame, pans'
// included: a frame's question (engine.ViewState) and its layout
// (canvas.Layout); the page reads with it too what web/timeline.js
// measures of a canvas's stage for a frame, five floats. As JSON, their
// reflection-driven encoding and decoding were a good part of a frame's
// time as wasm. A value's binary
// form is its fields in order: floats as their 8 little-endian bytes
// (exact, as JSON's are), integers as varints, strings by their length,
// booleans as a byte.
package wire

import (
	"encoding/binary"
	"math"
)

// AppendFloats appends each of fs.
func AppendFloats(b []byte, fs ...float64) []byte {
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	return b
}

// AppendString appends s, its length first.
func AppendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// AppendBool appends v as a byte, 1 or 0.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// Reader reads the fields the Append functions and encoding/binary's
// AppendUvarint and AppendVarint append, in order. A field past the end,
// or a malformed one, reads as zero, and Done then says false.
type Reader struct {
	b   []byte
	i   int
	bad bool
}

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Left is how many bytes are left to read.
func (r *Reader) Left() int { return len(r.b) - r.i }

// Done says whether every field was read whole, and nothing is left.
func (r *Reader) Done() bool { return !r.bad && r.i == len(r.b) }

// Uvarint reads an encoding/binary uvarint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.i += n
	return v
}

// Varint reads an encoding/binary varint: a uvarint, zig-zag encoded.
func (r *Reader) Varint() int64 {
	u := r.Uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// Int reads a varint that fits an int.
func (r *Reader) Int() int {
	v := r.Varint()
	if v != int64(int(v)) {
		r.bad = true
		return 0
	}
	return int(v)
}

// Floats reads a float into each of fs.
func (r *Reader) Floats(fs ...*float64) {
	for _, f := range fs {
		if len(r.b)-r.i < 8 {
			r.bad = true
			return
		}
		*f = math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.i:]))
		r.i += 8
	}
}

// Bool reads a bool; a byte other than 0 and 1 is malformed.
func (r *Reader) Bool() bool {
	if r.i >= len(r.b) || r.b[r.i] > 1 {
		r.bad = true
		return false
	}
	r.i++
	return r.b[r.i-1] == 1
}

// String reads a string, like itself when its bytes are like's: a value
// read again with the same strings allocates none.
func (r *Reader) String(like string) string {
	n := r.Uvarint()
	if n > uint64(len(r.b)-r.i) {
		r.bad = true
		return ""
	}
	s := r.b[r.i : r.i+int(n)]
	r.i += int(n)
	if string(s) == like {
		return like
	}
	return string(s)
}
