package engine

import (
	"sort"

	"watchlens/timeline"
)

// laneValues lists the kinds and namespaces of the capture's objects.
func laneValues(tl *timeline.Timeline) (kinds, namespaces []string) {
	k, ns := map[string]bool{}, map[string]bool{}
	var prev timeline.Lane
	for i := range tl.Lanes.Len() {
		l := tl.Lanes.At(i)
		// Neighbouring lanes mostly share both (the strings are the
		// parser's interned ones, so comparing them is cheap).
		same := i > 0 && l.Kind == prev.Kind && l.Namespace == prev.Namespace
		if prev = l; same {
			continue
		}
		k[l.Kind] = true
		if l.Namespace != "" {
			ns[l.Namespace] = true
		}
	}
	return sortedKeys(k), sortedKeys(ns)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
