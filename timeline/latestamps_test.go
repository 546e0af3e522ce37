package timeline

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"watchlens/parser"
)

// TestLateStampsPlacedAtFirstBytes: samples-watchlist's protobuf client
// p00 got a bookmark a minute, and its capture stamps each bookmark's
// last piece with the next frame, a minute late; placed there, the
// bookmarks read as two-minute silences ("asked for bookmarks, none for
// 2m2s while open") and p00 as the fleet's riskiest cursor. Each
// bookmark's RV is the cluster's head (broad-a sees every ConfigMap
// change) at its first piece's time, a minute behind at its last: the
// timeline places it at the first, and a doubt says so.
func TestLateStampsPlacedAtFirstBytes(t *testing.T) {
	tl := buildRecording(t, "samples-watchlist", "p00-proto-bookmarks.ts.http", "broad-a.ts.http")
	late := 0
	for i := range tl.Len() {
		e := tl.Event(i)
		if e.StampedLate == 0 {
			continue
		}
		late++
		if name := tl.Files[e.File].Name; !strings.HasPrefix(name, "p00") || e.Type != parser.Bookmark || e.StampedLate <= int64(LateStamp) {
			t.Errorf("%s %s of %s stamped %s late", e.Type, e.RV, name, time.Duration(e.StampedLate))
			continue
		}
		// The head a few seconds before: a bookmark carries the head of
		// the server's cache, which a change may pass as it is sent.
		first, _ := tl.Head(e.T - int64(5*time.Second))
		last, _ := tl.Head(e.T + e.StampedLate - int64(5*time.Second))
		if e.RVNum < first || e.RVNum >= last {
			t.Errorf("bookmark %s at %s: the head was %d then and %d at its last bytes' stamp; its RV fits neither its first bytes' time nor only that", e.RV, FormatInstant(e.T, time.UTC), first, last)
		}
	}
	if late < 6 {
		t.Fatalf("%d of p00's events stamped late, want its bookmarks stamped with the next one", late)
	}
	for _, an := range tl.Anomalies {
		if an.Kind == "no-bookmarks" {
			t.Errorf("a bookmark silence: %s", an.Msg)
		}
	}
	doubts := map[string]string{}
	for _, f := range tl.Files {
		for _, d := range f.Diagnostics {
			if d.Kind == DiagLateStamps && IsDoubt(d) {
				doubts[f.Name] = d.Msg
			}
		}
	}
	if len(doubts) != 1 || !strings.Contains(doubts["p00-proto-bookmarks.ts.http"], fmt.Sprintf("the last bytes of %d events", late)) {
		t.Errorf("late-stamp doubts %q, want one on p00 counting its %d events", doubts, late)
	}
}
