package canvas

import (
	"encoding/binary"
	"errors"

	"watchlens/internal/wire"
)

// A layout crosses from the engine's worker to the page with every
// frame, pans' included. As JSON, for a timeline of many files
// (samples-fleet's 52: 10 KB folded, 53 KB unfolded), its
// reflection-driven encoding and decoding took 0.7 and 4.6 ms a frame as
// wasm, and its code the browser compiled optimised during the user's
// first gestures. Its binary form is package wire's: its fields in
// order.

// AppendBinary appends l's binary form to b (encoding.BinaryAppender).
func (l Layout) AppendBinary(b []byte) ([]byte, error) {
	b = wire.AppendFloats(b, l.Width, l.Height, l.PlotX, l.PlotW, l.LanesY, l.LanesH, l.ContentH)
	b = binary.AppendUvarint(b, l.CursorTop)
	b = binary.AppendUvarint(b, l.CursorBot)
	b = binary.AppendVarint(b, int64(l.FilesNotDrawn))
	b = wire.AppendBool(b, l.LabelsOver)
	b = binary.AppendUvarint(b, uint64(len(l.Bands)))
	for i := range l.Bands {
		d := &l.Bands[i]
		b = binary.AppendVarint(b, int64(d.ID))
		b = wire.AppendFloats(b, d.Y, d.Height)
		b = wire.AppendString(b, d.Label)
		b = wire.AppendString(b, d.Short)
		b = binary.AppendVarint(b, int64(d.File))
		b = binary.AppendUvarint(b, d.RVTop)
		b = binary.AppendUvarint(b, d.RVBot)
		b = wire.AppendBool(b, d.Folded)
		b = binary.AppendVarint(b, int64(d.Track))
	}
	return b, nil
}

// UnmarshalBinary reads what AppendBinary wrote into l (encoding.
// BinaryUnmarshaler). The bands are a new slice; a band's label that is
// the one l's band at the same index had shares its string, so that a
// pan's frames, which name the same bands, allocate no labels.
func (l *Layout) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	was := l.Bands
	*l = Layout{}
	r.Floats(&l.Width, &l.Height, &l.PlotX, &l.PlotW, &l.LanesY, &l.LanesH, &l.ContentH)
	l.CursorTop, l.CursorBot = r.Uvarint(), r.Uvarint()
	l.FilesNotDrawn = r.Int()
	l.LabelsOver = r.Bool()
	n := r.Uvarint()
	// A band takes at least 24 bytes: a count past what is left is
	// corrupt, and must not size an allocation.
	if n > uint64(r.Left())/24 {
		return errBinaryLayout
	}
	l.Bands = make([]Band, n)
	for i := range l.Bands {
		d := &l.Bands[i]
		var like Band
		if i < len(was) {
			like = was[i]
		}
		d.ID = BandID(r.Int())
		r.Floats(&d.Y, &d.Height)
		d.Label = r.String(like.Label)
		d.Short = r.String(like.Short)
		d.File = r.Int()
		d.RVTop, d.RVBot = r.Uvarint(), r.Uvarint()
		d.Folded = r.Bool()
		d.Track = r.Int()
	}
	if !r.Done() {
		return errBinaryLayout
	}
	return nil
}

var errBinaryLayout = errors.New("canvas: a layout's binary form is cut short or corrupt")
