package timeline

import (
	"container/heap"
	"sort"
)

// MaxGapsKept bounds the gaps an analysis keeps (Analysis.Gaps).
const MaxGapsKept = 1000

// gapKeeper keeps the MaxGapsKept longest gaps added, the earlier of two
// as long, and counts them all: a min-heap whose root is the gap the next
// longer one replaces.
type gapKeeper struct {
	kept  []keptGap
	count int
}

type keptGap struct {
	Gap
	seq int // the order added, which breaks ties
}

func (g *gapKeeper) add(gap Gap) {
	k := keptGap{gap, g.count}
	g.count++
	if len(g.kept) < MaxGapsKept {
		heap.Push(g, k)
		return
	}
	if gap.AgeTime > g.kept[0].AgeTime {
		g.kept[0] = k
		heap.Fix(g, 0)
	}
}

// longest returns the gaps kept, longest first (ties in the order added),
// and how many were added.
func (g *gapKeeper) longest() ([]Gap, int) {
	sort.Slice(g.kept, func(i, j int) bool { return g.less(j, i) })
	out := make([]Gap, len(g.kept))
	for i, k := range g.kept {
		out[i] = k.Gap
	}
	n := g.count
	*g = gapKeeper{}
	return out, n
}

// less orders the heap: the shorter gap first, and of two as long the
// later one, which is the first to go.
func (g *gapKeeper) less(i, j int) bool {
	a, b := &g.kept[i], &g.kept[j]
	if a.AgeTime != b.AgeTime {
		return a.AgeTime < b.AgeTime
	}
	return a.seq > b.seq
}

func (g *gapKeeper) Len() int           { return len(g.kept) }
func (g *gapKeeper) Less(i, j int) bool { return g.less(i, j) }
func (g *gapKeeper) Swap(i, j int)      { g.kept[i], g.kept[j] = g.kept[j], g.kept[i] }
func (g *gapKeeper) Push(x any)         { g.kept = append(g.kept, x.(keptGap)) }
func (g *gapKeeper) Pop() any {
	k := g.kept[len(g.kept)-1]
	g.kept = g.kept[:len(g.kept)-1]
	return k
}

// Gap is an interval where a cursor stood still while the head moved.
type Gap struct {
	File     int
	Kind     CursorKind
	From, To int64
	RV       uint64
	HeadRV   uint64 // head at To
	AgeTime  int64  // To minus the instant the cursor was last current
	AgeRV    uint64 // HeadRV - RV
}
