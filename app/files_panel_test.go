package app

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"watchlens/app/load"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// TestFilesMatchingFindsAFileByName: the fleet recording's broad capture
// split by its shard label, 21 files; the panel lists the first few and
// finds one by a part of its name, whatever its case.
func TestFilesMatchingFindsAFileByName(t *testing.T) {
	split, _ := timeline.ParseSplit("label=shard")
	b := timeline.NewBuilder()
	if err := b.AddReaderSplit("broad-a.ts.http", bytes.NewReader(testsample.Read(t, testsample.Fleet(t, "broad-a.ts.http"))), parser.Options{}, split); err != nil {
		t.Fatal(err)
	}
	c := &capture{&load.Capture{Timeline: b.Build()}}
	if len(c.Timeline.Files) != 21 {
		t.Fatalf("%d files, want the capture and its 20 shards", len(c.Timeline.Files))
	}
	shown, matched := c.filesMatching("", 5)
	if len(shown) != 5 || matched != 21 || shown[0] != 0 || shown[4] != 4 {
		t.Errorf("with nothing to find: %v of %d, want the first 5 of 21", shown, matched)
	}
	last := c.Timeline.Files[20].Name
	_, sel, _ := strings.Cut(last, "[")
	shown, matched = c.filesMatching(strings.ToUpper(strings.TrimSuffix(sel, "]")), 5)
	if len(shown) != 1 || matched != 1 || shown[0] != 20 {
		t.Errorf("finding %q: %v of %d, want file 20 alone", sel, shown, matched)
	}
	if shown, matched = c.filesMatching("no such client", 5); len(shown) != 0 || matched != 0 {
		t.Errorf("finding nothing: %v of %d", shown, matched)
	}
}

// TestSessionsNameTheirServer: the fleet recording's captures with its
// audit logs; the sessions table names, for every session, the server
// and process whose audit log holds its request.
func TestSessionsNameTheirServer(t *testing.T) {
	dir := testsample.Recording(t, "samples-fleet")
	b := timeline.NewBuilder()
	for _, name := range []string{"c00-bookmarks.ts.http", "audit-a-1.log", "audit-a-2.log", "audit-b-1.log", "audit-b-2.log"} {
		if err := b.AddReader(name, bytes.NewReader(testsample.Read(t, filepath.Join(dir, name))), parser.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	tl := b.Build()
	named := 0
	for _, g := range tl.Files[0].Sessions {
		got := serverText(tl, g)
		srv, inc, ok := tl.ServerOf(g)
		if !ok {
			if got != "unknown" {
				t.Errorf("session %d has no server, yet the table says %q", g, got)
			}
			continue
		}
		want := tl.Servers[srv].Name + ", process " + strconv.Itoa(inc+1) + " of " + strconv.Itoa(len(tl.Servers[srv].Incarnations))
		if got != want {
			t.Errorf("session %d: %q, want %q", g, got, want)
		}
		named++
	}
	if named == 0 {
		t.Errorf("no session of c00 names its server: the test tests nothing")
	}
}

// TestFileNamesHoldTheExports: a Prometheus export dropped alone is
// named in the header, though it makes no capture.
func TestFileNamesHoldTheExports(t *testing.T) {
	name := "apiserver_watch_cache_resource_version.json.gz"
	b := timeline.NewBuilder()
	if err := b.AddReader(name, bytes.NewReader(testsample.Read(t, filepath.Join(testsample.Recording(t, "samples-lab"), "prometheus", "query_range", name))), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	c := &capture{&load.Capture{Timeline: b.Build()}}
	if got := c.fileNames(); len(c.Timeline.Files) != 0 || len(got) != 1 || got[0] != name {
		t.Errorf("%d captures, and the header names %q; want none, and the export", len(c.Timeline.Files), got)
	}
}
