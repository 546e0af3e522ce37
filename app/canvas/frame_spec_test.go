package canvas

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"watchlens/timeline"
)

// specOfJSON is the frame's JSON as encoding/json writes it, which Spec
// writes by hand.
func specOfJSON(t *testing.T, f *Frame) []byte {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSpecIsWhatJSONWrites: the spec of a frame with every field of
// Frame, Op and Text set (a field added to one and left out of Spec
// fails here), of frames with strings JSON escapes and numbers it
// writes in exponent form, and of a timeline's frame
// drawn (samples-lab's 64 groups of tracks), is byte for byte what encoding/json writes of it.
func TestSpecIsWhatJSONWrites(t *testing.T) {
	var every Frame
	seed := 0
	fillEveryField(reflect.ValueOf(&every).Elem(), &seed)
	every.Ops[1].Dashed, every.Texts[1].Box = false, ""
	frames := map[string]*Frame{"every field set": &every, "empty": {}, "empty lists": {Ops: []Op{}, Texts: []Text{}}}
	odd := &Frame{Width: 1e21, Height: 1e-7, PixelRatio: -0.5, Top: 123456789.125, Sticky: 26.5,
		Ops: []Op{{Kind: "mark", Size: 1e-7, Alpha: float32(math.SmallestNonzeroFloat32), Offset: -3, Count: math.MaxInt32}}}
	for _, s := range []string{"<b>&amp;</b>", "tab\there\nnew\rline\\ \"q\"", "\x00\x01\x1f\x7f", "\u2028\u2029", "\xff\xfe bad \xc3", "ünïcödé ✓ 日本", "\b\f"} {
		odd.Texts = append(odd.Texts, Text{X: 1.5, Y: float32(math.MaxFloat32), Text: s, Color: s, Short: s, MaxWidth: 3e-9})
	}
	frames["odd strings and numbers"] = odd
	lab := labWhole(t)
	c := NewCache(lab)
	var tl Frame
	c.Build(wholeView(lab, lab.Analyze(timeline.DefaultParams()), c, 1280), &tl)
	frames["samples-lab's timeline"] = &tl
	for name, f := range frames {
		got, err := f.Spec()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := specOfJSON(t, f); !bytes.Equal(got, want) {
			t.Errorf("%s: Spec writes\n%.600s\nencoding/json\n%.600s", name, got, want)
		}
	}
	if len(tl.Ops) < 5 || len(tl.Texts) < 5 {
		t.Errorf("the timeline's frame has %d operations and %d texts", len(tl.Ops), len(tl.Texts))
	}
	for _, bad := range []Frame{{Width: math.Inf(1)}, {Ops: []Op{{Alpha: float32(math.NaN())}}}, {Texts: []Text{{X: float32(math.Inf(-1))}}}} {
		if _, err := bad.Spec(); err == nil {
			t.Errorf("a frame with a number that is not finite has a spec: %+v", bad)
		}
	}
}

// FuzzSpecIsWhatJSONWrites: a text's strings and numbers, whatever they
// are, write as encoding/json writes them.
func FuzzSpecIsWhatJSONWrites(f *testing.F) {
	f.Add("c003-nobookmarks.ts.http", "--fg", float32(12.5), float32(0))
	f.Add("<\u2028\xff>", "", float32(1e-7), float32(-3e30))
	f.Fuzz(func(t *testing.T, s, colour string, x, m float32) {
		fr := &Frame{Width: float64(x), Ops: []Op{{Kind: s, Color: colour, Size: m}}, Texts: []Text{{X: x, Y: m, Text: s, Color: colour, Short: s, MaxWidth: m}}}
		want, err := json.Marshal(fr)
		got, gotErr := fr.Spec()
		if (err == nil) != (gotErr == nil) {
			t.Fatalf("encoding/json's error %v, Spec's %v", err, gotErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Errorf("Spec writes\n%s\nencoding/json\n%s", got, want)
		}
	})
}

// TestJSONFloatAsEncodingJSON: whole numbers and eighths, where Spec
// writes a number's exact digits, and numbers around them, as 32- and
// 64-bit floats, write as encoding/json writes them.
func TestJSONFloatAsEncodingJSON(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 65535.875, 65536, -65536, 65536.125, 1e21, 1e-7, 0.1, 1.0 / 3, 16777217}
	for k := -70000 * 8; k <= 70000*8; k += 7 {
		vals = append(vals, float64(k)/8, float64(k)/8+1e-3)
	}
	checked := 0
	for _, v := range vals {
		for _, bits := range []int{32, 64} {
			var want []byte
			var err error
			if bits == 32 {
				v = float64(float32(v))
				want, err = json.Marshal(float32(v))
			} else {
				want, err = json.Marshal(v)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := appendJSONFloat(nil, v, bits); !bytes.Equal(got, want) {
				t.Errorf("%v as a %d-bit float writes %s, encoding/json %s", v, bits, got, want)
			}
			checked++
		}
	}
	if checked < 100_000 {
		t.Errorf("%d numbers checked", checked)
	}
}
