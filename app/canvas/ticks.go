package canvas

import (
	"math"
	"strconv"
	"time"
)

// Tick is one labelled axis position.
type Tick struct {
	Value int64
	Label string
}

// timeSteps are the tick steps, from nanoseconds to weeks: 1-2-5 below a second, then
// the steps a clock face has.
var timeSteps = func() []int64 {
	var s []int64
	for d := int64(1); d < int64(time.Second); d *= 10 {
		s = append(s, d, 2*d, 5*d)
	}
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
		time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour} {
		s = append(s, int64(d))
	}
	return s
}()

// minTickPx keeps labels from colliding: a label like 00:54:23.250 is
// about 75 px wide in the canvas font.
const minTickPx = 96.0

// timeTicks places ticks on round instants of zone loc (nil: UTC) at
// least minTickPx apart: on the hour of loc, whatever its offset.
func timeTicks(s Scale, loc *time.Location) []Tick {
	loc = zoneOr(loc)
	span := s.To - s.From
	step := timeSteps[len(timeSteps)-1]
	for _, d := range timeSteps {
		if float64(d)*s.Width/float64(span) >= minTickPx {
			step = d
			break
		}
	}
	// Round in the zone's wall clock: its offset moves the ticks.
	_, off := time.Unix(0, s.From).In(loc).Zone()
	shift := int64(off) * int64(time.Second)
	var out []Tick
	for v := ceilDivInt(s.From+shift, step)*step - shift; v < s.To; v += step {
		out = append(out, Tick{Value: v, Label: timeLabel(v, step, loc)})
	}
	return out
}

// timeLabel shows as many digits as the step needs.
func timeLabel(v, step int64, loc *time.Location) string {
	t := time.Unix(0, v).In(loc)
	switch {
	case step >= int64(24*time.Hour):
		return t.Format("Jan 2")
	case step >= int64(time.Minute):
		return t.Format("15:04")
	case step >= int64(time.Second):
		return t.Format("15:04:05")
	case step >= int64(time.Millisecond):
		return t.Format("15:04:05.000")
	case step >= int64(time.Microsecond):
		return t.Format(":05.000000")
	}
	return t.Format(":05.000000000")
}

// numberTicks places ticks on round numbers (1, 2, 5 times a power of
// ten): resourceVersions, or event ordinals when a capture has no clock.
func numberTicks(s Scale) []Tick {
	span := float64(s.To - s.From)
	raw := minTickPx * span / s.Width
	step := int64(1)
	for p := int64(1); ; p *= 10 {
		found := false
		for _, m := range []int64{1, 2, 5} {
			if float64(m*p) >= raw {
				step, found = m*p, true
				break
			}
		}
		if found || p > math.MaxInt64/100 {
			break
		}
	}
	var out []Tick
	for v := ceilDivInt(s.From, step) * step; v < s.To; v += step {
		out = append(out, Tick{Value: v, Label: strconv.FormatInt(v, 10)})
	}
	return out
}

func ceilDivInt(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a > 0) == (b > 0) {
		q++
	}
	return q
}

// axisZone names the time axis's zone left of its labels, which are
// times of day (see axisZoneName).
func (fr *Frame) axisZone(plotX float64, s Scale, loc *time.Location) {
	t0 := len(fr.Texts)
	fr.addTextWithin(plotX-8, axisH/2-2, plotX-14, axisZoneName(s, loc), ColorMuted, "r", "")
	fr.flushTexts(t0)
}

// axisZoneName is the zone every instant the page writes carries, as it
// is at the start of the range shown (s.From): "UTC", "CET".
func axisZoneName(s Scale, loc *time.Location) string {
	return time.Unix(0, s.From).In(zoneOr(loc)).Format("MST")
}

// drawTicks draws the ticks' grid lines from the axis band down to bottom,
// appended to segs (returned, for reuse), and their labels in the axis
// band. A label is centred on its tick, and one that would reach left of
// the plot, or past the canvas's right edge at right, is left out (its
// line is drawn): the axis's zone ("UTC") is written left of the plot,
// where a long label of a tick near the plot's left end (12:00:03.250,
// zoomed in to seconds) would run over it, and the canvas ends at right,
// where a label of a tick near the plot's right end would be cut to its
// first digits.
func (fr *Frame) drawTicks(ticks []Tick, s Scale, right, bottom float64, segs []float32) []float32 {
	t0 := len(fr.Texts)
	for _, tk := range ticks {
		x := math.Round(s.X(tk.Value)) + 0.5
		segs = append(segs, float32(x), float32(axisH-6), float32(x), float32(bottom))
		if half := tickLabelWidth(tk.Label) / 2; x-half >= s.X0 && x+half <= right {
			fr.addText(x, axisH/2-2, tk.Label, ColorMuted, "c", "")
		}
	}
	fr.add(Op{Kind: "seg", Color: ColorGrid, Size: 1}, segs)
	fr.flushTexts(t0)
	return segs
}

// tickLabelWidth is at least the CSS px a tick's label takes in the
// canvas's font (11 px system-ui), which only the browser measures: its
// digits and letters at most 6.5 px each, its separators 3.5.
func tickLabelWidth(label string) float64 {
	w := 0.0
	for _, r := range label {
		switch r {
		case ':', '.', ' ':
			w += 3.5
		default:
			w += 6.5
		}
	}
	return w
}
