package timeline

import (
	"strconv"

	"watchlens/parser"
)

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

// Lane is one object in one file. A DELETED closes it; a re-created
// object (new uid, or same name after a delete when the capture has no
// uids) opens a new lane. Its events are Timeline.LaneEvents, their span
// Timeline.LaneSpan. Lanes.At reads a Lane from the compact table the
// Timeline keeps (see lanes.go); its uid is Lanes.UID.
type Lane struct {
	File                  int
	Kind, Namespace, Name string
	// Labels are the object's labels as its latest event carrying any gave
	// them (parser.Event.Labels form: "k=v" sorted, comma-joined).
	Labels  string
	Deleted bool
}

// Anomaly is something in the capture a correct server and recorder would
// not produce, or a symptom worth a look.
type Anomaly struct {
	// Kind: "rv-backwards", "repeated", "after-delete", "no-bookmarks",
	// "short-watch", "error-not-last".
	Kind    string
	File    int
	Session int // global session index
	Event   int // table index, -1 when the anomaly is about a session
	T       int64
	RV      string
	Msg     string
}

// Event is one event as the timeline keeps it (decoded from the compact
// table on demand).
type Event struct {
	Index   int
	T       int64
	Type    parser.EventType
	RV      string
	RVNum   uint64
	RVValid bool
	Lane    int // -1 for bookmarks and errors
	Session int
	File    int
	Offset  int64
	Length  int64
	// Initial marks an event of a sendInitialEvents initial burst.
	Initial          bool
	InitialEventsEnd bool
	// Timed is true when T is a measured arrival time, false when estimated.
	Timed  bool
	Status *parser.Status
	// Encoded and BodyOffset are parser.Event's: the event came from a
	// Content-Encoding body, and [Offset, Offset+Length) is the encoded
	// span that parser.EncodedEventJSON decodes again.
	Encoded    bool
	BodyOffset int64
}

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
