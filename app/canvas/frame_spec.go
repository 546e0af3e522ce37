package canvas

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// Spec is the frame's operations and texts as the JSON web/timeline.js
// reads: AppendSpec into a buffer of its own.
func (f *Frame) Spec() ([]byte, error) {
	return f.AppendSpec(make([]byte, 0, 64+64*len(f.Ops)+128*len(f.Texts)))
}

// AppendSpec appends the frame's spec to b: the bytes encoding/json
// writes of the frame, written field by field (TestSpecIsWhatJSONWrites
// holds the two to the same bytes). The engine's worker writes one with
// every frame, and encoding/json's reflection took 1.7 ms as wasm for a
// frame of samples-lab's timeline (64 groups of tracks unfolded), about a third
// of its building.
func (f *Frame) AppendSpec(b []byte) ([]byte, error) {
	b = append(b, `{"w":`...)
	b = appendJSONFloat(b, f.Width, 64)
	b = append(b, `,"h":`...)
	b = appendJSONFloat(b, f.Height, 64)
	b = append(b, `,"dpr":`...)
	b = appendJSONFloat(b, f.PixelRatio, 64)
	b = append(b, `,"ops":`...)
	b = appendJSONList(b, f.Ops, (*Op).appendJSON)
	b = append(b, `,"texts":`...)
	b = appendJSONList(b, f.Texts, (*Text).appendJSON)
	if f.Top != 0 {
		b = append(b, `,"top":`...)
		b = appendJSONFloat(b, f.Top, 64)
	}
	if f.Sticky != 0 {
		b = append(b, `,"sticky":`...)
		b = appendJSONFloat(b, f.Sticky, 64)
	}
	b = append(b, '}')
	if !finite(f.Width, f.Height, f.PixelRatio, f.Top, f.Sticky) || !f.finiteParts() {
		return nil, errNotFinite
	}
	return b, nil
}

// appendJSONList appends items as encoding/json writes a slice, each
// by appendItem: null when it is nil.
func appendJSONList[T any](b []byte, items []T, appendItem func(*T, []byte) []byte) []byte {
	if items == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendItem(&items[i], b)
	}
	return append(b, ']')
}

var errNotFinite = errors.New("canvas: a frame's number is not finite, which JSON cannot write")

// finiteParts says whether every number of the operations and texts is
// finite: encoding/json fails on the others, and so does Spec.
func (f *Frame) finiteParts() bool {
	for i := range f.Ops {
		if o := &f.Ops[i]; !finite(float64(o.Size), float64(o.Alpha)) {
			return false
		}
	}
	for i := range f.Texts {
		if t := &f.Texts[i]; !finite(float64(t.X), float64(t.Y), float64(t.MaxWidth)) {
			return false
		}
	}
	return true
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}

// appendJSON appends o as encoding/json writes it, its tags' names and
// omitempty's.
func (o *Op) appendJSON(b []byte) []byte {
	b = append(b, `{"k":`...)
	b = appendJSONString(b, o.Kind)
	if o.Color != "" {
		b = append(b, `,"c":`...)
		b = appendJSONString(b, o.Color)
	}
	if o.Shape != "" {
		b = append(b, `,"s":`...)
		b = appendJSONString(b, o.Shape)
	}
	if o.Size != 0 {
		b = append(b, `,"z":`...)
		b = appendJSONFloat(b, float64(o.Size), 32)
	}
	if o.Alpha != 0 {
		b = append(b, `,"a":`...)
		b = appendJSONFloat(b, float64(o.Alpha), 32)
	}
	if o.Dashed {
		b = append(b, `,"d":true`...)
	}
	b = append(b, `,"o":`...)
	b = strconv.AppendInt(b, int64(o.Offset), 10)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, int64(o.Count), 10)
	return append(b, '}')
}

// appendJSON appends t as encoding/json writes it.
func (t *Text) appendJSON(b []byte) []byte {
	b = append(b, `{"x":`...)
	b = appendJSONFloat(b, float64(t.X), 32)
	b = append(b, `,"y":`...)
	b = appendJSONFloat(b, float64(t.Y), 32)
	b = append(b, `,"s":`...)
	b = appendJSONString(b, t.Text)
	b = append(b, `,"c":`...)
	b = appendJSONString(b, t.Color)
	if t.Align != "" {
		b = append(b, `,"a":`...)
		b = appendJSONString(b, t.Align)
	}
	if t.Font != "" {
		b = append(b, `,"f":`...)
		b = appendJSONString(b, t.Font)
	}
	if t.MaxWidth != 0 {
		b = append(b, `,"m":`...)
		b = appendJSONFloat(b, float64(t.MaxWidth), 32)
	}
	if t.Short != "" {
		b = append(b, `,"h":`...)
		b = appendJSONString(b, t.Short)
	}
	if t.Box != "" {
		b = append(b, `,"k":`...)
		b = appendJSONString(b, t.Box)
	}
	return append(b, '}')
}

// appendJSONFloat appends f, a float of bits bits, as encoding/json
// writes it: as ECMAScript writes a number, 'f' form but for the very
// small and very large, whose exponent has no leading zero. A frame's
// coordinates are mostly whole or eighths of a pixel, whose shortest
// form is their exact one: those are written without strconv's search
// for the shortest digits, which was half of a spec's writing.
func appendJSONFloat(b []byte, f float64, bits int) []byte {
	if a := math.Abs(f); a < 1<<16 && a*8 == math.Trunc(a*8) && (a != 0 || !math.Signbit(f)) {
		if f < 0 {
			b = append(b, '-')
		}
		b = strconv.AppendInt(b, int64(a), 10)
		if e := int(a*8) & 7; e != 0 {
			b = append(b, eighths[e]...)
		}
		return b
	}
	form := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			form = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, form, -1, bits)
	if form == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// eighths are the decimals of k/8 for k in 1..7.
var eighths = [8]string{"", ".125", ".25", ".375", ".5", ".625", ".75", ".875"}

// appendJSONString appends s quoted as encoding/json writes it: with
// <, > and & escaped for HTML, bytes that are not UTF-8 as U+FFFD, and
// U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
