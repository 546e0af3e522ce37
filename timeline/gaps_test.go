package timeline

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// The keeper holds what sorting every gap, longest first and stable,
// and keeping the first MaxGapsKept gives; ages repeat, so ties count.
func TestGapKeeperKeepsTheLongest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var all []Gap
	var g gapKeeper
	for i := range 3 * MaxGapsKept {
		gap := Gap{File: i, AgeTime: r.Int64N(500)}
		all = append(all, gap)
		g.add(gap)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].AgeTime > all[j].AgeTime })
	got, n := g.longest()
	if n != len(all) || !reflect.DeepEqual(got, all[:MaxGapsKept]) {
		t.Fatalf("kept %d of %d; first differing: %v", len(got), n, firstDiff(got, all))
	}
}

func firstDiff(a, b []Gap) any {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return []Gap{a[i], b[i]}
		}
	}
	return nil
}
