package canvas

import (
	"math"
	"time"
)

// Scale maps axis values in [from, to) onto [x0, x0+w) pixels.
type Scale struct {
	From, To  int64
	X0, Width float64
}

func (s Scale) X(v int64) float64 {
	return s.X0 + float64(v-s.From)*s.Width/float64(s.To-s.From)
}

// Roundest is instant t rounded to the largest power of ten nanoseconds
// that one pixel spans: a pixel spans many instants, and the one an
// Alt-click there marks, and the hover names, reads 01:04:05, not
// 01:04:04.999.
func (s Scale) Roundest(t int64) int64 {
	perPixel := float64(s.To-s.From) / s.Width
	step := int64(1)
	for float64(step)*10 <= perPixel && step < int64(time.Hour) {
		step *= 10
	}
	return (t + step/2) / step * step
}

// XClamped is X for a value that may lie far outside the view (a zone's end at
// the end of time): clamped a little beyond the plot so lines and rects
// still reach its edges.
func (s Scale) XClamped(v int64) float64 {
	if v <= s.From {
		return s.X0 - 2
	}
	if v >= s.To {
		return s.X0 + s.Width + 2
	}
	return s.X(v)
}

// Column is the pixel column of n, from the plot's left edge, that
// instant t falls in; instants outside the view fall in the first or last.
func (s Scale) Column(t int64, n int) int { return max(0, min(int(s.XClamped(t)-s.X0), n-1)) }

// ColumnEnd is the first instant that col maps to a later column of n
// (Column, non-decreasing in the instant); math.MaxInt64 for the last. It
// searches around an estimate from the scale, which rounding can put a
// little off. (Column is a method, not a function passed in: as wasm,
// calls through a closure are a noticeable part of a frame's drawing.)
func (s Scale) ColumnEnd(col, n int) int64 {
	if col >= n-1 {
		return math.MaxInt64
	}
	guess := s.From + int64(math.Ceil(float64(col+1)*float64(s.To-s.From)/s.Width))
	// Widen [lo, hi] until Column(lo) <= col < Column(hi), then halve it.
	lo, hi := guess-1, guess
	for step := int64(1); s.Column(lo, n) > col; step *= 2 {
		hi, lo = lo, lo-step
	}
	for step := int64(1); s.Column(hi, n) <= col; step *= 2 {
		lo, hi = hi, hi+step
	}
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; s.Column(mid, n) > col {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

func (s Scale) At(x float64) int64 {
	return s.From + int64(math.Round((x-s.X0)/s.Width*float64(s.To-s.From)))
}

// Zoom limits: the narrowest view on each axis.
const (
	MinSpanTime = int64(10 * time.Microsecond)
	MinSpanRV   = 8
)

// ZoomRange scales [from, to) by factor around anchor, keeping anchor at
// the same pixel, then fits the result inside [lo, hi).
func ZoomRange(from, to, anchor int64, factor float64, lo, hi, minSpan int64) (int64, int64) {
	span := float64(to - from)
	ns := math.Max(math.Min(span*factor, float64(hi-lo)), float64(min(minSpan, hi-lo)))
	f := 0.5
	if span > 0 {
		f = float64(anchor-from) / span
	}
	nf := int64(math.Round(float64(anchor) - f*ns))
	return FitRange(nf, nf+int64(ns), lo, hi)
}

// PanRange shifts [from, to) by d and fits it inside [lo, hi).
func PanRange(from, to, d, lo, hi int64) (int64, int64) {
	return FitRange(from+d, to+d, lo, hi)
}

// FitRange slides [from, to) into [lo, hi) without changing its width
// (unless it is wider, then it becomes [lo, hi)).
func FitRange(from, to, lo, hi int64) (int64, int64) {
	if to-from >= hi-lo {
		return lo, hi
	}
	if from < lo {
		from, to = lo, lo+(to-from)
	}
	if to > hi {
		from, to = hi-(to-from), hi
	}
	return from, to
}
