package canvas

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
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

// In the fleet recording (captures and audit logs of two servers), the
// curves' hover splits the clients a reconnect would send to relist by
// the server each was on, and the split adds up to the curve.
func TestFleetStampedeByServer(t *testing.T) {
	dir := testsample.Recording(t, "samples-fleet")
	files, _ := filepath.Glob(filepath.Join(dir, "*.ts.http"))
	logs, _ := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	if len(files) == 0 || len(logs) != 4 {
		t.Fatalf("samples-fleet has %d captures and %d audit logs", len(files), len(logs))
	}
	b := timeline.NewBuilder()
	for _, name := range append(files, logs...) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(filepath.Base(name), f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	tl := b.Build()
	d := NewFleetData(tl.Analyze(timeline.DefaultParams()))
	if d == nil || len(tl.Servers) != 2 {
		t.Fatalf("the fleet recording: fleet %v, %d servers", d != nil, len(tl.Servers))
	}
	split, named := 0, 0
	for _, st := range d.Fleet.Steps {
		if st.Without == 0 {
			continue
		}
		by := d.stampedeByServer(st.T, false)
		sum := 0
		for _, part := range strings.Split(by, ", ") {
			name, n, _ := strings.Cut(part, " ")
			if name != "unknown" {
				named++
			}
			k, err := strconv.Atoi(n)
			if err != nil {
				t.Fatalf("at %s the split reads %q", clock(st.T), by)
			}
			sum += k
		}
		if sum != st.Without {
			t.Errorf("at %s %d clients would relist without bookmarks, the split %q adds up to %d", clock(st.T), st.Without, by, sum)
		}
		split++
	}
	if split == 0 || named == 0 {
		t.Errorf("%d instants of the fleet recording would send a client to relist, %d parts of their splits name a server: the test tests nothing", split, named)
	}
}
