package canvas

import (
	"sort"

	"watchlens/timeline"
)

// fileBookmarks are one file's bookmarks as positions in Cache.bookmarks,
// so that the file's band reads its own in view and not every file's: a
// capture split into 10 000 virtual clients copies each bookmark to every
// client, and 64 bands each walking 600 000 bookmarks would take a frame
// many times its budget (docs/performance.md, "clients, whole capture").
type fileBookmarks struct {
	// all are in Cache.bookmarks' order, withRV those of them with an
	// RV; tRising and rvRising say their instants and their RVs never fall
	// in that order (then a search finds those in view).
	all, withRV       []int32
	tRising, rvRising bool
}

// indexBookmarks files c.bookmarks by file.
func (c *Cache) indexBookmarks() {
	c.bmByFile = make([]fileBookmarks, len(c.tl.Files))
	for f := range c.bmByFile {
		c.bmByFile[f].tRising, c.bmByFile[f].rvRising = true, true
	}
	for i, bm := range c.bookmarks {
		if bm.file < 0 || bm.file >= len(c.bmByFile) {
			continue
		}
		fb := &c.bmByFile[bm.file]
		if n := len(fb.all); n > 0 && c.bookmarks[fb.all[n-1]].t > bm.t {
			fb.tRising = false
		}
		fb.all = append(fb.all, int32(i))
		if bm.rv == timeline.NoRV {
			continue
		}
		if n := len(fb.withRV); n > 0 && int64(c.bookmarks[fb.withRV[n-1]].rv) > int64(bm.rv) {
			fb.rvRising = false
		}
		fb.withRV = append(fb.withRV, int32(i))
	}
}

// fileBookmarkTicks appends a tick from y0 to y1 for each of file's
// bookmarks in view, in Cache.bookmarks' order.
func (c *Cache) fileBookmarkTicks(segs []float32, v *View, s Scale, file int, y0, y1 float32) []float32 {
	if file < 0 || file >= len(c.bmByFile) {
		return segs
	}
	fb := &c.bmByFile[file]
	ks, pos, rising := fb.all, func(i int32) int64 { return c.bookmarks[i].t }, fb.tRising
	if v.AxisRV {
		ks, pos, rising = fb.withRV, func(i int32) int64 { return int64(c.bookmarks[i].rv) }, fb.rvRising
	}
	tick := func(p int64) {
		x := float32(s.X(p))
		segs = append(segs, x, y0, x, y1)
	}
	if !rising {
		for _, i := range ks {
			if p := pos(i); p >= v.From && p < v.To {
				tick(p)
			}
		}
		return segs
	}
	for k := sort.Search(len(ks), func(k int) bool { return pos(ks[k]) >= v.From }); k < len(ks) && pos(ks[k]) < v.To; k++ {
		tick(pos(ks[k]))
	}
	return segs
}
