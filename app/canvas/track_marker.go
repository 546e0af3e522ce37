package canvas

import (
	"math"
	"time"
)

// The reconnect marker: a line across every band at the instant the user
// asks what a reconnect would get (the page's "reconnect at"), labelled
// in the axis band, on the timeline and the fleet view alike. It is drawn
// solid in the foreground colour, with its label inverted, apart from
// the dashed restart lines.

// Marker is the instant marked, 0 for none.
type Marker int64

// markerCharW is about the width of a character of the canvas's 11 px
// font; the label's box is sized by it, and the browser cuts the text to
// the box (see addTextWithin).
const markerCharW = 7.0

// MarkerLabel is the marker's label in zone loc: "reconnect at
// 08:43:00.000 UTC".
func MarkerLabel(at int64, loc *time.Location) string {
	return "reconnect at " + clock(at, loc)
}

// draw draws the marker from the top of the axis band to bottom when its
// instant is in view; the label goes left of the line near the plot's
// right edge.
func (m Marker) draw(s Scale, bottom float64, fr *Frame, loc *time.Location) {
	at := int64(m)
	if at == 0 || at < s.From || at > s.To {
		return
	}
	x := math.Round(s.X(at)) + 0.5
	fr.add(Op{Kind: "seg", Color: ColorFg, Size: 2}, []float32{float32(x), 0, float32(x), float32(bottom)})
	label := MarkerLabel(at, loc)
	w := markerCharW*float64(len(label)) + 8
	bx := x + 1
	if bx+w > s.X0+s.Width {
		bx = x - 1 - w
	}
	fr.rect(ColorFg, 0, bx, 3, w, axisH-6)
	t0 := len(fr.Texts)
	fr.addTextWithin(bx+4, axisH/2, w-8, label, ColorPanel, "l", "b")
	fr.flushTexts(t0)
}
