package app

import (
	"testing"
	"time"

	"watchlens/app/canvas"
)

// An Alt-click marks the roundest instant of the pixel clicked.
func TestRoundest(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 1, 4, 4, 999_123_456, time.UTC).UnixNano()
	for _, tc := range []struct {
		span time.Duration // over 1000 px
		want time.Time
	}{
		{14 * time.Minute, time.Date(2026, 11, 30, 1, 4, 5, 0, time.UTC)},                // 840 ms a pixel: to 100 ms
		{time.Second, time.Date(2026, 11, 30, 1, 4, 4, 999_000_000, time.UTC)},           // 1 ms a pixel
		{5 * time.Millisecond, time.Date(2026, 11, 30, 1, 4, 4, 999_123_000, time.UTC)},  // 5 µs a pixel: to 1 µs
		{500 * time.Nanosecond, time.Date(2026, 11, 30, 1, 4, 4, 999_123_456, time.UTC)}, // under a ns a pixel
	} {
		s := canvas.Scale{From: t0 - int64(tc.span)/2, To: t0 + int64(tc.span)/2, X0: 100, Width: 1000}
		if got := roundest(t0, s); got != tc.want.UnixNano() {
			t.Errorf("a view of %s: %s rounds to %s, want %s", tc.span, time.Unix(0, t0).UTC(), time.Unix(0, got).UTC(), tc.want)
		}
		perPixel := int64(tc.span) / 1000
		if d := roundest(t0, s) - t0; d > perPixel || -d > perPixel {
			t.Errorf("a view of %s: rounded %s away, more than a pixel's %s", tc.span, time.Duration(d), time.Duration(perPixel))
		}
	}
}
