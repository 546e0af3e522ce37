package canvas

import (
	"strconv"
	"strings"
	"testing"
)

// TestGutterLabelsFitTheirColumn builds w4-then-resume.ts.http's frame at
// a desktop's, a laptop's and a phone's width and holds every label left
// of the plot to the gutter: each is cut by the browser to the column
// (a MaxWidth that ends before the plot), and the 410 zone bands, whose
// long labels share their start, carry short forms that differ.
func TestGutterLabelsFitTheirColumn(t *testing.T) {
	tl, an := sampleTimeline(t, "w4-then-resume.ts.http")
	for _, w := range []float64{1440, 1280, 390, 320} {
		c := NewCache(tl)
		v := wholeView(tl, an, c, w)
		var fr Frame
		layout := c.Build(v, &fr)
		shorts := map[string]string{}
		for _, tx := range fr.Texts {
			if tx.Align != "r" || float64(tx.X) >= layout.PlotX || tx.Text == "" {
				continue
			}
			if strings.HasPrefix(tx.Text, "410") {
				if tx.Short == "" {
					t.Errorf("at %v px the zone label %q has no short form", w, tx.Text)
				}
				shorts[tx.Short] = tx.Text
			}
			if _, err := strconv.ParseUint(tx.Text, 10, 64); err == nil {
				continue // the cursor strip's RV scale, a few digits
			}
			if tx.MaxWidth <= 0 || float64(tx.X-tx.MaxWidth) < 0 {
				t.Errorf("at %v px the gutter label %q at %.0f may take %.0f px: it is not held to the gutter", w, tx.Text, tx.X, tx.MaxWidth)
			}
		}
		if len(shorts) != 3 {
			t.Errorf("at %v px the zone bands' short labels are %v, want three different ones", w, shorts)
		}
	}
}
