package parser

import (
	"bytes"
	"errors"

	"github.com/tidwall/gjson"
)

// EventJSON returns the clean JSON of one event from its span: the bytes
// [Offset, Offset+Length) of the decompressed stream, which may hold chunk
// framing and arrival-time prefixes inside. It lets a caller show an event
// in full without the Reader having kept any objects.
//
// To get the span of an uncompressed capture, read the file at Event.Offset
// (io.NewSectionReader, or Blob.slice in a browser). For a gzip or zstd
// capture, decompress it again and skip Offset bytes; offsets count
// decompressed bytes. For a UTF-16 capture, they count the bytes of its
// UTF-8 transcoding. Decoded does both the way the Reader did.
//
// The result may share memory with span. A YAML document's span is returned
// as an error, since it is not JSON. So is the span of an event read from an
// encoded body (Event.Encoded), which starts at its response's head: use
// EncodedEventJSON. A protobuf event's span gives JSON of the fields the
// Reader takes from it (see protobufJSON), or an error that says why not.
func EventJSON(span []byte) ([]byte, error) {
	head := span
	if _, k, ok := parseTimePrefix(span); ok {
		head = span[k:]
	}
	if isStatusLine(head) || isRequestLine(head) {
		return nil, errors.New("the span starts with an HTTP head: the event is in a Content-Encoding-encoded body (Event.Encoded); use EncodedEventJSON")
	}
	if isProtobuf(span) {
		// A span with no framing inside is the frame itself.
		if js, err := protobufJSON(span); err == nil {
			return js, nil
		}
		return protobufJSON(unframe(span))
	}
	if len(span) == 0 || span[0] != '{' {
		return nil, errors.New("the span does not start with a JSON object: wrong offset, or not a JSON event")
	}
	// Compact JSON holds no raw line end, and pretty-printed JSON only as
	// whitespace between tokens, so every line end in a span is either that
	// whitespace or framing, and framing is recognisable line by line.
	if bytes.IndexByte(span, '\n') < 0 {
		if !gjson.ValidBytes(span) {
			return nil, errors.New("the span is not valid JSON")
		}
		return span, nil
	}
	out := unframe(span)
	if !gjson.ValidBytes(out) {
		return nil, errors.New("the span is not valid JSON once its framing is removed")
	}
	return out, nil
}

// unframe removes the arrival-time prefixes and chunk framing from the
// lines of a span after its first. A line of protobuf data that looks
// like framing is taken for framing: protobufJSON then finds the frame's
// length wrong and says so.
func unframe(span []byte) []byte {
	out := make([]byte, 0, len(span))
	rest := span
	// The line after a chunk-size line is chunk data even if it looks like
	// a size (a one-byte chunk "a").
	first, afterSize := true, false
	for len(rest) > 0 {
		var ln []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			ln, rest = rest[:i+1], rest[i+1:]
		} else {
			ln, rest = rest, nil
		}
		if !first {
			if _, k, ok := parseTimePrefix(ln); ok {
				ln = ln[k:]
			}
			// A chunk-size line: drop it and the line end that closed the
			// chunk data before it.
			if _, ok := parseChunkSize(ln); ok && !afterSize {
				out = dropLineEnd(out)
				afterSize = true
				continue
			}
		}
		first, afterSize = false, false
		out = append(out, ln...)
	}
	return out
}

func dropLineEnd(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b
}
