package canvas

import "watchlens/parser"

// Colours: Okabe-Ito, distinguishable with the common colour-vision
// deficiencies; every event type also has its own shape.
const (
	ColorAdded    = "#0072B2"
	ColorModified = "#E69F00"
	ColorDeleted  = "#D55E00"
	ColorObserved = "#8C8C8C"
	// A LISTED item is state, not a change: a ring, dark grey, apart
	// from every change's colour and from the session bars' blue.
	ColorListed   = "#4D4D4D"
	ColorBookmark = "#009E73"
	ColorError    = "#C00000"
	ColorZone     = "#E5172F"
	// A refused zone is drawn at zoneAlpha, an at-risk one at
	// zoneRiskAlpha: apart by lightness, which every eye tells.
	zoneAlpha      = 0.55
	zoneRiskAlpha  = 0.18
	ColorAware     = "#0072B2"
	ColorIgnoring  = "#CC79A7"
	ColorHead      = "#8C8C8C"
	ColorSession   = "#56B4E9"
	ColorSelection = "#F0E442"
	ColorFg        = "--fg"
	ColorMuted     = "--muted"
	ColorGrid      = "--border"
	ColorPanel     = "--panel"
)

// markStyle is how one event type is drawn.
type markStyle struct {
	shape, color string
}

// markStyles is indexed by parser.EventType; bookmarks and errors have
// no lane (they have bands of their own), so no entry.
var markStyles = [...]markStyle{
	parser.TypeUnknown: {"square", ColorObserved},
	parser.Added:       {"tri", ColorAdded},
	parser.Modified:    {"dot", ColorModified},
	parser.Deleted:     {"cross", ColorDeleted},
	parser.Observed:    {"diamond", ColorObserved},
	parser.Listed:      {"ring", ColorListed},
}
