// Package parser turns the bytes of a recorded Kubernetes watch capture into
// compact event records. It sniffs and unwraps the capture's layers
// (compression, arrival-time prefixes, HTTP heads, chunked framing, a
// body's Content-Encoding) and the body's form (NDJSON, concatenated or
// pretty-printed JSON, YAML, Kubernetes protobuf), streams with bounded memory, and reports bad input with its byte offset while
// reading on. It knows nothing of the timeline or the UI.
package parser

// EventType is a watch event's type as sent on the wire, plus Observed for a
// bare object printed by `kubectl get -w -o json`, which carries no type: a
// guessed ADDED or MODIFIED would be a lie the timeline could not undo; and
// Listed for an item of a list response (a LIST's answer), which is the
// state of an object at the list's resourceVersion, not a change.
type EventType uint8

const (
	TypeUnknown EventType = iota
	Added
	Modified
	Deleted
	Bookmark
	Error
	Observed
	Listed
)

var eventTypeNames = [...]string{"UNKNOWN", "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR", "OBSERVED", "LISTED"}

func (t EventType) String() string {
	if int(t) < len(eventTypeNames) {
		return eventTypeNames[t]
	}
	return "UNKNOWN"
}

// ParseEventType maps a wire type name to its EventType (TypeUnknown if none).
func ParseEventType(s string) EventType {
	for i, n := range eventTypeNames {
		if n == s && i != int(TypeUnknown) {
			return EventType(i)
		}
	}
	return TypeUnknown
}

// Event is one watch event (or observed object) as read from a capture.
// Strings are interned by the Reader, so keeping many Events shares them.
type Event struct {
	Seq     int   // 0-based ordinal over the whole capture
	Session int   // index into Reader.Sessions()
	Offset  int64 // byte offset of the event's first byte in the decompressed stream (but see Encoded)
	Length  int64 // bytes from Offset to the event's last byte in the decompressed stream (framing inside included)

	Type       EventType
	Kind       string
	APIVersion string
	Namespace  string
	Name       string
	UID        string

	// Labels is metadata.labels as "key=value" pairs sorted by key and
	// joined by commas, "" when none (and for YAML captures, which are
	// read for the fields above only).
	Labels string

	RV      string // metadata.resourceVersion exactly as sent
	RVNum   uint64 // RV parsed as the API server does (uint64); valid only if RVValid
	RVValid bool

	// Identity numbers the event's object, its UID, Name and Namespace:
	// one Reader never gives two objects the same number, and gives the
	// events of one object the same number while it recurs within some
	// 16 000 other strings that the Reader interns (its intern table is
	// bounded); an object seen again after longer gets a new one. Numbers
	// rise from 1; 0 when the Reader did not number the event (it numbers
	// what its fast path reads). Numbers of different Readers are
	// unrelated. A consumer can keep per-object state in a slice indexed
	// by the number, where a map keyed by a 36-byte uid costs many times
	// as much as wasm.
	Identity uint32

	// Arrival is the capture's arrival time of the line that ends the event,
	// in Unix nanoseconds; 0 when the capture has no times. For an Encoded
	// event it is the time of the line holding the encoded bytes whose
	// decoding gave the event's last byte (the decompressor gives bytes out
	// as the sender flushed them, so in practice the line that ends the
	// flush holding the event).
	Arrival int64
	// Began is the arrival time of the line that holds the event's first
	// byte, where the event came in lines of different times and is a
	// watch event (not a LIST's item); 0 otherwise, when the event began
	// arriving as it ended (Arrival). One frame of the server comes in
	// pieces microseconds apart, so a Began long before Arrival tells of
	// the recorder: samples-watchlist's protobuf captures stamp a frame's
	// last piece only with the next frame, a minute late.
	Began int64
	// Estimated is a time estimated from the object itself (newest
	// managedFields[].time, else deletion/creation timestamp), Unix
	// nanoseconds, 1 s resolution; 0 when none. Never an arrival time.
	Estimated int64

	// InitialEventsEnd is set on the bookmark that carries the annotation
	// k8s.io/initial-events-end: "true" (sendInitialEvents streams).
	InitialEventsEnd bool

	// Encoded is set for an event read from a response body sent with a
	// Content-Encoding (gzip, deflate, zstd), whose bytes are not in the
	// capture as such. Offset is then the offset of the event's session
	// (Session.Offset: its request or status line), and Length runs from
	// there to the end of the encoded bytes whose decoding gave the event's
	// last byte; BodyOffset is the offset of the event's first byte in the
	// decoded body. EncodedEventJSON fetches the event again from that span
	// by decoding the response afresh; EventJSON cannot.
	Encoded    bool
	BodyOffset int64

	// Status is set for ERROR events (and bare Status bodies).
	Status *Status
}

// Status is the part of a metav1.Status the analysis needs.
type Status struct {
	Code    int
	Reason  string
	Message string
	// TooOld is set when Message is `too old resource version: X (Y)`:
	// X is the requested RV, Y the lowest RV the server still accepted.
	TooOld bool
	// TooLarge is set when Message is `Too large resource version: X, current: Y`.
	TooLarge bool
	X, Y     uint64
}
