package canvas

import "math"

// cursorStepHitPx is how far from a cursor's line, in CSS px, a click in
// the cursor strip still picks that cursor.
const cursorStepHitPx = 8.0

// cursorStepHit finds the cursor whose line passes nearest the pointer
// at instant at, height y, in the cursor strip, and the event that set
// its step in force there: what a click on a cursor's step selects. It
// returns the cursor's name ("" when no line is near) and the event's
// table index (-1 when the step is no event).
func (c *Cache) cursorStepHit(b Band, at int64, y float64) (string, int) {
	if b.ID != BandCursors || b.RVTop <= b.RVBot {
		return "", -1
	}
	axis := rvBand{y0: b.Y, h: b.Height, top: b.RVTop, bot: b.RVBot}
	tl := c.tl
	best, bestD, bestEv := -1, cursorStepHitPx, -1
	for i := range tl.Cursors {
		cur := &tl.Cursors[i]
		rv, _, k, ok := cur.At(at)
		if !ok || !inFile(b, cur.File) || rv < b.RVBot || rv > b.RVTop {
			continue
		}
		if d := math.Abs(axis.y(rv) - y); d <= bestD {
			best, bestD, bestEv = i, d, cur.Event(k)
		}
	}
	if best < 0 {
		return "", -1
	}
	cur := &tl.Cursors[best]
	name := cur.Kind.String()
	if len(tl.Files) > 1 {
		name = tl.Files[cur.File].Name + " " + name
	}
	return name, bestEv
}
