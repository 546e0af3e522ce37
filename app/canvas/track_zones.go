package canvas

import (
	"strings"

	"watchlens/app/words"
	"watchlens/timeline"
)

// zoneBand is a file's band of the zones of one cursor kind, the one
// of its ID (see ZoneBandKind). The bookmark-aware cursor's band is the
// cursor as recorded: with the bookmarks the client got, none where it
// did not ask, so its label names no bookmarks.
type zoneBand struct{ id BandID }

func (z zoneBand) label() string {
	switch z.id {
	case BandZoneIgnoring:
		return "410 · ignoring bookmarks"
	case BandZoneHad:
		return "410 · had it asked"
	}
	return "410 · as recorded"
}

// shortLabel keeps the three zone bands apart in a phone's gutter, where
// each label cut to its start reads "410 · …".
func (z zoneBand) shortLabel() string {
	switch z.id {
	case BandZoneIgnoring:
		return "410 w/o"
	case BandZoneHad:
		return "410 asked"
	}
	return "410 rec."
}
func (zoneBand) height(int) float64 { return zoneH }
func (zoneBand) hit(c *Cache, v *View, p pointer) Hit {
	return Hit{Event: -1, Group: -1, Text: c.zonesAt(v, p)}
}

// zoneLayer paints the zone bands of every kind, and a folded file's
// zones under its name, in one pass.
type zoneLayer struct{}

// paint draws the zones of each cursor kind in its band: amber where
// a reconnect is at risk, red where it is refused, over the amber.
func (zoneLayer) paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame) {
	if v.Analysis == nil {
		return
	}
	for _, b := range layout.Bands {
		folded := b.ID == BandFile && b.Folded
		if b.ID != BandZoneAware && b.ID != BandZoneIgnoring && b.ID != BandZoneHad && !folded || !fr.shows(b) {
			continue
		}
		kind := ZoneBandKind(b.ID)
		y0, h := b.Y+1, b.Height-2
		if folded {
			// A folded file's zones under its name: those of its cursor
			// as it ran, with the bookmarks it got (none for a client
			// that did not ask, whose cursor it then is). The what-ifs'
			// cursors are its tracks': with them, a client whose
			// bookmarks kept it safe would show the red of the cursor
			// that ignored them.
			y0, h = b.Y+b.Height-foldStripH, foldStripH-1
			kind = timeline.BookmarkAware
		}
		for _, layer := range [...]struct {
			zones []timeline.Zone
			color string
		}{{v.Analysis.RiskZones, ColorRisk}, {v.Analysis.Zones, ColorZone}} {
			rects := c.rects[:0]
			for _, z := range layer.zones {
				if z.Kind != kind || !inFile(b, z.File) {
					continue
				}
				from, to := z.From, z.To
				if v.AxisRV {
					from, to = int64(z.FromRV), int64(z.ToRV)+1
				}
				if to <= v.From || from >= v.To {
					continue
				}
				x1, x2 := s.XClamped(from), s.XClamped(to)
				rects = append(rects, float32(x1), float32(y0), float32(max(x2-x1, 3)), float32(h))
			}
			fr.add(Op{Kind: "rect", Color: layer.color}, rects)
			c.rects = rects
		}
	}
}

// HasHad says whether a capture has the had-bookmarks cursor, and so a
// band for its zones.
func HasHad(an *timeline.Analysis) bool {
	if an == nil {
		return false
	}
	for _, cf := range an.HadBookmarks {
		if cf.Synthetic {
			return true
		}
	}
	return false
}

// ZoneBandKind is the cursor whose reconnects a zone band shows.
func ZoneBandKind(b BandID) timeline.CursorKind {
	switch b {
	case BandZoneIgnoring:
		return timeline.BookmarkIgnoring
	case BandZoneHad:
		return timeline.HadBookmarks
	}
	return timeline.BookmarkAware
}

// zonesAt lists, on the RV axis, the window models that refuse or put at
// risk a resume of cursor kind at the pointer's RV.
func zonesAt(an *timeline.Analysis, kind timeline.CursorKind, file int, at, slop int64) string {
	if an == nil {
		return ""
	}
	var lines []string
	for _, zs := range [][]timeline.Zone{an.Zones, an.RiskZones} {
		for _, z := range zs {
			if z.Kind == kind && (file < 0 || z.File == file) && at >= int64(z.FromRV)-slop && at < int64(z.ToRV)+1+slop {
				lines = append(lines, an.ZoneReason(z))
			}
		}
	}
	if len(lines) == 0 {
		return "no 410 here for the " + kind.String() + " cursor"
	}
	if len(lines) > 4 {
		lines = append(lines[:4], "…")
	}
	return "a resume from here (" + kind.String() + " cursor):\n" + strings.Join(lines, "\n")
}

// reconnectText says, in words, what a client of each capture that
// dropped at the instant under p and came back after the model's delay
// would get, per cursor kind; with one capture, the exact reason follows
// each. Off the shared clock it says that nothing was recorded there
// and, past its end, answers for its last instant, where the zones stop
// (marks names them, "" for none), then what an Alt-click there asks.
func (c *Cache) reconnectText(an *timeline.Analysis, kinds []timeline.CursorKind, p pointer, marks string) string {
	if an == nil || c.noClock {
		return ""
	}
	switch c.offClock(p.at) {
	case -1:
		return c.beginsText()
	case 1:
		t := c.endsText(marks)
		if last := c.dropText(an, kinds, c.end, p.band); last != "" {
			t += "\n" + last
		}
		return t + "\n" + c.askLaterText(p.s.Roundest(p.at))
	}
	return c.dropText(an, kinds, p.at, p.band)
}

// dropText is reconnectText at instant at of the shared clock.
func (c *Cache) dropText(an *timeline.Analysis, kinds []timeline.CursorKind, at int64, band Band) string {
	tl := c.tl
	var b strings.Builder
	b.WriteString("a drop at " + c.FormatTime(at))
	if d := an.Params.Delay; d > 0 {
		b.WriteString(", back " + timeline.FormatDuration(int64(d)) + " later")
	}
	b.WriteString(":")
	shown := 0
	for fi, f := range tl.Files {
		if f.Clock == timeline.ClockNone || at < f.Start || !inFile(band, fi) {
			continue
		}
		if shown++; shown > 4 {
			b.WriteString("\n…")
			break
		}
		for _, k := range kinds {
			if k == timeline.HadBookmarks && !an.HadBookmarks[fi].Synthetic {
				continue
			}
			v := an.Verdict(fi, k, at, an.Params.Delay)
			b.WriteString("\n")
			if len(tl.Files) > 1 {
				b.WriteString(words.Isolated(f.Name) + ", ")
			}
			b.WriteString(k.Words() + ": " + an.Words(v))
			if len(tl.Files) == 1 && v.Outcome != timeline.Accepted {
				b.WriteString("\n  (" + v.Reason + ")")
			}
		}
	}
	if shown == 0 {
		return ""
	}
	return b.String()
}

// zonesAt reads a zone band under pointer p: on the RV axis, the models
// that refuse a resume from the pointer's RV; on the time axis, what a
// client that dropped then would get.
func (c *Cache) zonesAt(v *View, p pointer) string {
	kind := ZoneBandKind(p.band.ID)
	if v.AxisRV {
		return zonesAt(v.Analysis, kind, p.band.File, p.at, p.slop)
	}
	return c.reconnectText(v.Analysis, []timeline.CursorKind{kind}, p, "the zones")
}
