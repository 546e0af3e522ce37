package canvas

import (
	"strings"
	"unicode"
)

// overLabelShare is the most of the plot's width a name drawn over it
// takes: the rest of the track stays in sight, and a tap on the track
// names it whole in the tooltip.
const overLabelShare = 0.45

// zoneLabelRoom is the room the time axis's zone name takes at the
// plot's left end when the labels are over the plot, with the half of a
// tick's label: no tick is labelled there.
const zoneLabelRoom = 50.0

// addLabel names a band, or writes a line of a track's legend, at height
// y. Beside a gutter it is right-aligned against the plot and cut to the
// gutter. On a canvas too narrow for one (Layout.LabelsOver) it goes over
// the plot's left end, left-aligned on a box of the page's background,
// as Chrome DevTools' Performance panel writes a track's name over its
// top-left: on a phone, a 72 px gutter cuts every name to a few letters
// and takes a fifth of the width from the plot.
//
// Over the plot a label with a short form is written short: it covers
// less of its band (a 410 zone band is 12 px high).
func (layout *Layout) addLabel(fr *Frame, y float64, text, short, color, font string) {
	if layout.LabelsOver {
		if short != "" {
			text = short
		}
		fr.addTextWithin(layout.PlotX+3, y, layout.PlotW*overLabelShare, text, color, "l", font)
		fr.Texts[len(fr.Texts)-1].Box = ColorBg
		return
	}
	fr.addLabelWithin(layout.PlotX-8, y, layout.PlotX-14, text, short, color, "r", font)
}

// labelY is the height of band b's name: its middle beside a gutter;
// over the plot, the middle of its top line, so that a tall band's name
// sits at its top-left.
func (layout *Layout) labelY(b Band) float64 {
	if layout.LabelsOver {
		return b.Y + min(b.Height, 16)/2
	}
	return b.Y + b.Height/2
}

// addScaleLabel writes a number of a band's scale at height y: in the
// gutter beside the plot, or over the plot's right end when the labels
// are over the plot (its left end holds the band's name).
func (layout *Layout) addScaleLabel(fr *Frame, y float64, text string) {
	if layout.LabelsOver {
		fr.addText(layout.PlotX+layout.PlotW-3, y, text, ColorMuted, "r", "")
		fr.Texts[len(fr.Texts)-1].Box = ColorBg
		return
	}
	fr.addText(layout.PlotX-8, y, text, ColorMuted, "r", "")
}

// labelWidth is at least the CSS px text takes in the canvas's regular
// 11 px font, which only the browser measures: as DejaVu Sans draws it
// (the font Debian's Chromium gives system-ui, and the widest of the
// usual ones), with a little to spare, for a label that must end within
// its room whole or be left out.
func labelWidth(text string) float64 {
	w := 0.0
	for _, r := range text {
		switch {
		case strings.ContainsRune(" .,:;'|!()[]/-ijlftr", r):
			w += 4.6
		case strings.ContainsRune("mwMW#%@", r) || r > unicode.MaxASCII:
			w += 11
		case r >= 'A' && r <= 'Z' || r == '&':
			w += 9
		default:
			w += 7.2
		}
	}
	return w
}
