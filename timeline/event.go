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
	// StampedLate is, for an event whose last bytes the capture stamps
	// more than LateStamp after its first (parser.Event.Began), how much
	// later; T is then its first bytes' time. 0 otherwise.
	StampedLate int64
}

// LateStamp is how much later than its first bytes a capture must stamp
// an event's last for the timeline to place the event at its first. A
// frame comes whole from one write of the server, its pieces
// microseconds apart. samples-watchlist's protobuf captures stamp each
// bookmark's last piece with the next frame's time, a minute later: the
// bookmark's RV is the cluster's head at its first piece's time (and a
// minute behind at its last), and client-go's own log has p00's first
// bookmark read at its first piece's time. Stamps of whole seconds put
// one second between pieces a microsecond apart: the bound is that, not
// reached.
const LateStamp = time.Second
