package canvas

import "math"

// Band heights and margins, in CSS pixels.
const (
	gutterW    = 176.0 // labels left of the plot
	minGutterW = 72.0  // the labels' least room: the fleet's, on the narrowest canvas
	// overW is the widest timeline whose labels go over the plot instead
	// of beside it (see Layout.LabelsOver), and overPad the plot's margin
	// left of it then.
	overW     = 560.0
	overPad   = 4.0
	rightPad  = 12.0
	axisH     = 26.0
	densityH  = 22.0
	sessionH  = 18.0
	bookmarkH = 16.0
	zoneH     = 12.0
	cursorH   = 84.0
	fileH     = 18.0
	// foldStripH is the strip at the bottom of a folded file's band
	// where its zones show, with the pixel above it.
	foldStripH  = 4.0
	pinW        = 70.0 // the pin's room at the right end of a file's band
	bandGap     = 4.0
	RowHeight   = 16.0
	maxRowsShow = 28 // the lane area scrolls beyond this many rows
	minRowsShow = 4  // however little room the window leaves
	markSize    = 9.0
	hitSlop     = 5.0 // how far from a mark a click still selects it
)

// BandID names the fixed bands above the lanes.
type BandID int

const (
	BandAxis BandID = iota
	BandDensity
	BandSessions
	BandBookmarks
	BandZoneAware
	BandZoneIgnoring
	BandZoneHad
	BandCursors
	BandLanes
	// BandFile heads a file's group of bands when several files are
	// open: its name, above its sessions, bookmarks, zones and cursors.
	BandFile
	// BandTrack is a track that draws and answers for itself (see
	// track): an API server's, on the shared clock.
	BandTrack
	BandNone
)

type Band struct {
	ID        BandID
	Y, Height float64
	Label     string
	// Short is the label's short form, for a gutter too narrow for Label
	// ("" when the label has none).
	Short string
	// File is the file whose tracks the band shows, -1 for all (one file
	// open, or the shared axis and density bands).
	File int
	// RVTop and RVBot are, for a cursor band in the frame built, the RVs
	// at its top and bottom (equal when it is empty, or out of the rows
	// the frame draws).
	RVTop, RVBot uint64
	// Folded says, of a BandFile band, that its file's other bands are
	// folded into it.
	Folded bool
	// Track is, of a BandTrack band, its track's index in the cache's.
	Track int
}

// Layout places the bands and the plot inside a canvas of width w.
type Layout struct {
	Width, Height float64
	PlotX, PlotW  float64
	Bands         []Band
	LanesY        float64 // top of the lane area
	LanesH        float64 // its visible height
	ContentH      float64 // height of all rows
	// CursorTop and CursorBot are the RVs at the cursor strip's top and
	// bottom in the frame built (equal when it is empty).
	CursorTop, CursorBot uint64
	// FilesNotDrawn counts the files past MaxFileGroups, which have no
	// group of tracks.
	FilesNotDrawn int
	// LabelsOver says the canvas is too narrow for a gutter (a phone's):
	// the plot takes the width, and each band's, track's and lane's name
	// is drawn over its top-left (see addLabel).
	LabelsOver bool
}

// MaxFileGroups is how many files' groups of tracks a timeline stacks,
// the pinned first. Each is a band of its name at least and a few
// hundred KB of frame, whose memory wasm never gives back: a broad
// capture split into 10 000 virtual clients stacked 10 000 of them and
// ran the page out of memory. The fleet view shows every client.
const MaxFileGroups = 64

// NewLayout stacks the bands; the cursor strip only exists on the time axis
// (it plots RV against time), and the had-bookmarks band only when a
// capture has that counterfactual cursor.
func NewLayout(w float64, rows int, axisRV, had bool) Layout {
	return FitLayout(w, 0, rows, axisRV, had)
}

// FitLayout is NewLayout for a canvas at most maxH CSS pixels high (0: no
// bound, the lane area showing up to maxRowsShow rows): the lane area
// takes what the bands above leave, at least minRowsShow rows.
func FitLayout(w, maxH float64, rows int, axisRV, had bool) Layout {
	return FileLayout(w, maxH, rows, nil, axisRV, had, FileSet{}, FileSet{})
}

// FileLayout is FitLayout for the files named: with two or more, each
// file has a group of bands of its own (sessions, bookmarks, zones,
// cursors) under a band with its name, instead of sharing them. The
// groups of the files in pinned come first; those in folded show their
// name band alone.
func FileLayout(w, maxH float64, rows int, files []string, axisRV, had bool, folded, pinned FileSet) Layout {
	return stackLayout(w, maxH, rows, files, nil, axisRV, had, folded, pinned, FileSet{})
}

// stackLayout is FileLayout with the tracks under the density band: on
// the time axis only, since they plot what happened when. The files in
// unread hold nothing to draw (timeline.NotCapture: the README and the
// notes selected with an incident's records) and have no group: they
// took the first of the MaxFileGroups, and with one record beside them
// it had a group of its own rather than the bands.
func stackLayout(w, maxH float64, rows int, files []string, tracks []track, axisRV, had bool, folded, pinned, unread FileSet) Layout {
	g := gutterFor(w)
	over := w < overW
	if over {
		g = overPad
	}
	layout := Layout{Width: w, PlotX: g, PlotW: max(w-g-rightPad, 40), LabelsOver: over}
	y := 0.0
	file := -1
	groups := []string{""}
	if len(files)-unread.Len() > 1 {
		groups = files
	}
	add := func(id BandID, h float64, label string) {
		layout.Bands = append(layout.Bands, Band{ID: id, Y: y, Height: h, Label: label, File: file})
		y += h + bandGap
	}
	// stack adds a band as high and named as its kind says.
	stack := func(id BandID) {
		k := kinds[id].(stacked)
		add(id, k.height(len(groups)), k.label())
		if sh, ok := k.(shortLabeled); ok {
			layout.Bands[len(layout.Bands)-1].Short = sh.shortLabel()
		}
	}
	stack(BandAxis)
	stack(BandDensity)
	addTracks := func() {
		if axisRV {
			return
		}
		for k, t := range tracks {
			add(BandTrack, t.height(), t.label())
			layout.Bands[len(layout.Bands)-1].Track = k
		}
	}
	order := make([]int, 0, len(groups))
	for _, first := range []bool{true, false} {
		for f := range groups {
			if pinned.Has(f) == first && (len(groups) == 1 || !unread.Has(f)) {
				order = append(order, f)
			}
		}
	}
	if len(order) > MaxFileGroups {
		layout.FilesNotDrawn = len(order) - MaxFileGroups
		order = order[:MaxFileGroups]
	}
	// The pinned groups come first, above the servers' tracks too: a
	// client opened from the fleet (or found by name) is what the user
	// looks at, and the tracks of a few API servers fill the panel.
	pinnedN := 0
	for len(groups) > 1 && pinnedN < len(order) && pinned.Has(order[pinnedN]) {
		pinnedN++
	}
	for i, f := range order {
		if i == pinnedN {
			addTracks()
		}
		if len(groups) > 1 {
			file = f
			stack(BandFile)
			layout.Bands[len(layout.Bands)-1].Label = groups[f]
			if folded.Has(f) {
				layout.Bands[len(layout.Bands)-1].Folded = true
				continue
			}
		}
		stack(BandSessions)
		stack(BandBookmarks)
		stack(BandZoneAware)
		stack(BandZoneIgnoring)
		if had {
			stack(BandZoneHad)
		}
		if !axisRV {
			stack(BandCursors)
		}
	}
	if pinnedN == len(order) {
		addTracks()
	}
	layout.LanesY = y
	layout.ContentH = float64(rows) * RowHeight
	layout.LanesH = layout.lanesIn(maxH)
	layout.Height = layout.LanesY + max(layout.LanesH, RowHeight) + 2
	return layout
}

// lanesIn is the lane area's visible height in a canvas at most maxH CSS
// pixels high (0: no bound): what the bands leave, in whole rows.
func (layout *Layout) lanesIn(maxH float64) float64 {
	show := float64(maxRowsShow)
	if maxH > 0 {
		show = max(math.Floor((maxH-layout.LanesY-2)/RowHeight), minRowsShow)
	}
	return min(layout.ContentH, show*RowHeight)
}

// FitsRoom says whether the layout is the one a canvas at most maxH CSS
// pixels high (0: no bound) gets at the same width: the room decides
// only how many rows the lane area shows, so a frame drawn for one room
// is the frame of any other that shows as many.
func (layout *Layout) FitsRoom(maxH float64) bool {
	return layout.lanesIn(maxH) == layout.LanesH
}

// MinHeight is the least height a canvas of this layout needs: its bands
// and at most minRowsShow rows.
func (layout *Layout) MinHeight() float64 {
	return layout.LanesY + max(min(layout.ContentH, minRowsShow*RowHeight), RowHeight) + 2
}

// BandByID is the band id, if the layout has it.
func (layout *Layout) BandByID(id BandID) (Band, bool) { return layout.bandByID(id) }

func (layout *Layout) bandByID(id BandID) (Band, bool) {
	for _, b := range layout.Bands {
		if b.ID == id {
			return b, true
		}
	}
	return Band{}, false
}

// BandUnder is the band under y, if any (not the lane area).
func (layout *Layout) BandUnder(y float64) (Band, bool) {
	for _, b := range layout.Bands {
		if y >= b.Y && y < b.Y+b.Height {
			return b, true
		}
	}
	return Band{}, false
}

// BandAt says which band is under y.
func (layout *Layout) BandAt(y float64) BandID {
	if y >= layout.LanesY && y < layout.LanesY+layout.LanesH {
		return BandLanes
	}
	for _, b := range layout.Bands {
		if y >= b.Y && y < b.Y+b.Height {
			return b.ID
		}
	}
	return BandNone
}

// RowAt is the row under y given the lane area's scroll offset, or -1.
func (layout *Layout) RowAt(y, scrollY float64, rows int) int {
	if y < layout.LanesY || y >= layout.LanesY+layout.LanesH {
		return -1
	}
	r := int((y - layout.LanesY + scrollY) / RowHeight)
	if r < 0 || r >= rows {
		return -1
	}
	return r
}

// ClampScroll keeps the lane area's scroll offset inside its content.
func (layout *Layout) ClampScroll(s float64) float64 {
	return math.Max(0, math.Min(s, layout.ContentH-layout.LanesH))
}

// gutterFor is the labels' room left of the plot in a canvas w CSS pixels
// wide: a fifth of it at most, so that on a phone the plot keeps most of
// the width and the labels are cut short instead. A timeline narrower
// than overW has none (see Layout.LabelsOver); the fleet's rows keep
// their clients' names in a wider one (fleetGutterFor).
func gutterFor(w float64) float64 {
	return min(gutterW, max(minGutterW, w/5))
}
