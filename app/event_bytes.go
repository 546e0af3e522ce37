package app

import (
	"fmt"
	"io"
	"sort"

	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// eventsJSON fetches events' JSON again from the file they came from, by
// their spans in the decoded stream. For a plain file a span is the file's
// own bytes, sliced on the JS side so only the event crosses into Go; when
// they are not there, the file is compressed (or UTF-16) and is decoded
// again, once for all the events, up to the last span. An event from a
// Content-Encoding body has the encoded bytes of its response as span,
// which the parser decodes again. It runs in a goroutine.
func eventsJSON(blob goapp.Value, evs ...timeline.Event) ([][]byte, error) {
	out := make([][]byte, len(evs))
	var encoded []int // the events whose spans need the file decoded
	for k, ev := range evs {
		span, err := blobBytes(blob, ev.Offset, ev.Offset+ev.Length)
		if err != nil {
			return nil, err
		}
		if js, err := spanJSON(ev, span); err == nil {
			out[k] = js
		} else {
			encoded = append(encoded, k)
		}
	}
	if len(encoded) == 0 {
		return out, nil
	}
	sort.Slice(encoded, func(a, b int) bool { return evs[encoded[a]].Offset < evs[encoded[b]].Offset })
	blobs := newBlobReader(blob)
	defer blobs.Close()
	r := parser.Decoded(blobs)
	// The decoded bytes [winAt, winAt+len(win)) are kept while the spans
	// overlap them: the events of one Content-Encoding response all start
	// theirs at the response, and end them where their bytes were decoded.
	var win []byte
	var winAt int64
	for _, k := range encoded {
		ev := evs[k]
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
		span := win[ev.Offset-winAt : ev.Offset-winAt+ev.Length]
		js, err := spanJSON(ev, span)
		if err != nil {
			return nil, err
		}
		out[k] = js
	}
	return out, nil
}

// spanJSON is an event's JSON from its span of the decoded stream.
func spanJSON(ev timeline.Event, span []byte) ([]byte, error) {
	if ev.Encoded {
		return parser.EncodedEventJSON(span, ev.BodyOffset)
	}
	return parser.EventJSON(span)
}

// blobBytes reads bytes [from, to) of a Blob.
func blobBytes(blob goapp.Value, from, to int64) ([]byte, error) {
	ab, err := await(blob.Call("slice", float64(from), float64(to)).Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	arr := goapp.Window().Get("Uint8Array").New(ab)
	b := make([]byte, arr.Length())
	goapp.CopyBytesToGo(b, arr)
	return b, nil
}
