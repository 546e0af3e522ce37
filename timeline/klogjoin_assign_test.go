package timeline

import (
	"slices"
	"testing"
)

// TestUntangleByOrder: two clients of a log whose ends both came 9 ms
// and 10 ms after two audit-log clients' (1 ms apart) cost the same
// either way; the spread keeps the order, and a swap that keeps no
// order better (equal spreads) stays a tie that swappable tells.
func TestUntangleByOrder(t *testing.T) {
	// client 0 ended at 9, client 1 at 10; audit-log clients at 0 and 1
	// (ms): either pairing costs 18 ms.
	cost := [][]int64{{9e6, 8e6}, {10e6, 9e6}}
	spread := [][]float64{{81, 64}, {100, 81}}
	assign := untangle(cost, spread, []int{1, 0})
	if !slices.Equal(assign, []int{0, 1}) {
		t.Errorf("untangled %v, want [0 1]: 81+81 < 64+100", assign)
	}
	for i := range assign {
		if alike := swappable(cost, spread, assign, i); len(alike) > 0 {
			t.Errorf("row %d: swappable with %v, though the spread tells", i, alike)
		}
	}
	// Equal spreads: nothing tells them apart.
	spread = [][]float64{{81, 81}, {81, 81}}
	cost = [][]int64{{9e6, 9e6}, {9e6, 9e6}}
	assign = untangle(cost, spread, []int{0, 1})
	if alike := swappable(cost, spread, assign, 0); !slices.Equal(alike, []int{assign[1]}) {
		t.Errorf("row 0: swappable with %v, want [%d]", alike, assign[1])
	}
}
