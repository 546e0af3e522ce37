package engine

import (
	"encoding/binary"
	"errors"

	"watchlens/internal/wire"
)

// A view crosses from the page to the engine's worker with every
// question of a frame, a hit or a range: with every move of a pan. As
// JSON, its encoding on the page and its decoding in the worker were
// each a tenth of a millisecond or more of a pan's frame, both on its
// path. Its binary form is package wire's: its fields in order.

// AppendBinary appends st's binary form to b (encoding.BinaryAppender).
func (st ViewState) AppendBinary(b []byte) ([]byte, error) {
	f := &st.Filter
	b = binary.AppendUvarint(b, uint64(f.Types))
	b = wire.AppendString(b, f.Kind)
	b = wire.AppendString(b, f.Namespace)
	b = wire.AppendString(b, f.Text)
	b = wire.AppendString(b, f.Label)
	b = wire.AppendBool(b, f.InView)
	b = wire.AppendBool(b, st.AxisRV)
	b = binary.AppendVarint(b, st.From)
	b = binary.AppendVarint(b, st.To)
	b = wire.AppendFloats(b, st.Width, st.MaxHeight, st.PixelRatio, st.ScrollY, st.SeenTop, st.SeenHeight)
	b = wire.AppendString(b, st.Folded)
	b = wire.AppendString(b, st.Pinned)
	b = wire.AppendString(b, st.Collapsed)
	b = binary.AppendVarint(b, int64(st.Selected))
	b = binary.AppendVarint(b, st.Marker)
	b = wire.AppendBool(b, st.Print)
	b = wire.AppendBool(b, st.Selecting)
	return wire.AppendFloats(b, st.SelectFrom, st.SelectTo), nil
}

// UnmarshalBinary reads what AppendBinary wrote into st (encoding.
// BinaryUnmarshaler). A string that is the one st held shares it, so
// that the views of a pan, which differ in their range alone, allocate
// nothing.
func (st *ViewState) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	was := *st
	*st = ViewState{}
	f := &st.Filter
	types := r.Uvarint()
	if types != uint64(uint32(types)) {
		return errBinaryView
	}
	f.Types = uint32(types)
	f.Kind = r.String(was.Filter.Kind)
	f.Namespace = r.String(was.Filter.Namespace)
	f.Text = r.String(was.Filter.Text)
	f.Label = r.String(was.Filter.Label)
	f.InView = r.Bool()
	st.AxisRV = r.Bool()
	st.From, st.To = r.Varint(), r.Varint()
	r.Floats(&st.Width, &st.MaxHeight, &st.PixelRatio, &st.ScrollY, &st.SeenTop, &st.SeenHeight)
	st.Folded = r.String(was.Folded)
	st.Pinned = r.String(was.Pinned)
	st.Collapsed = r.String(was.Collapsed)
	st.Selected = r.Int()
	st.Marker = r.Varint()
	st.Print = r.Bool()
	st.Selecting = r.Bool()
	r.Floats(&st.SelectFrom, &st.SelectTo)
	if !r.Done() {
		return errBinaryView
	}
	return nil
}

var errBinaryView = errors.New("engine: a view's binary form is cut short or corrupt")
