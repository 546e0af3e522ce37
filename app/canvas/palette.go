package canvas

import "watchlens/parser"

// Colours: Okabe-Ito, distinguishable with the common colour-vision
// deficiencies; every event type also has its own shape. They are the
// page's custom properties (web/app.css), so that each theme holds every
// mark and zone to 3:1 against its track and an ERROR to 3:1 against a
// zone it crosses (measured from the pixels by e2e TestBrowserContrast):
// the light theme darkens the orange, vermillion and sky blue, the dark
// theme draws LISTED rings light grey and an ERROR light pink.
const (
	ColorAdded    = "--c-added"
	ColorModified = "--c-modified"
	ColorDeleted  = "--c-deleted"
	ColorObserved = "--c-observed"
	// A LISTED item is state, not a change: a ring, grey, apart from
	// every change's colour and from the session bars' blue.
	ColorListed   = "--c-listed"
	ColorBookmark = "--c-bookmark"
	ColorError    = "--c-error"
	// Zones are opaque, red where a reconnect is refused, amber where it
	// is at risk: a pale zone cannot stand 3:1 against its track.
	ColorZone      = "--c-zone"
	ColorRisk      = "--c-risk"
	ColorAware     = "--c-aware"
	ColorIgnoring  = "--c-ignoring"
	ColorHead      = "--c-head"
	ColorSession   = "--c-session"
	ColorSelection = "--c-selection"
	ColorFg        = "--fg"
	ColorMuted     = "--muted"
	ColorGrid      = "--border"
	ColorPanel     = "--panel"
	ColorBg        = "--bg"
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
