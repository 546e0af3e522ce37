package canvas

import (
	"math"
	"sort"
)

// The fleet view's bands, CSS pixels: the axis, the curves of clients a
// reconnect would send to a relist, the histogram of relists seen, then a
// row per client, of which only those in view are drawn.
const (
	fleetCurvesH  = 104.0
	fleetHistH    = 44.0
	FleetRowH     = 15.0
	fleetRowsShow = 40 // the rows scroll beyond this many
	fleetBinPx    = 4.0
)

// FleetArea names what lies under a point of the fleet view.
type FleetArea int

const (
	FleetNone FleetArea = iota
	FleetAxis
	FleetCurves
	FleetHistogram
	FleetRows
)

// FleetLayout places the fleet view's bands in a canvas of width Width.
type FleetLayout struct {
	Width, Height  float64
	PlotX, PlotW   float64
	CurvesY, HistY float64
	RowsY, RowsH   float64 // the row area's top and visible height
	ContentH       float64 // the height of every row and header
	Rows           int
	// Groups are the runs of rows by server (FleetData.Groups), each
	// under a header that takes a row's height of its own, so that its
	// name is never drawn over a client's row.
	Groups []FleetGroup
	// RestartLabels are where the frame built writes the API server
	// restarts' names (see layoutRestartLabels), in the scratch space the
	// next frame reuses.
	RestartLabels []RestartLabel
}

// NewFleetLayout lays out rows clients, with a header above each of
// groups, in a canvas w wide and at most maxH high (0: no bound,
// fleetRowsShow rows in view); names is the room the clients' names ask
// for (FleetData.namesRoom), which the gutter gives them up to
// fleetNamesMost.
func NewFleetLayout(w, maxH float64, rows int, groups []FleetGroup, names float64) FleetLayout {
	g := max(fleetGutterFor(w), min(names, fleetNamesMost(w)))
	l := FleetLayout{Width: w, PlotX: g, PlotW: max(w-g-rightPad, 40), Rows: rows, Groups: groups}
	l.CurvesY = axisH + bandGap
	l.HistY = l.CurvesY + fleetCurvesH + bandGap
	l.RowsY = l.HistY + fleetHistH + bandGap
	l.ContentH = float64(rows+len(groups)) * FleetRowH
	show := float64(fleetRowsShow)
	if maxH > 0 {
		show = max(math.Floor((maxH-l.RowsY-2)/FleetRowH), minRowsShow)
	}
	l.RowsH = min(l.ContentH, show*FleetRowH)
	l.Height = l.RowsY + max(l.RowsH, FleetRowH) + 2
	return l
}

// fleetGutterFor is the room of the clients' names left of the plot in a
// canvas w CSS pixels wide: the timeline's gutter (gutterFor), but up to
// a third of a narrow canvas rather than a fifth. A fleet's names share
// their start (fleet-c16-nobookmarks, fleet-c18-...), and on a phone a
// fifth cut each to "fleet-c…", which told no row from another; a third
// keeps a name's first 16 or so letters, and the tooltip over a row
// names its client whole.
func fleetGutterFor(w float64) float64 {
	return min(gutterW, max(gutterFor(w), w/3))
}

// fleetNamesMost is the most the gutter grows to for the clients' names
// in a canvas w wide: a quarter of a wide canvas, where the timeline's
// gutter cut names such as "✗ …labelSelector=shard=s17" with most of
// the width left to the plot; on a phone, no more than fleetGutterFor.
func fleetNamesMost(w float64) float64 {
	return max(fleetGutterFor(w), w/4)
}

// AreaAt says what lies at height y.
func (l *FleetLayout) AreaAt(y float64) FleetArea {
	switch {
	case y >= 0 && y < axisH:
		return FleetAxis
	case y >= l.CurvesY && y < l.CurvesY+fleetCurvesH:
		return FleetCurves
	case y >= l.HistY && y < l.HistY+fleetHistH:
		return FleetHistogram
	case y >= l.RowsY && y < l.RowsY+l.RowsH:
		return FleetRows
	}
	return FleetNone
}

// The rows and the headers stack in slots of FleetRowH: row r sits in
// slot r plus the headers above it, and group i's header in slot
// Groups[i].First+i.

// slot is the slot of row r.
func (l *FleetLayout) slot(r int) int {
	return r + sort.Search(len(l.Groups), func(i int) bool { return l.Groups[i].First > r })
}

// headsBefore is how many headers sit in the slots before slot s: group
// headsBefore(s)'s header is the first at or after it.
func (l *FleetLayout) headsBefore(s int) int {
	return sort.Search(len(l.Groups), func(i int) bool { return l.Groups[i].First+i >= s })
}

// rowsBefore is how many rows sit in the slots before slot s.
func (l *FleetLayout) rowsBefore(s int) int { return s - l.headsBefore(s) }

// slotAt is the slot under y with the rows scrolled by scrollY; false
// off the row area.
func (l *FleetLayout) slotAt(y, scrollY float64) (int, bool) {
	if l.AreaAt(y) != FleetRows {
		return 0, false
	}
	return int(math.Floor((y - l.RowsY + scrollY) / FleetRowH)), true
}

// RowAt is the row under y with the rows scrolled by scrollY, -1 for
// none or a header.
func (l *FleetLayout) RowAt(y, scrollY float64) int {
	s, ok := l.slotAt(y, scrollY)
	if !ok {
		return -1
	}
	r := l.rowsBefore(s)
	if r < 0 || r >= l.Rows || l.slot(r) != s {
		return -1
	}
	return r
}

// RowY is the top of row r scrolled by scrollY.
func (l *FleetLayout) RowY(r int, scrollY float64) float64 {
	return l.RowsY + float64(l.slot(r))*FleetRowH - scrollY
}

// HeadAt is the group whose header is under y with the rows scrolled by
// scrollY, or -1.
func (l *FleetLayout) HeadAt(y, scrollY float64) int {
	s, ok := l.slotAt(y, scrollY)
	if !ok {
		return -1
	}
	if i := l.headsBefore(s); i < len(l.Groups) && l.Groups[i].First+i == s {
		return i
	}
	return -1
}

// HeadY is the top of group i's header scrolled by scrollY.
func (l *FleetLayout) HeadY(i int, scrollY float64) float64 {
	return l.RowsY + float64(l.Groups[i].First+i)*FleetRowH - scrollY
}

// ClampScroll keeps the rows' scroll offset inside their content.
func (l *FleetLayout) ClampScroll(s float64) float64 {
	return math.Max(0, math.Min(s, l.ContentH-l.RowsH))
}

// VisibleRows is the range [first, last) of the rows in view.
func (l *FleetLayout) VisibleRows(scrollY float64) (int, int) {
	first := l.rowsBefore(max(int(scrollY/FleetRowH), 0))
	last := min(l.rowsBefore(int(math.Ceil((scrollY+l.RowsH)/FleetRowH))), l.Rows)
	return first, max(first, last)
}

// fleetMinRows is how many rows the stage keeps room for at least.
const fleetMinRows = 12

// MinHeight is the least height a canvas of the fleet needs: its bands
// and up to fleetMinRows rows.
func (d *FleetData) MinHeight() float64 {
	l := NewFleetLayout(400, 0, len(d.Rows), d.Groups, 0)
	return l.RowsY + min(l.ContentH, fleetMinRows*FleetRowH) + 2
}
