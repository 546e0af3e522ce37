package timeline

import (
	"testing"

	"watchlens/parser"
)

func TestFilterLane(t *testing.T) {
	l := Lane{Kind: "ConfigMap", Namespace: "kube-system", Name: "Coredns-Config"}
	for _, c := range []struct {
		f    Filter
		want bool
	}{
		{Filter{}, true},
		{Filter{Kind: "ConfigMap"}, true},
		{Filter{Kind: "Pod"}, false},
		{Filter{Namespace: "kube-system"}, true},
		{Filter{Namespace: "kube"}, false}, // exact, not a prefix
		{Filter{Text: "dns-c"}, true},
		{Filter{Text: "DNS"}, true},
		{Filter{Text: "etcd"}, false},
		{Filter{Types: 1 << parser.Deleted}, true}, // types filter marks, not lanes
	} {
		if got := c.f.Lane(l); got != c.want {
			t.Errorf("%+v.Lane = %v, want %v", c.f, got, c.want)
		}
	}
	if (Filter{Types: 1 << parser.Added}).Event(parser.Modified) || !(Filter{}).Event(parser.Modified) {
		t.Error("Filter.Event does not follow the type mask")
	}
}

func TestMatchLabels(t *testing.T) {
	labels := "app=web,pod-template-hash=7f9c,tier=frontend"
	for _, tc := range []struct {
		selector string
		want     bool
	}{
		{"app=web", true},
		{"app==web", true},
		{"app=db", false},
		{"app=web,tier=frontend", true},
		{"app=web,tier=backend", false},
		{"tier!=backend", true},
		{"tier!=frontend", false},
		{"missing!=x", true},
		{"tier", true},
		{"missing", false},
		{"!missing", true},
		{"!tier", false},
		{" app = web , tier ", true},
	} {
		if got := matchLabels(tc.selector, labels); got != tc.want {
			t.Errorf("%q on %q: %v, want %v", tc.selector, labels, got, tc.want)
		}
	}
	if matchLabels("app=web", "") {
		t.Error("an object without labels matched app=web")
	}
}

func TestLaneActiveIn(t *testing.T) {
	tl := loadSamples(t, "w1-broad-configmaps-bookmarks.ts.http")
	mid := tl.Start() + (tl.End()-tl.Start())/2
	active := LanesActiveIn(tl, mid, tl.End()+1)
	in, out := 0, 0
	for l := range tl.Lanes.Len() {
		has := false
		for _, e := range tl.LaneEvents(l) {
			if tl.Point(int(e)).T >= mid {
				has = true
			}
		}
		if active(l) != has {
			t.Fatalf("lane %d (%s): active %v, has an event in the second half %v", l, tl.Lanes.At(l).Name, active(l), has)
		}
		if has {
			in++
		} else {
			out++
		}
	}
	if in == 0 || out == 0 {
		t.Errorf("%d lanes active and %d not in the second half: the test proves nothing", in, out)
	}
}
