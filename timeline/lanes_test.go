package timeline

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"watchlens/parser"
)

// Every lane of the fleet's captures and of the larger samples, on one clock, reads
// back as the parser read its events: the object, its file, its latest
// labels and whether it was deleted.
func TestLanesReadBackTheirObjects(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(fleetDir, "*.ts.http"))
	if err != nil || len(paths) < 40 {
		t.Fatalf("fleet captures %v: %v", len(paths), err)
	}
	for _, n := range []string{"kubectl-pods-watch.jsonl", "w1-broad-configmaps-bookmarks.ts.http", "w2-broad-pods-bookmarks.http.gz", "w6-sendinitialevents-rig-a.ts.http"} {
		paths = append(paths, filepath.Join(samplesDir, n))
	}
	b := NewBuilder()
	var files [][]parser.Event
	// Read three times over (each a file with lanes of its own), the
	// names and uids fill more than one block of text.
	for k := range 3 * len(paths) {
		p := paths[k%len(paths)]
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AddReader(strconv.Itoa(k/len(paths))+" "+p, strings.NewReader(string(data)), parser.Options{}); err != nil {
			t.Fatal(err)
		}
		var evs []parser.Event
		rd := parser.NewReader(strings.NewReader(string(data)), parser.Options{})
		for rd.Next() {
			evs = append(evs, rd.Event())
		}
		files = append(files, evs)
	}
	tl := b.Build()

	// A file's events keep their capture order on the shared clock.
	next := make([]int, len(files))
	labels := make([]string, tl.Lanes.Len())
	deleted := make([]bool, tl.Lanes.Len())
	text := 0
	for i := range tl.Len() {
		e := tl.Event(i)
		pe := files[e.File][next[e.File]]
		next[e.File]++
		if e.Lane < 0 {
			continue
		}
		ln := tl.Lanes.At(e.Lane)
		uid := tl.Lanes.UID(e.Lane)
		if ln.File != e.File || ln.Kind != pe.Kind || ln.Namespace != pe.Namespace || ln.Name != pe.Name || uid != pe.UID {
			t.Fatalf("event %d (%s %s/%s uid %q in file %d) is on lane %d: %+v, uid %q", i, pe.Kind, pe.Namespace, pe.Name, pe.UID, e.File, e.Lane, ln, uid)
		}
		if f, k := tl.Lanes.File(e.Lane), tl.Lanes.Kind(e.Lane); f != ln.File || k != ln.Kind {
			t.Fatalf("lane %d: File %d, Kind %q; At says %d, %q", e.Lane, f, k, ln.File, ln.Kind)
		}
		if pe.Labels != "" {
			labels[e.Lane] = pe.Labels
		}
		deleted[e.Lane] = deleted[e.Lane] || pe.Type == parser.Deleted
	}
	for f, evs := range files {
		if next[f] != len(evs) {
			t.Fatalf("file %d: the timeline has %d of its %d events", f, next[f], len(evs))
		}
	}
	labelled, closed, packed := 0, 0, 0
	for l := range tl.Lanes.Len() {
		ln := tl.Lanes.At(l)
		if ln.Labels != labels[l] || ln.Deleted != deleted[l] {
			t.Errorf("lane %d (%s): labels %q, deleted %v; its events say %q, %v", l, ln.Name, ln.Labels, ln.Deleted, labels[l], deleted[l])
		}
		if ln.Labels != "" {
			labelled++
		}
		if ln.Deleted {
			closed++
		}
		text += len(ln.Name)
		if u, ok := appendUUID(nil, tl.Lanes.UID(l)); ok {
			text += len(u)
			packed++
		} else {
			text += len(tl.Lanes.UID(l))
		}
	}
	// The names and uids fill more than one block, UUIDs are packed, and
	// some lanes have labels and some were deleted: each part of a record
	// is read.
	if text <= textBlock || packed == 0 || labelled == 0 || closed == 0 {
		t.Errorf("%d lanes, %d bytes of names and uids, %d UUIDs, %d labelled, %d deleted: the test misses a part of the table",
			tl.Lanes.Len(), text, packed, labelled, closed)
	}
}

// A name longer than a record can place is kept whole, and a uid that
// is not a UUID in its canonical text (uppercase, here) as it came.
func TestLanesKeepLongNamesAndOddUIDs(t *testing.T) {
	long := strings.Repeat("n", 5000)
	c := (&capture{}).watch(nil, 0, 10*s).ev(parser.Added, 1, 1*s, "a").ev(parser.Added, 2, 2*s, long).ev(parser.Modified, 3, 3*s, long).
		ev(parser.Added, 4, 4*s, "b").ev(parser.Modified, 5, 5*s, "b")
	const upper = "6B1F3C2A-91AB-4CDE-8F01-23456789ABCD"
	c.evs[3].UID, c.evs[4].UID = upper, upper
	tl := build(c)
	if tl.Lanes.Len() != 3 {
		t.Fatalf("%d lanes, want 3: %+v", tl.Lanes.Len(), allLanes(tl))
	}
	if l, uid := tl.Lanes.At(1), tl.Lanes.UID(1); l.Name != long || uid != "uid-"+long || len(tl.LaneEvents(1)) != 2 {
		t.Errorf("the long-named lane reads back as a name of %d bytes, uid of %d, %d events", len(l.Name), len(uid), len(tl.LaneEvents(1)))
	}
	if l, uid := tl.Lanes.At(0), tl.Lanes.UID(0); l.Name != "a" || uid != "uid-a" {
		t.Errorf("lane 0: %+v, uid %q", l, uid)
	}
	if l, uid := tl.Lanes.At(2), tl.Lanes.UID(2); l.Name != "b" || uid != upper || len(tl.LaneEvents(2)) != 2 {
		t.Errorf("lane 2: %+v, uid %q, %d events", l, uid, len(tl.LaneEvents(2)))
	}
}

// The lanes are numbered by their first events, and each lane's events
// are indexed in order, the bookmarks and errors apart: for one file,
// whose lanes renumberLanes takes as numbered already, and for several,
// which it orders on the shared clock.
func TestLaneIndexByFirstAppearance(t *testing.T) {
	for _, names := range [][]string{
		{"w1-broad-configmaps-bookmarks.http"},
		{"kubectl-pods-watch.jsonl"},
		{"w1-broad-configmaps-bookmarks.ts.http", "client-go-golden-watch.http", "kubectl-pods-watch.jsonl"},
	} {
		tl := loadSamples(t, names...)
		if tl.Lanes.Len() == 0 {
			t.Fatalf("%v: no lanes", names)
		}
		var want [][]int32
		var special []int32
		for i := range tl.tab.len() {
			l := tl.tab.lane.at(i)
			switch {
			case l < 0:
				special = append(special, int32(i))
				continue
			case int(l) == len(want):
				want = append(want, nil)
			case int(l) > len(want):
				t.Fatalf("%v: event %d is lane %d's first, after %d lanes", names, i, l, len(want))
			}
			want[l] = append(want[l], int32(i))
		}
		if len(want) != tl.Lanes.Len() || len(tl.laneStart) != len(want)+1 {
			t.Fatalf("%v: %d lanes with events, %d lanes, %d starts", names, len(want), tl.Lanes.Len(), len(tl.laneStart))
		}
		for l, evs := range want {
			if got := tl.laneEv[tl.laneStart[l]:tl.laneStart[l+1]]; !slices.Equal(got, evs) {
				t.Fatalf("%v: lane %d's events %v, want %v", names, l, got, evs)
			}
		}
		if !slices.Equal(tl.special, special) {
			t.Fatalf("%v: special events %v, want %v", names, tl.special, special)
		}
	}
}
