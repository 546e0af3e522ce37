package app

import (
	"bytes"
	"strings"
	"testing"

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
	c := &capture{tl: b.Build()}
	if len(c.tl.Files) != 21 {
		t.Fatalf("%d files, want the capture and its 20 shards", len(c.tl.Files))
	}
	shown, matched := c.filesMatching("", 5)
	if len(shown) != 5 || matched != 21 || shown[0] != 0 || shown[4] != 4 {
		t.Errorf("with nothing to find: %v of %d, want the first 5 of 21", shown, matched)
	}
	last := c.tl.Files[20].Name
	_, sel, _ := strings.Cut(last, "[")
	shown, matched = c.filesMatching(strings.ToUpper(strings.TrimSuffix(sel, "]")), 5)
	if len(shown) != 1 || matched != 1 || shown[0] != 20 {
		t.Errorf("finding %q: %v of %d, want file 20 alone", sel, shown, matched)
	}
	if shown, matched = c.filesMatching("no such client", 5); len(shown) != 0 || matched != 0 {
		t.Errorf("finding nothing: %v of %d", shown, matched)
	}
}
