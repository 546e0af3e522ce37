package canvas

// fileBand heads a file's group of bands when several files are open:
// a fold mark and its name in the gutter, bold, and at the right end the
// pin. A folded group's zones show in it (see zoneLayer). A click on it
// anywhere folds, or on the pin pins, so it answers in the gutter too.
type fileBand struct{}

// label is empty: the layout names the band after its file.
func (fileBand) label() string      { return "" }
func (fileBand) height(int) float64 { return fileH }
func (fileBand) answersInGutter()   {}

func (fileBand) drawGutter(c *Cache, v *View, layout *Layout, b Band, fr *Frame) bool {
	fr.rect(ColorGrid, 0.6, 0, b.Y, layout.Width, b.Height)
	mark, pin := "▾ ", "pin to top"
	if b.Folded {
		mark = "▸ "
	}
	if v.PinnedFiles.Has(b.File) {
		pin = "unpin"
	}
	w, y := layout.Width-12-pinW, b.Y+b.Height/2
	if b.Folded {
		// Its words sit above its zone strip, which runs under the pin
		// too.
		y = b.Y + (b.Height-foldStripH)/2
		if !layout.LabelsOver {
			w = layout.PlotX - 14
		}
	}
	if v.Print {
		fr.addTextWithin(6, y, w, b.Label, ColorFg, "l", "b")
		return true
	}
	fr.addTextWithin(6, y, w, mark+b.Label, ColorFg, "l", "b")
	fr.addText(layout.Width-rightPad, y, pin, ColorMuted, "r", "")
	return true
}

func (fileBand) hit(c *Cache, v *View, p pointer) Hit {
	b := p.band
	h := Hit{Event: -1, Group: -1, FileBand: true, File: b.File, Pin: p.x >= p.layout.Width-rightPad-pinW}
	switch {
	case h.Pin && v.PinnedFiles.Has(b.File):
		h.Text = b.Label + "\nclick: unpin its tracks"
	case h.Pin:
		h.Text = b.Label + "\nclick: pin its tracks to the top"
	case b.Folded:
		h.Text = b.Label + "\nthe strip under it: a reconnect of its cursor as it ran, red where refused (410 Gone), amber where at risk\nclick: unfold its tracks"
	default:
		h.Text = b.Label + "\nclick: fold its tracks into this line"
	}
	return h
}
