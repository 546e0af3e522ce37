package canvas

import (
	"strings"
	"testing"

	"watchlens/timeline"
)

// In the lab's fleet, each client's row names the servers its requests
// went to, in order, and its hover the server it was on then: the one
// that answered the session open, as the audit logs say.
func TestFleetRowsNameTheirServers(t *testing.T) {
	tl := labTimeline(t, false)
	d := NewFleetData(tl.Analyze(timeline.DefaultParams()))
	if d == nil || len(d.Rows) != 207 {
		t.Fatalf("the lab's fleet: %v", d)
	}
	checked := 0
	for r := range d.Rows {
		row := &d.Rows[r]
		if row.Servers == "" {
			t.Errorf("%s: no server named, though every session of the lab's audit logs has one", row.Client.Name)
			continue
		}
		for _, g := range tl.Files[row.Client.File].Sessions {
			ss := tl.Sessions[g]
			mid := (ss.Start + ss.End) / 2
			srv, inc, _ := tl.ServerOf(g)
			want := "on server " + d.serverName(srv, inc) + " then; answered by " + row.Servers
			if got := strings.Join(d.rowText(r, mid, 1), "\n"); !strings.Contains(got, want) {
				t.Fatalf("%s in its session %d: %q, want %q", row.Client.Name, ss.Index, got, want)
			}
			if !strings.Contains(row.Servers, d.serverName(srv, inc)) {
				t.Errorf("%s: %q leaves out %s", row.Client.Name, row.Servers, d.serverName(srv, inc))
			}
			checked++
		}
	}
	if checked < 207 {
		t.Errorf("only %d sessions checked", checked)
	}
}
