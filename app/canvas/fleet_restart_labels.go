package canvas

import (
	"cmp"
	"slices"
)

// stretchMark is where a restart or an outage starts, in CSS px, and its
// name (Text and Short of its RestartLabel).
type stretchMark struct {
	x           float64
	text, short string
}

// RestartLabel is an API server restart's name, or an outage's, over the
// fleet's curves:
// from X, with its middle at Y, on a box of the page's background at most
// W wide, to which the browser cuts it (to Short first).
type RestartLabel struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	W     float64 `json:"w"`
	Text  string  `json:"text"`
	Short string  `json:"short"`
}

// The restart labels' lines and room, CSS px. restartLabelW is what
// "API server restart" takes in the page's bold 11 px sans-serif (about
// 110 px in DejaVu Sans, the widest of the usual ones), with a little to
// spare; restartShortW is "probable"'s, the longer short form (50 px).
const (
	restartLabelLines = 3
	restartLabelLineH = 13.0
	restartLabelW     = 116.0
	restartShortW     = 52.0
	restartLabelGap   = 6.0
)

// layoutRestartLabels places the names of the restarts and outages that
// start at marks so that no two overlap, whatever the zoom and the
// width: each goes on the first of three lines, from the top of the
// curves at top, where the label before it on that line has ended; it
// may take up to restartLabelW, and less at the plot's right end
// (right), where the browser writes "restart" or cuts it. A restart with
// no room on any line has no label: its dashed line stays, and the
// tooltip over it names it, as Perfetto leaves a slice too narrow for its
// name unnamed.
//
// It sorts marks, and appends to into[:0].
func layoutRestartLabels(marks []stretchMark, top, right float64, into []RestartLabel) []RestartLabel {
	into = into[:0]
	slices.SortFunc(marks, func(a, b stretchMark) int { return cmp.Compare(a.x, b.x) })
	var ends [restartLabelLines]float64
	for k := range ends {
		ends[k] = -1e9
	}
	for _, m := range marks {
		lx := m.x + 4
		w := min(restartLabelW, right-lx)
		if w < restartShortW {
			continue
		}
		for k := range ends {
			if ends[k]+restartLabelGap > lx {
				continue
			}
			ends[k] = lx + w
			into = append(into, RestartLabel{X: lx, Y: top + 9 + float64(k)*restartLabelLineH, W: w, Text: m.text, Short: m.short})
			break
		}
	}
	return into
}
