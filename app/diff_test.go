package app

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

func TestDiffJSON(t *testing.T) {
	before := `{"type":"MODIFIED","object":{"metadata":{"resourceVersion":"5","labels":{"app":"a"},"managedFields":[{"time":"t1"}]},"data":{"gen":"1","keep":"x"}}}`
	after := `{"type":"MODIFIED","object":{"metadata":{"resourceVersion":"9","labels":{"app":"a","tier":"web"},"managedFields":[{"time":"t2"}]},"data":{"keep":"x"}}}`
	got, err := diffJSON([]byte(before), []byte(after), true)
	if err != nil {
		t.Fatal(err)
	}
	want := []change{
		{path: "object.data.gen", old: `"1"`},
		{path: "object.metadata.labels.tier", new: `"web"`},
		{path: "object.metadata.managedFields", old: `[{"time":"t1"}]`, new: `[{"time":"t2"}]`},
		{path: "object.metadata.resourceVersion", old: `"5"`, new: `"9"`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff:\n got %+v\nwant %+v", got, want)
	}
	unfolded, err := diffJSON([]byte(before), []byte(after), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(unfolded) != 4 || unfolded[2].path != "object.metadata.managedFields[0].time" {
		t.Errorf("unfolded managedFields should diff leaf by leaf: %+v", unfolded)
	}
	if _, err := diffJSON([]byte("{"), []byte(after), true); err == nil {
		t.Error("broken JSON gave no error")
	}
}

// TestDiffOnRealCapture diffs two versions of one object from a real
// capture, fetched by their spans as the detail pane does.
func TestDiffOnRealCapture(t *testing.T) {
	raw, err := os.ReadFile("../samples/w1-broad-configmaps-bookmarks.http")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../samples/w1-broad-configmaps-bookmarks.http")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := parser.ReadAll(f, parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byUID := map[string][]parser.Event{}
	for _, ev := range c.Events {
		if ev.Type == parser.Modified {
			byUID[ev.UID] = append(byUID[ev.UID], ev)
		}
	}
	for _, evs := range byUID {
		if len(evs) < 2 {
			continue
		}
		a, err := parser.EventJSON(raw[evs[0].Offset : evs[0].Offset+evs[0].Length])
		if err != nil {
			t.Fatal(err)
		}
		b, err := parser.EventJSON(raw[evs[1].Offset : evs[1].Offset+evs[1].Length])
		if err != nil {
			t.Fatal(err)
		}
		changes, err := diffJSON(a, b, true)
		if err != nil {
			t.Fatal(err)
		}
		var sawRV bool
		for _, ch := range changes {
			sawRV = sawRV || (ch.path == "object.metadata.resourceVersion" && ch.old == `"`+evs[0].RV+`"` && ch.new == `"`+evs[1].RV+`"`)
		}
		if !sawRV {
			t.Errorf("diff of RV %s -> %s does not show the resourceVersion change: %+v", evs[0].RV, evs[1].RV, changes)
		}
		return
	}
	t.Fatal("no object with two MODIFIED events in the sample")
}

// TestDiffOfAListedItem: samples-lab's broad-b lists ConfigMap
// lab/shard-s16, then watches it change. The item of the LIST is the
// object alone, the watch event wraps it under "object": compared path by
// path, "Changed since RV 257: 20 fields" gave every field as absent on
// one side (the UI review of the page). Compared as the object it is, the
// change is its resourceVersion and what its writer changed.
func TestDiffOfAListedItem(t *testing.T) {
	path := filepath.Join(testsample.Recording(t, "samples-lab"), "broad-b.ts.http")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parser.ReadAll(bytes.NewReader(raw), parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]parser.Event{}
	for _, ev := range c.Events {
		if ev.Type == parser.Listed {
			listed[ev.UID] = ev
			continue
		}
		before, ok := listed[ev.UID]
		if ev.Type != parser.Modified || !ok {
			continue
		}
		span := func(e parser.Event) parser.EventSpan {
			return parser.EventSpan{Offset: e.Offset, Length: e.Length, Encoded: e.Encoded, BodyOffset: e.BodyOffset}
		}
		js, err := parser.EventsJSON([]parser.EventSpan{span(before), span(ev)},
			func(from, to int64) ([]byte, error) { return raw[from:to], nil },
			func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(raw)), nil })
		if err != nil {
			t.Fatal(err)
		}
		changes, err := diffJSON(js[0], js[1], true)
		if err != nil {
			t.Fatal(err)
		}
		sawRV := false
		for _, ch := range changes {
			sawRV = sawRV || ch.path == "object.metadata.resourceVersion" && ch.old == `"`+before.RV+`"` && ch.new == `"`+ev.RV+`"`
			if ch.old == "" || ch.new == "" {
				t.Errorf("RV %s -> %s: %s is absent on one side (%q -> %q)", before.RV, ev.RV, ch.path, ch.old, ch.new)
			}
		}
		if !sawRV || len(changes) > 6 {
			t.Errorf("the diff of the listed RV %s and the watched RV %s: %+v", before.RV, ev.RV, changes)
		}
		return
	}
	t.Fatal("no object listed, then modified, in broad-b.ts.http")
}
