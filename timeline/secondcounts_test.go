package timeline

import "testing"

// secondCounts keeps instants out of order, and counts only the whole
// seconds inside a stretch.
func TestSecondCounts(t *testing.T) {
	var c secondCounts
	for _, t := range []int64{5_100_000_000, 5_900_000_000, 7_000_000_000, 6_500_000_000, 5_200_000_000, 9_999_999_999} {
		c.add(t)
	}
	c.seal()
	if len(c) != 4 || c[0] != (secondCount{5, 3}) || c[1] != (secondCount{6, 1}) {
		t.Fatalf("counts %v, want seconds 5 (3), 6, 7 and 9", c)
	}
	for _, q := range []struct {
		from, to int64
		want     int
	}{
		{5_000_000_000, 10_000_000_000, 6},
		{5_000_000_001, 10_000_000_000, 3}, // second 5 straddles the start
		{5_000_000_000, 7_999_999_999, 4},  // second 7 straddles the end
		{0, 5_000_000_000, 0},
	} {
		if got := c.within(q.from, q.to); got != q.want {
			t.Errorf("within(%d, %d) = %d, want %d", q.from, q.to, got, q.want)
		}
	}
}
