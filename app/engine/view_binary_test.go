package engine

import (
	"bytes"
	"reflect"
	"testing"

	"watchlens/timeline"
)

// everyField is a view whose every field, the filter's included, is set
// to a value other than its zero: a field added to ViewState without its
// binary form is then lost in TestViewBinary's round trip.
func everyField(t testing.TB) ViewState {
	st := ViewState{
		Filter: timeline.Filter{Types: 1<<31 | 5, Kind: "Pod", Namespace: "kube-system", Text: "coredns", Label: "app=dns,tier!=web", InView: true},
		AxisRV: true, From: -3, To: 1 << 60,
		Width: 1234.5, MaxHeight: 700, PixelRatio: 2, ScrollY: 48, SeenTop: 64, SeenHeight: 768,
		Folded: "0-3,7", Pinned: "5", Collapsed: "a\nb\n", Selected: 123456, Marker: -1,
		Print: true, Selecting: true, SelectFrom: 10.25, SelectTo: 400.5,
	}
	var zeroes []string
	var walk func(v reflect.Value, name string)
	walk = func(v reflect.Value, name string) {
		if v.Kind() == reflect.Struct {
			for i := range v.NumField() {
				walk(v.Field(i), name+"."+v.Type().Field(i).Name)
			}
			return
		}
		if v.IsZero() {
			zeroes = append(zeroes, name)
		}
	}
	walk(reflect.ValueOf(st), "ViewState")
	if len(zeroes) > 0 {
		t.Fatalf("everyField leaves %v zero: set them, and write them in AppendBinary", zeroes)
	}
	return st
}

// TestViewBinary: a view reads back from its binary form as it was; read
// over the view before it, as the worker reads a pan's, it allocates
// nothing; cut short or with a bool that is no bool, it fails.
func TestViewBinary(t *testing.T) {
	st := everyField(t)
	b, err := st.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got ViewState
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if got != st {
		t.Errorf("read back %+v\nwrote     %+v", got, st)
	}

	next := st
	next.From, next.To = st.From+5, st.To+5
	nb, err := next.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		read := st
		if err := read.UnmarshalBinary(nb); err != nil || read != next {
			t.Fatalf("the next view read %+v, %v", read, err)
		}
	}); n != 0 {
		t.Errorf("the next view of a pan read over the one before it allocates %v times", n)
	}

	for _, n := range []int{0, 1, 8, len(b) - 1} {
		var cut ViewState
		if cut.UnmarshalBinary(b[:n]) == nil {
			t.Errorf("cut to %d of its %d bytes, it reads without an error", n, len(b))
		}
	}
	bad := bytes.Clone(b)
	bad[len(bad)-2*8-1] = 2 // Selecting
	if (&ViewState{}).UnmarshalBinary(bad) == nil {
		t.Error("a bool written as 2 reads without an error")
	}
}

// FuzzViewBinary: no input makes UnmarshalBinary panic, and what it reads
// without an error is written back as it was read. The views are
// compared by their binary forms: a NaN read is unequal to itself.
func FuzzViewBinary(f *testing.F) {
	st := everyField(f)
	b, err := st.AppendBinary(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	z, _ := ViewState{}.AppendBinary(nil)
	f.Add(z)
	f.Fuzz(func(t *testing.T, data []byte) {
		var st ViewState
		if st.UnmarshalBinary(data) != nil {
			return
		}
		again, err := st.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		var back ViewState
		if err := back.UnmarshalBinary(again); err != nil {
			t.Fatalf("%x read as %+v, written back as %x, which reads as an error: %v", data, st, again, err)
		}
		if twice, _ := back.AppendBinary(nil); !bytes.Equal(twice, again) {
			t.Fatalf("%x read as %+v, written back as %x, read again as %+v, written as %x", data, st, again, back, twice)
		}
	})
}
