// Package busywatch is the busy broad watch that the model's, the
// report's and the renderer's benchmarks share, as the parser's events:
// 10 000 ConfigMaps changing one after another, n changes over an hour,
// a bookmark about every 16 667 events. It imports the parser, so the
// parser's own tests use internal/synth's bytes instead.
package busywatch

import (
	"strconv"
	"time"

	"watchlens/parser"
)

// Objects is how many ConfigMaps change in turn.
const Objects = 10_000

// Start is the watch's first instant.
var Start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()

// Events gives add n events, the objects spread over namespaces
// namespaces ("ns" when there is one, else "ns-0", "ns-1", ...).
func Events(n, namespaces int, add func(parser.Event)) {
	names := make([]string, Objects)
	for i := range names {
		names[i] = "obj-" + strconv.Itoa(i)
	}
	spaces := []string{"ns"}
	if namespaces > 1 {
		spaces = make([]string, namespaces)
		for i := range spaces {
			spaces[i] = "ns-" + strconv.Itoa(i)
		}
	}
	step := int64(time.Hour) / int64(n)
	rv := uint64(1000)
	for i := range n {
		rv++
		e := parser.Event{Seq: i, Offset: int64(i) * 900, Length: 900, Type: parser.Modified, Kind: "ConfigMap",
			Namespace: spaces[i%len(spaces)], Name: names[i%Objects], UID: names[i%Objects], RVNum: rv, RVValid: true, Arrival: Start + int64(i)*step}
		if i%16_667 == 0 {
			e.Type, e.Name, e.UID, e.Namespace = parser.Bookmark, "", "", ""
		}
		add(e)
	}
}

// Sessions is the one watch, asking for bookmarks, that carries them.
func Sessions() []parser.Session {
	return []parser.Session{{HTTPStatus: 200, StartArrival: Start, EndArrival: Start + int64(time.Hour),
		Request: &parser.Request{Watch: true, ResourceVersion: "1000", AllowWatchBookmarks: true}}}
}
