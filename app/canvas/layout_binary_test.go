package canvas

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"watchlens/internal/testsample"
)

// TestLayoutBinaryEveryField: a layout and its bands with every field
// set, each to a value of its own, read back equal. A field added to
// Layout or Band that the binary form leaves out fails here.
func TestLayoutBinaryEveryField(t *testing.T) {
	var l Layout
	seed := 0
	fillEveryField(reflect.ValueOf(&l).Elem(), &seed)
	if len(l.Bands) == 0 || l.Bands[1].Label == "" || !l.LabelsOver || l.CursorBot == 0 {
		t.Fatalf("the filler left fields zero: %+v", l)
	}
	if got, _ := readBack(t, l); !reflect.DeepEqual(got, l) {
		t.Errorf("read back\n%+v\nwritten\n%+v", got, l)
	}
}

// readBack is l written in its binary form and read back, and the form.
func readBack(t *testing.T, l Layout) (Layout, []byte) {
	t.Helper()
	b, err := l.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got Layout
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	return got, b
}

// fillEveryField sets every exported field under v to a value of its
// own, from *seed on; a slice gets two elements.
func fillEveryField(v reflect.Value, seed *int) {
	*seed++
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillEveryField(v.Field(i), seed)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillEveryField(v.Index(i), seed)
		}
	case reflect.Float64, reflect.Float32:
		v.SetFloat(float64(*seed) + 0.25)
	case reflect.Int:
		v.SetInt(int64(-*seed))
	case reflect.Uint64:
		v.SetUint(uint64(*seed) << 40)
	case reflect.String:
		v.SetString(strings.Repeat("é", *seed))
	case reflect.Bool:
		v.SetBool(true)
	default:
		panic("fillEveryField: a field of kind " + v.Kind().String())
	}
}

// TestLayoutBinaryOfAnIncident: the layout of samples-fleet's 44 files,
// some folded and some pinned, reads back equal, and read again over
// itself its labels share the strings read the first time (a pan's
// frames allocate none); every cut of it fails to read, and a label
// changed at one index is read anew there.
func TestLayoutBinaryOfAnIncident(t *testing.T) {
	ents, err := os.ReadDir(testsample.Recording(t, "samples-fleet"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".ts.http") {
			names = append(names, e.Name())
		}
	}
	folded, pinned := FileSet{}.With(3, true).With(4, true), FileSet{}.With(7, true)
	l := FileLayout(1280, 800, 40, names, false, true, folded, pinned)
	if len(l.Bands) < 100 {
		t.Fatalf("the layout of %d files has %d bands", len(names), len(l.Bands))
	}
	got, b := readBack(t, l)
	if !reflect.DeepEqual(got, l) {
		t.Fatalf("read back differs from the layout written")
	}
	first := got.Bands
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	shared := 0
	for i := range got.Bands {
		if got.Bands[i].Label != "" && unsafe.StringData(got.Bands[i].Label) == unsafe.StringData(first[i].Label) {
			shared++
		}
	}
	if labelled := countLabels(l.Bands); shared != labelled || labelled < len(names) {
		t.Errorf("read again, %d labels share the first read's strings, of %d", shared, labelled)
	}
	if &got.Bands[0] == &first[0] {
		t.Error("read again, the bands are the first read's slice, which a view may still hold")
	}
	l.Bands[5].Label += " (changed)"
	b2, err := l.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.UnmarshalBinary(b2); err != nil {
		t.Fatal(err)
	}
	if got.Bands[5].Label != l.Bands[5].Label {
		t.Errorf("a changed label reads %q", got.Bands[5].Label)
	}
	for n := range len(b) {
		var cut Layout
		if cut.UnmarshalBinary(b[:n]) == nil {
			t.Fatalf("the layout cut to %d of its %d bytes reads without an error", n, len(b))
		}
	}
}

func countLabels(bands []Band) int {
	n := 0
	for _, b := range bands {
		if b.Label != "" {
			n++
		}
	}
	return n
}

// FuzzLayoutBinary: any bytes read without a panic, and what they read
// as, written and read again, writes the same bytes. Compared as bytes:
// a float read from any 8 bytes may be a NaN, which crosses bit for bit
// but is equal to nothing (testdata/fuzz holds such an input).
func FuzzLayoutBinary(f *testing.F) {
	l := FileLayout(900, 600, 12, []string{"a.ts.http", "b.ts.http", "c.log"}, false, true, FileSet{}.With(1, true), FileSet{})
	b, err := l.AppendBinary(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, in []byte) {
		var got Layout
		if got.UnmarshalBinary(in) != nil {
			return
		}
		twice, once := readBack(t, got)
		if again, err := twice.AppendBinary(nil); err != nil || !bytes.Equal(again, once) {
			t.Errorf("read, written and read again, it writes %d bytes that differ from the %d written first (%v)", len(again), len(once), err)
		}
	})
}
