package parser

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"watchlens/internal/testsample"
)

// TestBeganOfAHeldBackFrame: samples-watchlist's protobuf capture p00
// stamps each bookmark frame's pieces but the last with the time the
// server sent it, and the last with the next frame's, about a minute
// later, or as the watch ended (README.md: p01's first bookmark 59.96 s
// late; the bookmarks' RVs are the cluster's head at the first piece's
// time). An event's Began is the arrival of its first piece, its Arrival
// that of its last; an event whole in one line, as the JSON captures'
// are, has none.
func TestBeganOfAFrameStampedLate(t *testing.T) {
	dir := testsample.Recording(t, "samples-watchlist")
	c, err := ReadAll(bytes.NewReader(testsample.Read(t, filepath.Join(dir, "p00-proto-bookmarks.ts.http"))), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Each bookmark's last piece is stamped with the next bookmark, a
	// minute later, or as its watch ended; other frames' pieces together.
	minute := 0
	for _, ev := range c.Events {
		if ev.Began == 0 {
			continue
		}
		late := time.Duration(ev.Arrival - ev.Began)
		switch {
		case late <= 0:
			t.Errorf("%s at RV %s began arriving %s after it ended", ev.Type, ev.RV, -late)
		case ev.Type != Bookmark && late > time.Millisecond:
			t.Errorf("%s at RV %s began arriving %s before it ended", ev.Type, ev.RV, late)
		case late > 50*time.Second && late < 70*time.Second:
			minute++
		}
	}
	// The capture's chunks: the bookmarks end at 18:44:18, 18:45:17,
	// 18:46:17, 18:51:49, 18:52:49 and 18:53:49, with the next one's
	// first piece.
	if minute != 6 {
		t.Errorf("%d of the %d events end a minute after they begin, want the 6 bookmarks stamped with the next one", minute, len(c.Events))
	}
	json, err := ReadAll(bytes.NewReader(testsample.Read(t, filepath.Join(dir, "c000-bookmarks.ts.http"))), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range json.Events {
		if ev.Began != 0 {
			t.Errorf("a JSON event whole in one line has a Began: %s", fmt.Sprint(ev.Type, " ", ev.RV))
		}
	}
}
