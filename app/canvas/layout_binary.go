package canvas

import (
	"encoding/binary"
	"errors"
	"math"
)

// A layout crosses from the engine's worker to the page with every
// frame, pans' included. As JSON, for a timeline of many files
// (samples-fleet's 52: 10 KB folded, 53 KB unfolded), its
// reflection-driven encoding and decoding took 0.7 and 4.6 ms a frame as
// wasm, and its code the browser compiled optimised during the user's
// first gestures. Its binary form is its fields in order:
// floats as their 8 little-endian bytes (exact, as JSON's are), integers
// as varints, strings by their length, booleans as a byte.

// AppendBinary appends l's binary form to b (encoding.BinaryAppender).
func (l Layout) AppendBinary(b []byte) ([]byte, error) {
	b = appendFloats(b, l.Width, l.Height, l.PlotX, l.PlotW, l.LanesY, l.LanesH, l.ContentH)
	b = binary.AppendUvarint(b, l.CursorTop)
	b = binary.AppendUvarint(b, l.CursorBot)
	b = binary.AppendVarint(b, int64(l.FilesNotDrawn))
	b = appendBool(b, l.LabelsOver)
	b = binary.AppendUvarint(b, uint64(len(l.Bands)))
	for i := range l.Bands {
		d := &l.Bands[i]
		b = binary.AppendVarint(b, int64(d.ID))
		b = appendFloats(b, d.Y, d.Height)
		b = appendString(b, d.Label)
		b = appendString(b, d.Short)
		b = binary.AppendVarint(b, int64(d.File))
		b = binary.AppendUvarint(b, d.RVTop)
		b = binary.AppendUvarint(b, d.RVBot)
		b = appendBool(b, d.Folded)
		b = binary.AppendVarint(b, int64(d.Track))
	}
	return b, nil
}

// UnmarshalBinary reads what AppendBinary wrote into l (encoding.
// BinaryUnmarshaler). The bands are a new slice; a band's label that is
// the one l's band at the same index had shares its string, so that a
// pan's frames, which name the same bands, allocate no labels.
func (l *Layout) UnmarshalBinary(data []byte) error {
	r := binaryReader{b: data}
	was := l.Bands
	*l = Layout{}
	r.floats(&l.Width, &l.Height, &l.PlotX, &l.PlotW, &l.LanesY, &l.LanesH, &l.ContentH)
	l.CursorTop, l.CursorBot = r.uvarint(), r.uvarint()
	l.FilesNotDrawn = r.int()
	l.LabelsOver = r.bool()
	n := r.uvarint()
	// A band takes at least 24 bytes: a count past what is left is
	// corrupt, and must not size an allocation.
	if n > uint64(len(r.b)-r.i)/24 {
		return errBinaryLayout
	}
	l.Bands = make([]Band, n)
	for i := range l.Bands {
		d := &l.Bands[i]
		var like Band
		if i < len(was) {
			like = was[i]
		}
		d.ID = BandID(r.int())
		r.floats(&d.Y, &d.Height)
		d.Label = r.string(like.Label)
		d.Short = r.string(like.Short)
		d.File = r.int()
		d.RVTop, d.RVBot = r.uvarint(), r.uvarint()
		d.Folded = r.bool()
		d.Track = r.int()
	}
	if r.bad || r.i != len(r.b) {
		return errBinaryLayout
	}
	return nil
}

var errBinaryLayout = errors.New("canvas: a layout's binary form is cut short or corrupt")

func appendFloats(b []byte, fs ...float64) []byte {
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// binaryReader reads the fields AppendBinary appends, in order; a field
// past the end, or a malformed one, reads as zero and sets bad.
type binaryReader struct {
	b   []byte
	i   int
	bad bool
}

func (r *binaryReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.i += n
	return v
}

func (r *binaryReader) int() int {
	v, n := binary.Varint(r.b[r.i:])
	if n <= 0 || v != int64(int(v)) {
		r.bad = true
		return 0
	}
	r.i += n
	return int(v)
}

func (r *binaryReader) floats(fs ...*float64) {
	for _, f := range fs {
		if len(r.b)-r.i < 8 {
			r.bad = true
			return
		}
		*f = math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.i:]))
		r.i += 8
	}
}

func (r *binaryReader) bool() bool {
	if r.i >= len(r.b) || r.b[r.i] > 1 {
		r.bad = true
		return false
	}
	r.i++
	return r.b[r.i-1] == 1
}

// string reads a string, like itself when its bytes are like's.
func (r *binaryReader) string(like string) string {
	n := r.uvarint()
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
