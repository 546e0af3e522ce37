package engine

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"watchlens/app/canvas"
	"watchlens/timeline"
)

// roundTrip sends v through JSON, the codec the worker's messages use
// for every answer but a frame's drawing, and says whether it came back
// equal.
func roundTrip[T any](t *testing.T, what string, v T) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var back T
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !reflect.DeepEqual(v, back) {
		t.Errorf("%s does not come back from JSON as it went:\n%+v\n%+v", what, v, back)
	}
}

// TestAnswersCrossAMessage: every question and answer of the engine, on
// two real samples open at once, comes back from its codec as it went;
// a frame's drawing through its binary form (Spec and Floats, as
// web/timeline.js's watchlensDraw reads it).
func TestAnswersCrossAMessage(t *testing.T) {
	e, o := sampleEngine(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	if len(o.Summary) == 0 || len(o.Files) != 2 {
		t.Fatalf("the load answered %+v", o)
	}
	roundTrip(t, "Opened", o)
	st := whole(o)
	st.Folded, st.Pinned, st.Selected = "0", "1", 3
	roundTrip(t, "ViewState", st)
	var fr canvas.Frame
	d := e.Frame(st, &fr)
	roundTrip(t, "Drawn", d)
	roundTrip(t, "Layout", e.Layout(st))
	roundTrip(t, "Hit", e.Hit(st, d.Layout.PlotX+d.Layout.PlotW/2, d.Layout.LanesY+4))
	roundTrip(t, "ViewSummary", e.Summary(st))
	zones, all := e.Zones(10)
	if all == 0 {
		t.Fatal("no zone: the zones' round trip proves nothing")
	}
	roundTrip(t, "Zones", zones)
	roundTrip(t, "Step", e.Step(st, true))
	a, err := e.Analyze(timeline.DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, "Analyzed", a)

	spec, err := fr.Spec()
	if err != nil {
		t.Fatal(err)
	}
	floats, n := fr.Floats(nil)
	back, got := decodeFrame(t, spec, floats)
	if n == 0 || len(got) != n || !reflect.DeepEqual(back.Ops, fr.Ops) || !reflect.DeepEqual(back.Texts, fr.Texts) || back.Width != fr.Width {
		t.Fatalf("the frame does not come back: %d floats of %d, %d ops of %d", len(got), n, len(back.Ops), len(fr.Ops))
	}
	for _, op := range back.Ops {
		if op.Kind != "text" && op.Kind != "unclip" && op.Offset+op.Count > len(got) {
			t.Fatalf("op %+v reads past the frame's %d floats", op, len(got))
		}
	}
	// The same question answers the same frame: what a worker draws is
	// what the page would.
	var fr2 canvas.Frame
	e.Frame(st, &fr2)
	spec2, _ := fr2.Spec()
	floats2, _ := fr2.Floats(nil)
	if string(spec2) != string(spec) || string(floats2) != string(floats) {
		t.Error("the same view drew two different frames")
	}
}

// decodeFrame reads a frame's binary form back as web/timeline.js does:
// the spec's JSON, and the little-endian float32s.
func decodeFrame(t *testing.T, spec, floats []byte) (canvas.Frame, []float32) {
	t.Helper()
	var fr canvas.Frame
	if err := json.Unmarshal(spec, &fr); err != nil {
		t.Fatal(err)
	}
	return fr, float32s(floats)
}

// float32s reads b as the little-endian float32s a frame's Floats
// writes.
func float32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}
