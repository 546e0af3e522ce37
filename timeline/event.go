package timeline

import (
	"time"

	"watchlens/parser"
)

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
	// Began is when the event's first bytes arrived, where that was
	// HeldBack or more before its last (T), as when an API server holds
	// a protobuf frame's last bytes until its next write; 0 otherwise.
	// A client reads an event only whole, at T.
	Began int64
}

// HeldBack is how long before its last bytes an event's first must have
// arrived for Event.Began to say so: a frame's pieces come microseconds
// apart, and a frame held back waits for the server's next write.
const HeldBack = time.Second
