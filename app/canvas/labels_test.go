package canvas

import (
	"testing"
	"unicode/utf8"
)

// On a phone's canvas each lane's name goes over the plot at the end its
// marks leave free: of the two samples' lanes, none has its name over
// one of its marks while the row's other end is free, and some names
// are at the right end, their marks being at the left.
func TestLaneNamesOverThePlotGoWhereTheMarksLeaveRoom(t *testing.T) {
	right := 0
	for _, sample := range []string{"w1-broad-configmaps-bookmarks.ts.http", "w4-then-resume.ts.http"} {
		tl, an := sampleTimeline(t, sample)
		c := NewCache(tl)
		v := wholeView(tl, an, c, 390)
		var fr Frame
		layout := c.Build(v, &fr)
		if !layout.LabelsOver {
			t.Fatal("at 390 px the labels are beside the plot")
		}
		for r, rw := range v.Rows {
			y := float32(layout.LanesY + float64(r)*RowHeight + RowHeight/2)
			if rw.Lane < 0 || float64(y) > layout.LanesY+layout.LanesH {
				continue
			}
			var xs []float64
			for _, op := range fr.Ops {
				if op.Kind != "mark" {
					continue
				}
				for i := op.Offset; i < op.Offset+op.Count; i += 2 {
					if fr.floats[i+1] == y {
						xs = append(xs, float64(fr.floats[i]))
					}
				}
			}
			for _, tx := range fr.Texts {
				if tx.Y != y || tx.Box == "" || tx.Font != "" {
					continue
				}
				w := min(6.5*float64(utf8.RuneCountInString(tx.Text))+4+markSize/2, layout.PlotW*overLabelShare)
				lo, hi := float64(tx.X), float64(tx.X)+w
				if tx.Align == "r" {
					lo, hi = float64(tx.X)-w, float64(tx.X)
					right++
				}
				under, otherFree := false, true
				for _, x := range xs {
					under = under || (x > lo && x < hi)
					if tx.Align == "r" {
						otherFree = otherFree && x >= layout.PlotX+w
					} else {
						otherFree = otherFree && x <= layout.PlotX+layout.PlotW-w
					}
				}
				if under && otherFree {
					t.Errorf("%s: the lane name %q (%s) is over its marks %v, and the row's other end is free", sample, tx.Text, tx.Align, xs)
				}
			}
		}
	}
	if right == 0 {
		t.Error("no lane's name went to the plot's right end: the test tests nothing")
	}
	t.Logf("%d lane names at the plot's right end", right)
}
