package report

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strings"
)

// streamJSON writes v as a json.Encoder with SetIndent("", "  ") and
// SetEscapeHTML(false) does, byte for byte, but a struct field at a time
// and a list an element at a time: the JSON of a report of a hundred
// thousand clients is hundreds of MB, which an Encoder builds whole, then
// indents whole, before it writes a byte.
func streamJSON(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := jsonStream{w: bw}
	s.value(reflect.ValueOf(v), "")
	if s.err == nil {
		_, s.err = bw.WriteString("\n")
	}
	if s.err == nil {
		s.err = bw.Flush()
	}
	return s.err
}

type jsonStream struct {
	w   *bufio.Writer
	buf bytes.Buffer
	err error
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// value writes v at the indentation indent: structs and lists piece by
// piece, anything else through an Encoder.
func (s *jsonStream) value(v reflect.Value, indent string) {
	if s.err != nil {
		return
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			s.write("null")
			return
		}
		if implementsMarshaler(v.Type()) {
			break
		}
		v = v.Elem()
	}
	switch {
	case implementsMarshaler(v.Type()):
	case v.Kind() == reflect.Struct && plainStruct(v.Type()):
		s.object(v, indent)
		return
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() != reflect.Uint8:
		if v.IsNil() {
			s.write("null")
			return
		}
		if v.Len() == 0 {
			s.write("[]")
			return
		}
		s.write("[")
		inner := indent + "  "
		for i := range v.Len() {
			if i > 0 {
				s.write(",")
			}
			s.write("\n" + inner)
			s.value(v.Index(i), inner)
		}
		s.write("\n" + indent + "]")
		return
	}
	s.buf.Reset()
	enc := json.NewEncoder(&s.buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, "  ")
	if s.err = enc.Encode(v.Interface()); s.err == nil {
		_, s.err = s.w.Write(bytes.TrimSuffix(s.buf.Bytes(), []byte("\n")))
	}
}

// object writes a struct's fields as encoding/json names and omits
// them.
func (s *jsonStream) object(v reflect.Value, indent string) {
	t := v.Type()
	inner := indent + "  "
	n := 0
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fv := v.Field(i)
		if strings.Contains(","+opts+",", ",omitempty,") && emptyJSON(fv) {
			continue
		}
		if n == 0 {
			s.write("{")
		} else {
			s.write(",")
		}
		n++
		key, _ := json.Marshal(name)
		s.write("\n" + inner + string(key) + ": ")
		s.value(fv, inner)
	}
	if n == 0 {
		s.write("{}")
		return
	}
	s.write("\n" + indent + "}")
}

func (s *jsonStream) write(str string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(str)
	}
}

// plainStruct says whether object writes t as encoding/json does: no
// embedded field (which it would flatten) and no ",string" option.
func plainStruct(t reflect.Type) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous || strings.Contains(f.Tag.Get("json"), ",string") {
			return false
		}
	}
	return true
}

func implementsMarshaler(t reflect.Type) bool {
	return t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType))
}

// emptyJSON is encoding/json's "empty" for omitempty.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
