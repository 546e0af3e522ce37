package canvas

import (
	"strconv"
	"strings"
	"testing"
)

// TestGutterLabelsFitTheirColumn builds w4-then-resume.ts.http's frame at
// a desktop's, a laptop's and a phone's width and holds every label to
// its room. Beside a gutter (a desktop's), each label left of the plot is
// cut by the browser to the column (a MaxWidth that ends before the
// plot). On a phone the plot takes nine tenths of the width at least, and
// each band's name is over the plot's left end, cut to less than half of
// it. The 410 zone bands, whose long labels share their start, carry
// short forms that differ, which a phone writes over the plot.
func TestGutterLabelsFitTheirColumn(t *testing.T) {
	tl, an := sampleTimeline(t, "w4-then-resume.ts.http")
	for _, w := range []float64{1440, 1280, 390, 320} {
		c := NewCache(tl)
		v := wholeView(tl, an, c, w)
		var fr Frame
		layout := c.Build(v, &fr)
		if phone := w < 500; layout.LabelsOver != phone {
			t.Errorf("at %v px the labels are over the plot: %v", w, layout.LabelsOver)
		}
		shorts := map[string]string{}
		for _, tx := range fr.Texts {
			if tx.Text == "" {
				continue
			}
			beside := tx.Align == "r" && float64(tx.X) < layout.PlotX
			over := tx.Box != "" && tx.Align == "l"
			if !beside && !over {
				continue
			}
			if over && !layout.LabelsOver {
				t.Errorf("at %v px, beside a gutter, the label %q is drawn over the plot", w, tx.Text)
			}
			if strings.HasPrefix(tx.Text, "410") && over {
				// Over the plot, a zone band's name is its short form.
				shorts[tx.Text] = tx.Text
			} else if strings.HasPrefix(tx.Text, "410") {
				if tx.Short == "" {
					t.Errorf("at %v px the zone label %q has no short form", w, tx.Text)
				}
				shorts[tx.Short] = tx.Text
			}
			if _, err := strconv.ParseUint(tx.Text, 10, 64); err == nil {
				continue // the cursor strip's RV scale, a few digits
			}
			switch {
			case beside && (tx.MaxWidth <= 0 || float64(tx.X-tx.MaxWidth) < 0):
				t.Errorf("at %v px the gutter label %q at %.0f may take %.0f px: it is not held to the gutter", w, tx.Text, tx.X, tx.MaxWidth)
			case over && (tx.MaxWidth <= 0 || float64(tx.X) < layout.PlotX || float64(tx.MaxWidth) > layout.PlotW/2):
				t.Errorf("at %v px the label %q over the plot at %.0f may take %.0f px of a plot from %.0f, %.0f px wide", w, tx.Text, tx.X, tx.MaxWidth, layout.PlotX, layout.PlotW)
			}
		}
		if len(shorts) != 3 {
			t.Errorf("at %v px the zone bands' short labels are %v, want three different ones", w, shorts)
		}
		if layout.LabelsOver && layout.PlotW < 0.9*w {
			t.Errorf("at %v px, with the labels over it, the plot is %.0f px wide", w, layout.PlotW)
		}
	}
}
