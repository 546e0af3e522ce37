package app

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"watchlens/parser"
	"watchlens/timeline"
)

func TestViewStateRoundTrip(t *testing.T) {
	v := defaultViewState()
	v.sample = "w4-then-resume.ts.http"
	v.params.CacheWindow = 90 * time.Second
	v.params.CacheCount = 500
	v.params.EtcdInterval = 10 * time.Second
	v.params.Delay = 1500 * time.Millisecond
	v.params.WatchCache = false
	r0 := time.Date(2026, 11, 30, 0, 58, 0, 0, time.UTC).UnixNano()
	v.params.Restarts = []timeline.Restart{{From: r0, To: r0 + int64(65*time.Second)}}
	v.params.Servers = 3
	v.from, v.to = 100, 200
	v.axisRV = true
	v.selected = 7
	v.fold, v.pin = "0-2,70", "68,99-120"
	v.reconnectAt = r0 + int64(90*time.Second)
	v.fleet = true
	v.filter = timeline.Filter{Types: 1<<parser.Added | 1<<parser.Deleted, Kind: "Pod", Namespace: "rig-b", Text: "web", Label: "app=web,tier!=db", InView: true}

	q, err := url.ParseQuery(v.query().Encode())
	if err != nil {
		t.Fatal(err)
	}
	got := parseViewState(q)
	if !reflect.DeepEqual(got, v) {
		t.Errorf("round trip changed the view:\n got %+v\nwant %+v", got, v)
	}
}

func TestViewStateTypes(t *testing.T) {
	for _, tc := range []struct {
		types string
		shown []parser.EventType
	}{
		{"added,deleted", []parser.EventType{parser.Added, parser.Deleted}},
		{"none", nil},
		{"nonsense", nil}, // hides all rather than silently showing all
		{"added,modified,deleted,observed,listed,bookmark,error", filterTypes},
	} {
		v := parseViewState(url.Values{"types": {tc.types}})
		var shown []parser.EventType
		for _, typ := range filterTypes {
			if v.filter.Event(typ) {
				shown = append(shown, typ)
			}
		}
		if !reflect.DeepEqual(shown, tc.shown) {
			t.Errorf("types=%s shows %v, want %v", tc.types, shown, tc.shown)
		}
		if again := parseViewState(v.query()); again.filter.Types != v.filter.Types {
			t.Errorf("types=%s does not survive a round trip: %b -> %b", tc.types, v.filter.Types, again.filter.Types)
		}
	}
}

func TestViewStateDefaultsStayOutOfTheURL(t *testing.T) {
	if q := defaultViewState().query().Encode(); q != "" {
		t.Errorf("the default view encodes as %q, want an empty query", q)
	}
}

func TestViewStateKeepsDefaultsForMalformedValues(t *testing.T) {
	q := url.Values{"w": {"soon"}, "n": {"-3"}, "from": {"9"}, "to": {"2"}, "sel": {"x"}, "restarts": {"yesterday"}}
	got := parseViewState(q)
	want := defaultViewState()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("malformed values changed the view:\n got %+v\nwant %+v", got, want)
	}
}

// A link made on dropped files names them, and only then: the page it
// opens asks for them (Page.renderRestore).
func TestViewStateNamesDroppedFiles(t *testing.T) {
	v := defaultViewState()
	v.files = []string{"w4-then-resume.ts.http", "broad & more.http"}
	v.from, v.to = 100, 200
	q, err := url.ParseQuery(v.query().Encode())
	if err != nil {
		t.Fatal(err)
	}
	if got := parseViewState(q); !reflect.DeepEqual(got, v) {
		t.Errorf("round trip changed the view:\n got %+v\nwant %+v", got, v)
	}
	v.sample = "w3-then-resume.ts.http"
	if q := v.query(); q.Has("file") {
		t.Errorf("a sample's link names files: %v", q)
	}
	if got := parseViewState(url.Values{"sample": {"w3.http"}, "file": {"x"}}); got.files != nil {
		t.Errorf("a sample's link read as needing files %v", got.files)
	}
}

// A link made on more dropped files than it names carries their count
// and digest: short, and the same files dropped again, in any order,
// restore its view, where others do not.
func TestViewStateStandsForManyFiles(t *testing.T) {
	names := make([]string, 214)
	for i := range names {
		names[i] = fmt.Sprintf("c%03d-nobookmarks.ts.http", i)
	}
	v := defaultViewState()
	v.files = names
	v.from, v.to = 100, 200
	link := v.query().Encode()
	if len(link) > 100 || strings.Contains(link, "file=") {
		t.Fatalf("the link of %d files is %d bytes: %s", len(names), len(link), link)
	}
	q, err := url.ParseQuery(link)
	if err != nil {
		t.Fatal(err)
	}
	got := parseViewState(q)
	if !got.needsFiles() || got.files != nil || got.from != 100 {
		t.Fatalf("the link read as %+v", got)
	}
	if again := got.query().Encode(); again != link {
		t.Errorf("the link before its files are dropped again is %s, was %s", again, link)
	}
	reordered := slices.Clone(names)
	slices.Reverse(reordered)
	if !sameFiles(viewState{files: reordered}, got) || !sameFiles(got, viewState{files: names}) {
		t.Errorf("the same files, dropped again, are not the link's")
	}
	if sameFiles(viewState{files: names[1:]}, got) || sameFiles(viewState{files: append(slices.Clone(names[1:]), "other.log")}, got) {
		t.Errorf("other files are the link's")
	}
	few := viewState{files: names[:maxNamedFiles]}
	if q := few.query(); len(q["file"]) != maxNamedFiles || q.Has("files") {
		t.Errorf("a link of %d files does not name each: %v", maxNamedFiles, q)
	}
	for _, bad := range []string{"12-abc", "x-abc", "214-", "214-xyz", "214-12345678901234567"} {
		if got := parseViewState(url.Values{"files": {bad}}); got.needsFiles() {
			t.Errorf("files=%s read as a link's files", bad)
		}
	}
}
