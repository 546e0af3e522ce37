package timeline

import "watchlens/parser"

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
