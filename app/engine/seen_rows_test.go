package engine

import (
	"fmt"
	"slices"
	"testing"

	"watchlens/app/canvas"
	"watchlens/timeline"
)

// drawnItem is one item a frame draws (a rect, a segment, a mark): its
// operation, placed nowhere, its floats, and its y range.
type drawnItem struct {
	op     canvas.Op
	floats string
	y0, y1 float32
}

// drawnItems lists what fr draws but its clips.
func drawnItems(fr *canvas.Frame) []drawnItem {
	b, _ := fr.Floats(nil)
	floats := float32s(b)
	var out []drawnItem
	for _, op := range fr.Ops {
		stride := map[string]int{"rect": 4, "seg": 4, "mark": 2}[op.Kind]
		if stride == 0 {
			continue
		}
		at := op
		at.Offset, at.Count = 0, 0
		for i := op.Offset; i+stride <= op.Offset+op.Count; i += stride {
			f := floats[i : i+stride]
			y1 := f[1]
			switch op.Kind {
			case "rect":
				y1 = f[1] + f[3]
			case "seg":
				y1 = f[3]
			}
			out = append(out, drawnItem{at, fmt.Sprint(f), min(f[1], y1), max(f[1], y1)})
		}
	}
	return out
}

// TestFrameOfTheRowsInView: samples-fleet's 52 files unfolded lay out
// 9474 px of tracks; a frame of the rows a panel shows is as high as
// asked, starts where asked (within the layout), and draws every item
// and label of the whole frame that reaches its rows (and the axis's
// labels), and nothing else: what the panel shows is what the whole
// frame shows there. Its layout is the whole frame's (hit tests read
// it), but for the RV scales of cursor strips out of its rows, and a
// picture draws the whole layout whatever rows are in view.
func TestFrameOfTheRowsInView(t *testing.T) {
	e, o := openFleet(t, timeline.DefaultParams())
	st := whole(o)
	var all canvas.Frame
	d := e.Frame(st, &all)
	if d.Layout.Height < 5000 || all.Top != 0 || all.Height != d.Layout.Height {
		t.Fatalf("samples-fleet unfolded: a layout %v px high, a whole frame %v px high from %v", d.Layout.Height, all.Height, all.Top)
	}
	wholeItems := drawnItems(&all)
	for _, c := range []struct{ top, h, wantTop float64 }{
		{0, 700, 0},
		{3000, 700, 3000},
		{4321.5, 896, 4321},
		{d.Layout.Height, 700, d.Layout.Height - 700}, // past the end: the last rows
		{-50, 700, 0},
	} {
		st := st
		st.SeenTop, st.SeenHeight = c.top, c.h
		var fr canvas.Frame
		dd := e.Frame(st, &fr)
		if fr.Top != c.wantTop || fr.Height != c.h || fr.Sticky != d.Layout.Bands[0].Height {
			t.Errorf("rows %v+%v: a frame %v px high from %v, its axis %v px: want %v from %v, %v", c.top, c.h, fr.Height, fr.Top, fr.Sticky, c.h, c.wantTop, d.Layout.Bands[0].Height)
		}
		lo, hi := float32(fr.Top), float32(fr.Top+fr.Height)
		// The layout: the whole frame's, but a cursor strip out of the
		// rows has no RV scale.
		bands := slices.Clone(d.Layout.Bands)
		for i, b := range bands {
			if b.ID == canvas.BandCursors && !(b.Y < fr.Top+fr.Height+16 && b.Y+b.Height > fr.Top-16) {
				bands[i].RVTop, bands[i].RVBot = 0, 0
			}
		}
		if !slices.Equal(dd.Layout.Bands, bands) || dd.Layout.Height != d.Layout.Height {
			t.Errorf("rows %v+%v: the layout differs from the whole frame's", c.top, c.h)
		}
		// The labels: the whole frame's in its rows (web/timeline.js
		// draws those within 12 px) and the axis's (the page draws them
		// at the panel's top), and none the whole frame has not.
		labels := map[canvas.Text]int{}
		for _, l := range fr.Texts {
			labels[l]++
		}
		for _, l := range all.Texts {
			if labels[l] > 0 {
				labels[l]--
			} else if l.Y >= lo-12 && l.Y <= hi+12 || float64(l.Y) < fr.Sticky {
				t.Errorf("rows %v+%v: the label %q at y %v is not written", c.top, c.h, l.Text, l.Y)
			}
		}
		for l, n := range labels {
			if n > 0 {
				t.Errorf("rows %v+%v: the label %q at y %v is written, which the whole frame does not", c.top, c.h, l.Text, l.Y)
			}
		}
		want := map[drawnItem]int{}
		for _, it := range wholeItems {
			if it.y0 < hi && it.y1 > lo {
				it.y0, it.y1 = 0, 0
				want[it]++
			}
		}
		got := drawnItems(&fr)
		kept := 0
		for _, it := range got {
			if pad := max(it.op.Size, 8); it.y1 < lo-pad || it.y0 > hi+pad {
				t.Errorf("rows %v+%v: %v of %s drawn, %v to %v px, out of them", c.top, c.h, it.op.Kind, it.floats, it.y0, it.y1)
			}
			it.y0, it.y1 = 0, 0
			if want[it] > 0 {
				want[it]--
				kept++
			}
		}
		for it, n := range want {
			if n > 0 {
				t.Errorf("rows %v+%v: %d of %v %s %s of the whole frame are not drawn", c.top, c.h, n, it.op.Kind, it.op.Color, it.floats)
			}
		}
		if kept == 0 || len(got) > len(wholeItems)/4 {
			t.Errorf("rows %v+%v: %d items drawn (%d of them in its rows), of the whole frame's %d", c.top, c.h, len(got), kept, len(wholeItems))
		}
		st.Print = true
		e.Frame(st, &fr)
		if fr.Top != 0 || fr.Height != d.Layout.Height || fr.Sticky != 0 {
			t.Errorf("rows %v+%v: a picture %v px high from %v, with an axis of %v px kept in view", c.top, c.h, fr.Height, fr.Top, fr.Sticky)
		}
	}
}

// BenchmarkFrameOfTheRowsInView builds samples-fleet's timeline frame
// and writes its spec as the engine's worker does for each pan, of the
// whole layout and of a panel's rows (896 px, as app/stage_room.go asks
// for a panel 455 px high), folded (1310 px of tracks) and unfolded
// (9474 px).
func BenchmarkFrameOfTheRowsInView(b *testing.B) {
	e, o := openFleet(b, timeline.DefaultParams())
	for _, fold := range []bool{true, false} {
		for _, rows := range []float64{0, 896} {
			name := map[bool]string{true: "folded", false: "unfolded"}[fold] + map[bool]string{true: "/whole", false: "/rows-in-view"}[rows == 0]
			b.Run(name, func(b *testing.B) {
				st := whole(o)
				if fold {
					st.Folded = canvas.AllFiles(len(o.Files)).String()
				}
				st.SeenTop, st.SeenHeight = 400, rows
				var fr canvas.Frame
				var spec []byte
				var err error
				lo, hi := st.From, st.To
				i := int64(0)
				for b.Loop() {
					// A pan: the view moves a fiftieth of a tenth each frame.
					span := (hi - lo) / 10
					st.From = lo + (i%50)*span/50
					st.To = st.From + span
					i++
					e.Frame(st, &fr)
					if spec, err = fr.AppendSpec(spec[:0]); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(spec)), "spec-bytes")
				_, n := fr.Floats(nil)
				b.ReportMetric(float64(n), "floats")
			})
		}
	}
}
