package canvas

import (
	"math"
	"testing"
	"time"
)

func TestScaleMapsBothWays(t *testing.T) {
	s := Scale{From: 1_000, To: 11_000, X0: 100, Width: 1000}
	if s.X(1_000) != 100 || s.X(11_000) != 1100 || s.X(6_000) != 600 {
		t.Errorf("x: %v %v %v", s.X(1_000), s.X(11_000), s.X(6_000))
	}
	for _, v := range []int64{1_000, 3_333, 10_999} {
		if got := s.At(s.X(v)); got != v {
			t.Errorf("at(x(%d)) = %d", v, got)
		}
	}
	if s.XClamped(math.MaxInt64) != 1102 || s.XClamped(math.MinInt64) != 98 {
		t.Errorf("xc does not clamp far values: %v %v", s.XClamped(math.MaxInt64), s.XClamped(math.MinInt64))
	}
	// Unix nanoseconds an hour apart keep nanosecond precision.
	tn := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC).UnixNano()
	s = Scale{From: tn, To: tn + int64(time.Hour), X0: 0, Width: 3600}
	if got := s.X(tn + int64(time.Second)); math.Abs(got-1) > 1e-9 {
		t.Errorf("one second is %v px, want 1", got)
	}
}

func TestZoomKeepsAnchorAndBounds(t *testing.T) {
	from, to := int64(0), int64(1000)
	f, tt := ZoomRange(from, to, 250, 0.5, 0, 1000, 10)
	if tt-f != 500 || f != 125 {
		t.Errorf("zoom in around 250: [%d, %d), want [125, 625)", f, tt)
	}
	// The anchor stays at the same fraction of the view.
	if (250-f)*1000 != (250-from)*(tt-f) {
		t.Errorf("anchor moved: %d..%d", f, tt)
	}
	if f, tt = ZoomRange(0, 1000, 500, 4, 0, 1000, 10); f != 0 || tt != 1000 {
		t.Errorf("zoom out past the extent: [%d, %d)", f, tt)
	}
	if f, tt = ZoomRange(400, 500, 450, 0.001, 0, 1000, 10); tt-f != 10 {
		t.Errorf("zoom in below the minimum span: [%d, %d)", f, tt)
	}
	if f, tt = ZoomRange(0, 100, 0, 0.5, 0, 1000, 10); f != 0 || tt != 50 {
		t.Errorf("zoom at the left edge: [%d, %d)", f, tt)
	}
	if f, tt = PanRange(100, 200, -500, 0, 1000); f != 0 || tt != 100 {
		t.Errorf("pan past the start: [%d, %d)", f, tt)
	}
	if f, tt = PanRange(100, 200, 5000, 0, 1000); f != 900 || tt != 1000 {
		t.Errorf("pan past the end: [%d, %d)", f, tt)
	}
}

func TestColumnEnd(t *testing.T) {
	for _, s := range []Scale{
		{From: 1_764_460_800_000_000_000, To: 1_764_460_800_000_000_000 + int64(time.Hour), X0: 180.5, Width: 1192.3},
		{From: 1_764_460_800_000_000_000, To: 1_764_460_800_000_000_000 + MinSpanTime, X0: 0, Width: 2000},
		{From: -50, To: 977, X0: 10, Width: 333},
		// Over years, instants are past float64's exact integers.
		{From: 0, To: 40 * 365 * 24 * int64(time.Hour), X0: 0, Width: 1500},
	} {
		n := int(math.Ceil(s.Width))
		for col := 0; col < n-1; col++ {
			end := s.ColumnEnd(col, n)
			if s.Column(end-1, n) > col || s.Column(end, n) <= col {
				t.Fatalf("scale %+v: column %d ends at %d, where columns are %d and %d", s, col, end, s.Column(end-1, n), s.Column(end, n))
			}
		}
		if end := s.ColumnEnd(n-1, n); end != math.MaxInt64 {
			t.Errorf("the last column ends at %d", end)
		}
	}
}

// An Alt-click marks, and the hover names, the roundest instant of the
// pixel under the pointer.
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
		s := Scale{From: t0 - int64(tc.span)/2, To: t0 + int64(tc.span)/2, X0: 100, Width: 1000}
		if got := s.Roundest(t0); got != tc.want.UnixNano() {
			t.Errorf("a view of %s: %s rounds to %s, want %s", tc.span, time.Unix(0, t0).UTC(), time.Unix(0, got).UTC(), tc.want)
		}
		perPixel := int64(tc.span) / 1000
		if d := s.Roundest(t0) - t0; d > perPixel || -d > perPixel {
			t.Errorf("a view of %s: rounded %s away, more than a pixel's %s", tc.span, time.Duration(d), time.Duration(perPixel))
		}
	}
}
