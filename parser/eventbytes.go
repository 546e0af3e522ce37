package parser

import (
	"fmt"
	"io"
	"sort"
)

// EventSpan is where an event's bytes lie in its capture, as Event gives
// them: Offset and Length in the decoded stream, and for an Encoded event
// the offset of its first byte in its decoded body.
type EventSpan struct {
	Offset, Length int64
	Encoded        bool
	BodyOffset     int64
}

// EventsJSON reads events' JSON again from the capture they came from, by
// their spans. readRange reads bytes [from, to) of the capture as stored:
// for a plain file a span is the file's own bytes, so only the event is
// read. When they are not there, the file is compressed (or UTF-16), and
// open, which opens the capture from its first byte, is called once to
// decode it again up to the last such span. An Encoded event's span is
// the encoded bytes of its response, which are decoded again too.
func EventsJSON(spans []EventSpan, readRange func(from, to int64) ([]byte, error), open func() (io.ReadCloser, error)) ([][]byte, error) {
	out := make([][]byte, len(spans))
	var encoded []int // the events whose spans need the file decoded
	for k, ev := range spans {
		span, err := readRange(ev.Offset, ev.Offset+ev.Length)
		if err != nil {
			return nil, err
		}
		if js, err := ev.json(span); err == nil {
			out[k] = js
		} else {
			encoded = append(encoded, k)
		}
	}
	if len(encoded) == 0 {
		return out, nil
	}
	sort.Slice(encoded, func(a, b int) bool { return spans[encoded[a]].Offset < spans[encoded[b]].Offset })
	file, err := open()
	if err != nil {
		return nil, err
	}
	defer file.Close()
	r := Decoded(file)
	// The decoded bytes [winAt, winAt+len(win)) are kept while the spans
	// overlap them: the events of one Content-Encoding response all start
	// theirs at the response, and end them where their bytes were decoded.
	var win []byte
	var winAt int64
	for _, k := range encoded {
		ev := spans[k]
		if pos := winAt + int64(len(win)); ev.Offset >= pos {
			if _, err := io.CopyN(io.Discard, r, ev.Offset-pos); err != nil {
				return nil, fmt.Errorf("decoding the capture up to offset %d: %w", ev.Offset, err)
			}
			// Not win[:0]: the JSON handed out may be part of it.
			win, winAt = nil, ev.Offset
		}
		if more := ev.Offset + ev.Length - (winAt + int64(len(win))); more > 0 {
			n := len(win)
			win = append(win, make([]byte, more)...)
			if _, err := io.ReadFull(r, win[n:]); err != nil {
				return nil, fmt.Errorf("decoding the event at offset %d: %w", ev.Offset, err)
			}
		}
		js, err := ev.json(win[ev.Offset-winAt : ev.Offset-winAt+ev.Length])
		if err != nil {
			return nil, err
		}
		out[k] = js
	}
	return out, nil
}

// json is the event's JSON from its span of the decoded stream.
func (ev EventSpan) json(span []byte) ([]byte, error) {
	if ev.Encoded {
		return EncodedEventJSON(span, ev.BodyOffset)
	}
	return EventJSON(span)
}
