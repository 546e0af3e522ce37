package report

import (
	"io"
	"strconv"
	"testing"
	"time"

	"watchlens/parser"
	"watchlens/timeline"
)

// BenchmarkReport: the whole report of 1 M events, rendered as JSON. The
// capture is the timeline package's benchmark capture: a busy broad
// watch, 10 000 objects, a change every 3.6 ms (an hour), a bookmark a
// minute.
func BenchmarkReport(b *testing.B) {
	const n = 1_000_000
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	bl := timeline.NewBuilder()
	f := bl.AddFile("synthetic")
	names := make([]string, 10_000)
	for i := range names {
		names[i] = "obj-" + strconv.Itoa(i)
	}
	step := int64(time.Hour) / n
	rv := uint64(1000)
	for i := 0; i < n; i++ {
		rv++
		e := parser.Event{Seq: i, Offset: int64(i) * 900, Length: 900, Type: parser.Modified, Kind: "ConfigMap",
			Namespace: "ns", Name: names[i%len(names)], UID: names[i%len(names)], RVNum: rv, RVValid: true, Arrival: t0 + int64(i)*step}
		if i%16_667 == 0 {
			e.Type, e.Name, e.UID, e.Namespace = parser.Bookmark, "", "", ""
		}
		f.Add(e)
	}
	f.Finish([]parser.Session{{HTTPStatus: 200, StartArrival: t0, EndArrival: t0 + int64(time.Hour),
		Request: &parser.Request{Watch: true, ResourceVersion: "1000", AllowWatchBookmarks: true}}}, nil)
	tl := bl.Build()
	for b.Loop() {
		if err := New(tl.Analyze(timeline.DefaultParams()), nil).WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
