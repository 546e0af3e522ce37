package canvas

import (
	"strings"
	"testing"
)

// TestFleetMarksWholeReads: samples-watchlist's 48 informers that never
// synced read their whole selection at each WatchList request. Their
// rows, drawn first, mark each such read with a square (the whole view,
// every row in it), as many as the model's requests for the client, and
// pointing at one says what it was, and what a reconnect then would do;
// the clients that synced mark none.
func TestFleetMarksWholeReads(t *testing.T) {
	d := recordingFleet(t, "samples-watchlist", "*.ts.http")
	requests := map[int]int{}
	for _, u := range d.tl.UnsyncedClients() {
		requests[u.File] = u.Requests
	}
	if len(requests) != 48 {
		t.Fatalf("%d clients never synced, want samples-watchlist's 48", len(requests))
	}
	want := 0
	for r, row := range d.Rows {
		n, unsynced := requests[row.Client.File]
		if len(row.Reads) != n || unsynced != row.Client.NeverSynced {
			t.Errorf("row %d (%s): %d reads marked, %d WatchList requests; never synced %v", r, row.Client.Name, len(row.Reads), n, row.Client.NeverSynced)
		}
		want += n
	}
	v, l, fr := wholeFleetFrame(d, 1280, 200*FleetRowH)
	if first, last := l.VisibleRows(0); first != 0 || last != len(d.Rows) {
		t.Fatalf("rows [%d, %d) of %d in view", first, last, len(d.Rows))
	}
	squares := 0
	for _, op := range opsOf(fr, "mark", ColorFg) {
		if op.Shape == "square" {
			squares += op.Count / 2
		}
	}
	if squares != want || want < 96 {
		t.Errorf("%d squares drawn, %d whole reads", squares, want)
	}
	row := d.Rows[0]
	if len(row.Reads) < 2 {
		t.Fatalf("the first row, %s, has %d reads", row.Client.Name, len(row.Reads))
	}
	s := v.Scale(&l)
	h := d.HitTest(v, &l, s.X(row.Reads[1]), l.RowY(0, v.ScrollY)+FleetRowH/2)
	if w := "read its whole selection again at " + clock(row.Reads[1], nil) + ": a WatchList request whose sync never ended"; !strings.Contains(h.Text, w) {
		t.Errorf("at %s's second read the row says %q, want %q", row.Client.Name, h.Text, w)
	}
	// A reconnect of such a client is no resume: it reads it all again,
	// whatever its bookmarks, rather than being "accepted".
	if w := ": no cursor to resume from (it never synced), so it reads its whole selection again; never refused with a 410"; !strings.Contains(h.Text, w) || strings.Contains(h.Text, "accepted") {
		t.Errorf("the row says %q, want %q and no \"accepted\"", h.Text, w)
	}
}

// TestFleetRowSaysRelistDue: samples-real's w4-then-resume ends at the
// 410 that refused its reconnect; its row, the riskiest, says the relist
// that 410 forces is due, and the other row says nothing of it.
func TestFleetRowSaysRelistDue(t *testing.T) {
	d := recordingFleet(t, "samples-real", "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	v, l, _ := wholeFleetFrame(d, 1280, 800)
	for r, row := range d.Rows {
		h := d.HitTest(v, &l, 20, l.RowY(r, v.ScrollY)+FleetRowH/2)
		says := strings.Contains(h.Text, "relists seen: 0; one more due: its records end at a 410 Gone")
		if says != (d.tl.Files[row.Client.File].ShortName() == "w4-then-resume.ts.http") || says != row.Client.EndsAtGone {
			t.Errorf("row %d (%s, ends at a 410: %v): %q", r, row.Client.Name, row.Client.EndsAtGone, h.Text)
		}
	}
}
