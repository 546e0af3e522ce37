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

// markerCharW is at least the width of a character of the label in the
// canvas's bold 11 px font (DejaVu Sans Bold, as Debian's Chromium draws
// system-ui, is the widest of the usual ones): the label goes right of the
// line where that much room is left, and the browser cuts it to that
// room (see addTextWithin).
const markerCharW = 7.0

// MarkerLabel is the marker's label in zone loc: "reconnect at
// 08:43:00.000 UTC".
func MarkerLabel(at int64, loc *time.Location) string {
	return "reconnect at " + clock(at, loc)
}

// draw draws the marker from the top of the axis band to bottom when its
// instant is in view; the label goes left of the line near the plot's
// right edge. The label is inverted, on a box of the foreground colour
// that the browser sizes to the text as it draws it: a box sized here, by
// a width per character, would be wider than the text in most fonts, and
// hide more of the axis's labels than the text needs.
func (m Marker) draw(s Scale, bottom float64, fr *Frame, loc *time.Location) {
	at := int64(m)
	if at == 0 || at < s.From || at > s.To {
		return
	}
	x := math.Round(s.X(at)) + 0.5
	fr.add(Op{Kind: "seg", Color: ColorFg, Size: 2}, []float32{float32(x), 0, float32(x), float32(bottom)})
	label := MarkerLabel(at, loc)
	w := markerCharW * float64(len(label))
	// The box reaches 2 px past the text (web/timeline.js), and 1 px
	// clear of the line.
	tx, align := x+3, "l"
	if tx+w+2 > s.X0+s.Width {
		tx, align = x-3, "r"
	}
	t0 := len(fr.Texts)
	fr.addTextWithin(tx, axisH/2, w, label, ColorPanel, align, "b")
	fr.Texts[len(fr.Texts)-1].Box = ColorFg
	fr.flushTexts(t0)
}
