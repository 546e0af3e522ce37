package timeline

import "strconv"

// CursorKind names the two client behaviours the timeline contrasts.
type CursorKind uint8

const (
	// BookmarkAware is client-go's lastSyncResourceVersion: moved by every
	// event and bookmark, frozen during a sendInitialEvents burst.
	BookmarkAware CursorKind = iota
	// BookmarkIgnoring keeps the RV of the last ADDED/MODIFIED/DELETED seen.
	BookmarkIgnoring
	// HadBookmarks is the counterfactual: the bookmark-aware cursor of a
	// client that asked for bookmarks where the recorded one did not
	// (Analysis.HadBookmarks).
	HadBookmarks
)

// CursorKinds lists the two recorded kinds in report order (each file has
// both in Timeline.Cursors).
var CursorKinds = [...]CursorKind{BookmarkAware, BookmarkIgnoring}

var cursorKindNames = [...]string{"bookmark-aware", "bookmark-ignoring", "had-bookmarks"}

func (k CursorKind) String() string { return cursorKindNames[k] }

var cursorKindWords = [...]string{"with the bookmarks it received", "ignoring bookmarks", "had it asked for bookmarks"}

// Words names the cursor as the summary and the page say it, beside a
// verdict: "with the bookmarks it received", "ignoring bookmarks", "had it asked for
// bookmarks".
func (k CursorKind) Words() string { return cursorKindWords[k] }

// unsetRV marks a cursor step with no cursor (a watch from "now"), and
// unknownRV one whose value no capture shows (a counterfactual bookmark
// when nothing watched the head). etcd revisions are int64, so neither
// is a real resourceVersion.
const (
	unsetRV   = ^uint64(0)
	unknownRV = unsetRV - 1
)

// FormatRV renders a cursor's or the head's resourceVersion; empty for a
// step with no cursor or one whose value no capture shows.
func FormatRV(v uint64) string {
	if v == unsetRV || v == unknownRV {
		return ""
	}
	return strconv.FormatUint(v, 10)
}

// NoRV is the resourceVersion of a step with no cursor (Steps.RV), and
// serves as "no resourceVersion" wherever a uint64 stands for one.
const NoRV = unsetRV
