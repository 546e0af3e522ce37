package canvas

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"watchlens/internal/busywatch"
	"watchlens/parser"
	"watchlens/timeline"
)

// walkedBookmarkTicks is a file's ticks found by walking every bookmark of
// every file, for fileBookmarkTicks to equal.
func walkedBookmarkTicks(c *Cache, v *View, s Scale, file int, y0, y1 float32) []float32 {
	var segs []float32
	for _, bm := range c.bookmarks {
		p := bm.t
		if v.AxisRV {
			if bm.rv == timeline.NoRV {
				continue
			}
			p = int64(bm.rv)
		}
		if bm.file != file || p < v.From || p >= v.To {
			continue
		}
		x := float32(s.X(p))
		segs = append(segs, x, y0, x, y1)
	}
	return segs
}

// walkedNearestBookmark is nearestBookmarkIn by walking every file's
// bookmarks.
func walkedNearestBookmark(c *Cache, file int, axisRV bool, at, slop int64) int {
	best, bestD := -1, slop+1
	for i, bm := range c.bookmarks {
		p := bm.t
		if axisRV {
			if bm.rv == timeline.NoRV {
				continue
			}
			p = int64(bm.rv)
		}
		if d := absInt64(p - at); bm.file == file && d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// TestFileBookmarkTicksAsWalked: a file's band finds the ticks that
// walking every file's bookmarks finds, on both axes at several zooms, on
// two real captures on one clock, on generated clients and on files whose
// bookmarks' RVs fall back (a server restarted with an older RV).
func TestFileBookmarkTicksAsWalked(t *testing.T) {
	check := func(t *testing.T, tl *timeline.Timeline, an *timeline.Analysis) {
		c := NewCache(tl)
		v := wholeView(tl, an, c, 1280)
		ticks := 0
		for _, axisRV := range []bool{false, true} {
			v.AxisRV = axisRV
			lo, hi := c.Extent(axisRV)
			span := hi - lo
			for _, r := range [][2]int64{{lo, hi}, {lo, lo + span/2}, {lo + span/3, lo + span/3 + span/10}, {lo + span/2, lo + span/2 + span/1000}} {
				v.From, v.To = r[0], r[1]
				s := Scale{From: v.From, To: v.To, X0: gutterW, Width: 1000}
				for f := range tl.Files {
					got := c.fileBookmarkTicks(nil, v, s, f, 2, 14)
					want := walkedBookmarkTicks(c, v, s, f, 2, 14)
					if !slices.Equal(got, want) {
						t.Fatalf("file %d, RV axis %v, [%d, %d): %d ticks, the walk finds %d", f, axisRV, v.From, v.To, len(got)/4, len(want)/4)
					}
					ticks += len(got) / 4
					// A click finds the nearest of the file's own.
					for _, at := range []int64{v.From, v.From + (v.To-v.From)/3, v.To - 1} {
						slop := (v.To - v.From) / 50
						if got, want := c.nearestBookmarkIn(f, axisRV, at, slop), walkedNearestBookmark(c, f, axisRV, at, slop); got != want {
							t.Fatalf("file %d, RV axis %v, at %d: bookmark %d nearest, the walk finds %d", f, axisRV, at, got, want)
						}
					}
				}
			}
		}
		if ticks == 0 {
			t.Error("no file has a bookmark in view")
		}
	}
	t.Run("w3 and w4", func(t *testing.T) {
		tl, an := twoFiles(t)
		check(t, tl, an)
	})
	t.Run("clients", func(t *testing.T) {
		tl, an := clientsTimeline(300, 90_000)
		check(t, tl, an)
	})
	t.Run("falling RVs", func(t *testing.T) {
		tl, an := restartedClients()
		c := NewCache(tl)
		if c.bmByFile[1].rvRising || !c.bmByFile[0].rvRising {
			t.Fatalf("RVs rising by file: %v, %v; file 1's fall", c.bmByFile[0].rvRising, c.bmByFile[1].rvRising)
		}
		check(t, tl, an)
	})
}

// restartedClients is three clients watching for an hour with a bookmark
// every tenth event; the second's RVs fall half way through.
func restartedClients() (*timeline.Timeline, *timeline.Analysis) {
	b := timeline.NewBuilder()
	const per = 3000
	step := int64(time.Hour) / per
	for k := range 3 {
		name := "cm-" + strconv.Itoa(k)
		f := b.AddFile(name)
		for i := range per {
			rv := uint64(100_000 + i)
			if k == 1 && i >= per/2 {
				rv -= 50_000
			}
			e := parser.Event{Seq: i, Type: parser.Modified, Kind: "ConfigMap", Namespace: "ns", Name: name, UID: name,
				RVNum: rv, RVValid: true, Arrival: busywatch.Start + int64(i)*step + int64(k)}
			if i%10 == 0 {
				e.Type, e.Name, e.UID, e.Namespace = parser.Bookmark, "", "", ""
			}
			f.Add(e)
		}
		f.Finish(busywatch.Sessions(), nil)
	}
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
}
