package engine

import (
	"slices"
	"testing"

	"watchlens/timeline"
)

// The kinds and namespaces the filters offer, found by the lanes'
// scopes, are those of every lane of the lab folder's timeline.
func TestLaneValuesAreTheLanes(t *testing.T) {
	sources, _ := labSources(t)
	e, o, err := Open(sources, Options{Params: timeline.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	tl := e.Timeline()
	k, ns := map[string]bool{}, map[string]bool{}
	for i := range tl.Lanes.Len() {
		l := tl.Lanes.At(i)
		k[l.Kind] = true
		if l.Namespace != "" {
			ns[l.Namespace] = true
		}
	}
	if kinds, namespaces := sortedKeys(k), sortedKeys(ns); !slices.Equal(o.Kinds, kinds) || !slices.Equal(o.Namespaces, namespaces) || len(namespaces) < 2 {
		t.Errorf("kinds %v and namespaces %v, the lanes have %v and %v", o.Kinds, o.Namespaces, kinds, namespaces)
	}
}
