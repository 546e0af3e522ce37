package canvas

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"watchlens/internal/busywatch"
	"watchlens/parser"
	"watchlens/timeline"
)

// busyTimelines are the busy broad watch of busywatch at each size the
// growth benchmark draws, built once per size.
var (
	busyMu        sync.Mutex
	busyTimelines = map[int]*timeline.Timeline{}
	busyAnalyses  = map[int]*timeline.Analysis{}
)

// busyTimeline is busywatch's capture of n events, as benchTimeline's.
func busyTimeline(n int) (*timeline.Timeline, *timeline.Analysis) {
	busyMu.Lock()
	defer busyMu.Unlock()
	if tl := busyTimelines[n]; tl != nil {
		return tl, busyAnalyses[n]
	}
	b := timeline.NewBuilder()
	f := b.AddFile("synthetic")
	busywatch.Events(n, 7, func(e parser.Event) { f.Add(e) })
	f.Finish(busywatch.Sessions(), nil)
	tl := b.Build()
	an := tl.Analyze(timeline.DefaultParams())
	busyTimelines[n], busyAnalyses[n] = tl, an
	return tl, an
}

// BenchmarkFrameGrowth is a frame's cost against the events in view: the
// whole capture of 1 M and of 10 M events at 2000 plot columns, and a pan
// over it (a view of a tenth of the capture moved by a fiftieth of its
// span each frame, as a drag does), so that a frame whose work grows with
// the events shows it as a ratio between the sizes.
func BenchmarkFrameGrowth(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		name := strconv.Itoa(n/1_000_000) + "M"
		b.Run("whole/"+name, func(b *testing.B) {
			tl, an := busyTimeline(n)
			c := NewCache(tl)
			v := wholeView(tl, an, c, 2000+gutterW+rightPad)
			benchFrames(b, c, v, false)
		})
		b.Run("rv/"+name, func(b *testing.B) {
			tl, an := busyTimeline(n)
			c := NewCache(tl)
			v := wholeView(tl, an, c, 2000+gutterW+rightPad)
			v.AxisRV = true
			v.From, v.To = c.Extent(true)
			benchFrames(b, c, v, false)
		})
		b.Run("hot/"+name, func(b *testing.B) {
			tl, an := hotTimeline(b, n)
			c := NewCache(tl)
			v := wholeView(tl, an, c, 2000+gutterW+rightPad)
			benchFrames(b, c, v, false)
		})
		b.Run("hotrv/"+name, func(b *testing.B) {
			tl, an := hotTimeline(b, n)
			c := NewCache(tl)
			v := wholeView(tl, an, c, 2000+gutterW+rightPad)
			v.AxisRV = true
			v.From, v.To = c.Extent(true)
			benchFrames(b, c, v, false)
		})
		b.Run("clients/"+name, func(b *testing.B) {
			tl, an := clientsTimeline(10_000, n)
			c := NewCache(tl)
			v := wholeView(tl, an, c, 2000+gutterW+rightPad)
			benchFrames(b, c, v, false)
		})
		b.Run("pan/"+name, func(b *testing.B) {
			tl, an := busyTimeline(n)
			c := NewCache(tl)
			v := wholeView(tl, an, c, 2000+gutterW+rightPad)
			width := (v.To - v.From) / 10
			panFrames(b, c, v, v.From, width, width/5)
		})
	}
}

// clientsTimeline is n events of clients clients, one file each, each
// watching its own object for an hour with a bookmark a minute, as a
// capture split into virtual clients is: every file's bookmarks (600 000
// of 10 000 clients) lie in view.
func clientsTimeline(clients, n int) (*timeline.Timeline, *timeline.Analysis) {
	b := timeline.NewBuilder()
	per := n / clients
	step := int64(time.Hour) / int64(per)
	for k := range clients {
		name := "cm-" + strconv.Itoa(k)
		f := b.AddFile(name)
		bookmarkEvery := max(per/60, 1)
		for i := range per {
			e := parser.Event{Seq: i, Type: parser.Modified, Kind: "ConfigMap", Namespace: "ns", Name: name, UID: name,
				RVNum: uint64(1000 + i), RVValid: true, Arrival: busywatch.Start + int64(i)*step + int64(k)}
			if i%bookmarkEvery == 0 {
				e.Type, e.Name, e.UID, e.Namespace = parser.Bookmark, "", "", ""
			}
			f.Add(e)
		}
		f.Finish(busywatch.Sessions(), nil)
	}
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
}
