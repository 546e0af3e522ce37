package timeline

import (
	"bytes"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// TestNoRequestNoClaimOfBookmarks: a capture that begins after its
// request (here w1.http, a dump of the answer alone, cut short before
// its first bookmark, as a Ctrl-C would) shows what came, not what was
// asked: the summary said it "did not ask for bookmarks
// (allowWatchBookmarks was not set)", where w1 asked for them
// (MANIFEST.tsv), and that "every watch long enough for one received
// bookmarks" beside it.
func TestNoRequestNoClaimOfBookmarks(t *testing.T) {
	whole := testsample.Read(t, testsample.Path(t, testsample.SamplesDir, "w1-broad-configmaps-bookmarks.http"))
	from := bytes.Index(whole, []byte("HTTP/1.1 200"))
	to := bytes.Index(whole, []byte(`"type":"BOOKMARK"`))
	if from < 0 || to < from {
		t.Fatalf("w1 has no answer (%d), or no bookmark after it (%d)", from, to)
	}
	cut := whole[from:bytes.LastIndexByte(whole[:to], '\n')]
	b := NewBuilder()
	if err := b.AddReader("cut.http", bytes.NewReader(cut), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range b.Build().Analyze(DefaultParams()).Summary(nil) {
		if l.Topic == "bookmarks" {
			line = l.Text
		}
	}
	if !strings.Contains(line, "whether it asked for them is not recorded") || strings.Contains(line, "allowWatchBookmarks was not set") || strings.Contains(line, "every watch long enough") {
		t.Errorf("the bookmarks line of a capture without its request: %q", line)
	}
}
