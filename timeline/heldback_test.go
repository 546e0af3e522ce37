package timeline

import (
	"strings"
	"testing"
	"time"

	"watchlens/parser"
)

// TestHeldBackBookmarks: samples-lab's protobuf client p00 asked for
// bookmarks, and the API server sent them every minute, as to its JSON
// clients; but the last bytes of each bookmark's frame came only with
// the next frame, a minute later (parser.Event.Began), and a client
// reads a bookmark only whole. Its cursor did go unconfirmed for two
// minutes: the anomaly and the riskiest moment say why, lest they read
// as a server that sent no bookmarks. The JSON client beside it, c000,
// got its bookmarks whole.
func TestHeldBackBookmarks(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "p00-proto-bookmarks.ts.http", "c000-bookmarks.ts.http")
	p00 := -1
	for k, f := range tl.Files {
		if strings.HasPrefix(f.Name, "p00") {
			p00 = k
		}
	}
	held := 0
	for i := range tl.Len() {
		e := tl.Event(i)
		if e.Began == 0 {
			continue
		}
		if e.File != p00 || e.Type != parser.Bookmark || e.T-e.Began < int64(HeldBack) {
			t.Errorf("%s %s of %s began arriving %s before it ended", e.Type, e.RV, tl.Files[e.File].Name, time.Duration(e.T-e.Began))
			continue
		}
		held++
		if got, ok := tl.HeldBackAt(p00, e.T); !ok || got.Index != i {
			t.Errorf("HeldBackAt(p00, %d) = %d, %v; want event %d", e.T, got.Index, ok, i)
		}
	}
	if held == 0 {
		t.Fatal("no bookmark of p00 was held back")
	}
	silences := 0
	for _, an := range tl.Anomalies {
		if an.Kind != "no-bookmarks" {
			continue
		}
		if !strings.Contains(an.Msg, "the bookmark that ended it had begun arriving 1m") {
			t.Errorf("the silence of session %d does not say its bookmark was held back: %q", an.Session, an.Msg)
		}
		silences++
	}
	if silences == 0 {
		t.Error("p00's two-minute silences are no anomaly")
	}
	var riskiest string
	for _, l := range tl.Analyze(DefaultParams()).Summary(nil) {
		if l.Topic == "riskiest" {
			riskiest = l.Text
		}
	}
	if !strings.Contains(riskiest, "p00-proto-bookmarks.ts.http's cursor") || !strings.Contains(riskiest, "(the bookmark that then confirmed it had begun arriving at ") {
		t.Errorf("the riskiest moment does not say p00's bookmark was held back: %q", riskiest)
	}
}
