package canvas

import (
	"sort"
	"strconv"

	"watchlens/app/words"
	"watchlens/timeline"
)

// Group is a group header row: the lanes of one file, kind and namespace.
type Group struct {
	File            int
	Kind, Namespace string
	Lanes           []int32 // lanes passing the filter, in lane (first appearance) order
	Collapsed       bool
}

// Key identifies a group across rebuilds, so a collapsed group stays
// collapsed while the filter changes.
func (g *Group) Key() string {
	return strconv.Itoa(g.File) + "\x00" + g.Kind + "\x00" + g.Namespace
}

// Label is the header's text; the file name only matters when several
// files share the view.
func (g *Group) Label(tl *timeline.Timeline) string {
	ns := g.Namespace
	if ns == "" {
		ns = "(cluster-scoped)"
	}
	s := words.Isolated(g.Kind) + " · " + words.Isolated(ns)
	if len(tl.Files) > 1 {
		s = words.Isolated(tl.Files[g.File].Name) + ": " + s
	}
	return s + " (" + strconv.Itoa(len(g.Lanes)) + ")"
}

// Row is one row of the lane area: a group header (lane -1) or a lane.
type Row struct {
	Group int
	Lane  int
}

// BuildRows groups the lanes passing f by file, kind and namespace, in
// that sort order, each group's lanes in order of first appearance.
func BuildRows(tl *timeline.Timeline, f timeline.Filter, collapsed map[string]bool, active func(lane int) bool) ([]Group, []Row, int) {
	// A group is the lanes of one file, kind and namespace, which the
	// timeline numbers (Lanes.Scope): as wasm, a map by them looked up
	// at every lane is slow over many lanes on the first render.
	groupOfScope := make([]int32, tl.Lanes.ScopeCount())
	for sc := range groupOfScope {
		groupOfScope[sc] = -1
	}
	var groups []Group
	groupOf := make([]int32, tl.Lanes.Len()) // -1: filtered out
	var sizes []int32
	shown := 0
	for l := range tl.Lanes.Len() {
		ln := tl.Lanes.At(l)
		if !f.Lane(ln) || (active != nil && !active(l)) {
			groupOf[l] = -1
			continue
		}
		shown++
		sc := tl.Lanes.Scope(l)
		g := groupOfScope[sc]
		if g < 0 {
			g = int32(len(groups))
			groupOfScope[sc] = g
			groups = append(groups, Group{File: ln.File, Kind: ln.Kind, Namespace: ln.Namespace})
			sizes = append(sizes, 0)
		}
		groupOf[l] = g
		sizes[g]++
	}
	for g := range groups {
		groups[g].Lanes = make([]int32, 0, sizes[g])
	}
	for l, g := range groupOf {
		if g >= 0 {
			groups[g].Lanes = append(groups[g].Lanes, int32(l))
		}
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := &groups[i], &groups[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Namespace < b.Namespace
	})
	rows := make([]Row, 0, len(groups)+shown)
	for gi := range groups {
		g := &groups[gi]
		g.Collapsed = collapsed[g.Key()]
		rows = append(rows, Row{Group: gi, Lane: -1})
		if g.Collapsed {
			continue
		}
		for _, l := range g.Lanes {
			rows = append(rows, Row{Group: gi, Lane: int(l)})
		}
	}
	return groups, rows, shown
}
