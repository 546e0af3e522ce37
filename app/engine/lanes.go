package engine

import (
	"sort"

	"watchlens/timeline"
)

// laneValues lists the kinds and namespaces of the capture's objects.
func laneValues(tl *timeline.Timeline) (kinds, namespaces []string) {
	k, ns := map[string]bool{}, map[string]bool{}
	// By the lanes' scopes, a few, not lane by lane: a capture of core/v1
	// Events has a lane for nearly every event.
	tl.Lanes.Scopes(func(kind, namespace string) {
		k[kind] = true
		if namespace != "" {
			ns[namespace] = true
		}
	})
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
