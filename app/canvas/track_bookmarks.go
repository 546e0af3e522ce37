package canvas

import (
	"math"
	"sort"
	"strconv"

	"watchlens/parser"
	"watchlens/timeline"
)

// bookmarksBand is a file's band of BOOKMARK events.
type bookmarksBand struct{}

func (bookmarksBand) label() string      { return "bookmarks" }
func (bookmarksBand) height(int) float64 { return bookmarkH }

// bookmarkMark is a bookmark and the RV the client held before it, so its
// tooltip can say which RVs it vouches for.
type bookmarkMark struct {
	t, idx   int64
	rv, prev uint64 // prev is timeline.NoRV when unknown
	file     int
}

// paint draws a tick per bookmark; ticks within a pixel merge.
func (bookmarksBand) paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame) {
	if !v.Filter.Event(parser.Bookmark) {
		return
	}
	var segs []float32
	for _, b := range layout.Bands {
		if b.ID != BandBookmarks || !fr.shows(b) {
			continue
		}
		last := math.Inf(-1)
		if b.File >= 0 {
			segs = c.fileBookmarkTicks(segs, v, s, b.File, float32(b.Y+2), float32(b.Y+b.Height-2))
			continue
		}
		xs := c.bmT
		if v.AxisRV {
			xs = c.bmRV
		}
		for k := sort.Search(len(xs), func(i int) bool { return xs[i] >= v.From }); k < len(xs) && xs[k] < v.To; k++ {
			x := s.X(xs[k])
			if x-last < 1 {
				continue
			}
			last = x
			segs = append(segs, float32(x), float32(b.Y+2), float32(x), float32(b.Y+b.Height-2))
		}
	}
	fr.add(Op{Kind: "seg", Color: ColorBookmark, Size: 2}, segs)
}

// nearestBookmarkIn is nearestBookmark among file's bookmarks.
func (c *Cache) nearestBookmarkIn(file int, axisRV bool, at, slop int64) int {
	best, bestD := -1, slop+1
	if file < 0 || file >= len(c.bmByFile) {
		return best
	}
	for _, k := range c.bmByFile[file].all {
		i, bm := int(k), c.bookmarks[k]
		p := bm.t
		if axisRV {
			if bm.rv == timeline.NoRV {
				continue
			}
			p = int64(bm.rv)
		}
		if d := absInt64(p - at); d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// nearestBookmark returns the index in c.bookmarks of the bookmark nearest
// at on the axis, within slop, or -1.
func (c *Cache) nearestBookmark(axisRV bool, at, slop int64) int {
	if !axisRV {
		return nearestPos(c.bmT, at, slop)
	}
	k := nearestPos(c.bmRV, at, slop)
	if k < 0 {
		return -1
	}
	for i, b := range c.bookmarks {
		if int64(b.rv) == c.bmRV[k] {
			return i
		}
	}
	return -1
}

func bookmarkText(b bookmarkMark, when string) string {
	rv := "?"
	if b.rv != timeline.NoRV {
		rv = strconv.FormatUint(b.rv, 10)
	}
	if b.prev == timeline.NoRV {
		return "BOOKMARK at " + when + ": the server says nothing you watch changed up to RV " + rv
	}
	return "BOOKMARK at " + when + ": the server says nothing you watch changed in (" + strconv.FormatUint(b.prev, 10) + ".." + rv + "]"
}

// nearestPos returns the position in xs (sorted ascending) of the value
// closest to v within tol, or -1.
func nearestPos(xs []int64, v, tol int64) int {
	k := sort.Search(len(xs), func(i int) bool { return xs[i] >= v })
	best, bestD := -1, tol+1
	for _, c := range []int{k - 1, k} {
		if c < 0 || c >= len(xs) {
			continue
		}
		d := xs[c] - v
		if d < 0 {
			d = -d
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// hit is the bookmark nearest at, within slop, if bookmarks are
// shown.
func (bookmarksBand) hit(c *Cache, v *View, p pointer) Hit {
	b, at, slop := p.band, p.at, p.slop
	h := Hit{Event: -1, Group: -1}
	if !v.Filter.Event(parser.Bookmark) {
		return h
	}
	k := c.nearestBookmark(v.AxisRV, at, slop)
	if b.File >= 0 {
		k = c.nearestBookmarkIn(b.File, v.AxisRV, at, slop)
	}
	if k >= 0 {
		b := c.bookmarks[k]
		h.Event = int(b.idx)
		h.Text = bookmarkText(b, c.FormatTime(b.t))
	}
	return h
}
