package canvas

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"watchlens/internal/quantity"
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
				t.Fatalf("at %s the split reads %q", clock(st.T, nil), by)
			}
			sum += k
		}
		if sum != st.Without {
			t.Errorf("at %s %d clients would relist without bookmarks, the split %q adds up to %d", clock(st.T, nil), st.Without, by, sum)
		}
		split++
	}
	if split == 0 || named == 0 {
		t.Errorf("%d instants of the fleet recording would send a client to relist, %d parts of their splits name a server: the test tests nothing", split, named)
	}
}

// The lab's fleet, from its audit logs: the rows come in runs by the
// server each client was on longest, and the relists per server are
// those attribution.tsv gives: each client's LISTs after its first, by
// the server the load balancer sent them to.
func TestFleetGroupsAndRelistsByServer(t *testing.T) {
	tl := labTimeline(t, false)
	d := NewFleetData(tl.Analyze(timeline.DefaultParams()))
	if d == nil || len(d.Groups) < 3 {
		t.Fatalf("the lab's fleet groups: %+v", d.Groups)
	}
	rows, seen := 0, map[int]bool{}
	for _, g := range d.Groups {
		if g.First != rows || seen[g.Server] {
			t.Errorf("group %+v does not follow the one before, or repeats its server", g)
		}
		seen[g.Server] = true
		for r := g.First; r < g.First+g.Rows; r++ {
			if k := d.longestServer(r); k != g.Server {
				t.Errorf("%s is in server %d's group, but was on server %d longest", d.Rows[r].Client.Name, g.Server, k)
			}
		}
		rows += g.Rows
	}
	if rows != len(d.Rows) {
		t.Errorf("the groups hold %d rows of %d", rows, len(d.Rows))
	}

	// attribution.tsv's relists per server.
	b, err := os.ReadFile(filepath.Join(testsample.Recording(t, "samples-lab"), "attribution.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]int{}
	want := map[string]int{}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t")
		uri := f[13]
		if strings.Contains(uri, "watch=true") || strings.Contains(uri, "continue=") {
			continue
		}
		if lists[f[0]]++; lists[f[0]] > 1 {
			want[f[8]]++
		}
	}
	got := map[string]int{}
	for k, ts := range d.serverRelists {
		name := "not known"
		if k < len(tl.Servers) {
			name = tl.Servers[k].Name
		}
		if len(ts) > 0 {
			got[name] = len(ts)
		}
	}
	t.Logf("relists per server: %v; attribution.tsv: %v", got, want)
	if len(want) != 3 || len(got) != len(want) {
		t.Fatalf("relists per server %v, attribution.tsv's %v", got, want)
	}
	for name, n := range want {
		if got[name] != n {
			t.Errorf("server %s answered %d relists, attribution.tsv says %d", name, got[name], n)
		}
	}
	if by := d.relistsByServer(tl.Start(), tl.End()+1); !strings.Contains(by, "a "+strconv.Itoa(want["a"])) {
		t.Errorf("the histogram's hover over the whole clock says %q", by)
	}
}

// TestFleetGroupHeadersStandApart: scrolled through the lab's fleet,
// each group's header is drawn once, in a slot of its own where no row
// is hit, and each row's tooltip is found where its name is drawn. The
// headers' names stood over the first row of each group, over its red
// spans and rings, before they had slots of their own.
func TestFleetGroupHeadersStandApart(t *testing.T) {
	tl := labTimeline(t, false)
	d := NewFleetData(tl.Analyze(timeline.DefaultParams()))
	if len(d.Groups) < 3 {
		t.Fatalf("the lab's fleet has %d groups", len(d.Groups))
	}
	var fr Frame
	var buf FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: 1440, MaxHeight: 600, PixelRatio: 1}
	heads := map[string]int{}
	for {
		l := d.Build(v, &fr, &buf)
		for _, tx := range fr.Texts {
			if !strings.Contains(tx.Text, " longest: ") && !strings.HasPrefix(tx.Text, "clients no audit log places: ") {
				continue
			}
			y := float64(tx.Y)
			if y < l.RowsY || y >= l.RowsY+l.RowsH {
				continue // clipped away
			}
			if r := l.RowAt(y, v.ScrollY); r >= 0 {
				t.Errorf("the header %q is drawn over row %d (%s)", tx.Text, r, d.Rows[r].Client.Name)
			}
			// Its hover says what the group holds, its count first.
			_, count, _ := strings.Cut(tx.Text, ": ")
			if h := d.HitTest(v, &l, 400, y); h.Row != -1 || !strings.HasPrefix(h.Text, count+" ") || !strings.Contains(h.Text, "Riskiest first.") {
				t.Errorf("the header %q's hover: row %d, %q", tx.Text, h.Row, h.Text)
			}
			heads[tx.Text]++
		}
		first, last := l.VisibleRows(v.ScrollY)
		for r := first; r < last; r++ {
			y := l.RowY(r, v.ScrollY) + FleetRowH/2
			if y < l.RowsY || y >= l.RowsY+l.RowsH {
				continue
			}
			if h := d.HitTest(v, &l, 20, y); h.Row != r || !strings.HasPrefix(h.Text, d.Rows[r].Label) {
				t.Errorf("row %d (%s) is drawn at y %v, where the tooltip is of row %d: %q", r, d.Rows[r].Label, y, h.Row, h.Text)
			}
		}
		if v.ScrollY >= l.ClampScroll(1e9) {
			break
		}
		v.ScrollY = l.ClampScroll(v.ScrollY + l.RowsH - FleetRowH)
	}
	if len(heads) != len(d.Groups) {
		t.Errorf("%d headers drawn, %v, for %d groups", len(heads), heads, len(d.Groups))
	}
	for g := range d.Groups {
		name := "clients no audit log places"
		if d.Groups[g].Server >= 0 {
			name = "on API server " + d.tl.Servers[d.Groups[g].Server].Name + " longest"
		}
		if heads[name+": "+strconv.Itoa(d.Groups[g].Rows)+" clients"] == 0 {
			t.Errorf("group %+v has no header %q: %v", d.Groups[g], name, heads)
		}
	}
}

// TestServerLabelsFitTheHistogram: over the lab's histogram of relists,
// each server's name and count stays inside the plot: "answered by a:
// 39" on
// a desktop, "a 39" on a phone, where "server c" was cut at the edge,
// its count lost.
func TestServerLabelsFitTheHistogram(t *testing.T) {
	tl := labTimeline(t, false)
	d := NewFleetData(tl.Analyze(timeline.DefaultParams()))
	for _, c := range []struct {
		width  float64
		prefix string
	}{{1280, "answered by "}, {390, ""}} {
		var fr Frame
		var buf FleetScratch
		l := d.Build(&FleetViewport{From: d.From, To: d.To, Width: c.width, PixelRatio: 1}, &fr, &buf)
		drawn := 0
		for _, tx := range fr.Texts {
			if tx.Y != float32(l.HistY+7) {
				continue
			}
			drawn++
			if float64(tx.X)+serverLabelW(tx.Text) > l.PlotX+l.PlotW || !strings.HasPrefix(tx.Text, c.prefix) {
				t.Errorf("at %v px the label %q at x %v passes the plot's end at %v, or lacks %q", c.width, tx.Text, tx.X, l.PlotX+l.PlotW, c.prefix)
			}
		}
		if drawn != len(tl.Servers) {
			t.Errorf("at %v px %d servers' labels over the histogram, want %d", c.width, drawn, len(tl.Servers))
		}
	}
}

// TestFleetLabelsOverLinesAreOnBoxes: a label written over the fleet's
// curves or its histogram (the scale's peak and 0, the servers' names
// over the relists, the restarts' names) that a line of the frame
// crosses (a restart's, a grid line, a curve) is drawn on a box of the
// page's background, which the line does not cross: on samples-lab's
// fleet, whole at 800 and 1440 px, where the 18:15 restart's line
// crosses "answered by c: 26", and panned across the restarts, where the
// curves cross the scale's labels.
func TestFleetLabelsOverLinesAreOnBoxes(t *testing.T) {
	tl := labTimeline(t, true)
	d := NewFleetData(tl.Analyze(timeline.DefaultParams()))
	var fr Frame
	var buf FleetScratch
	crossed := map[string]int{}
	for _, width := range []float64{800, 1440} {
		span := d.To - d.From
		for k := range 40 {
			v := &FleetViewport{From: d.From, To: d.To, Width: width, PixelRatio: 1}
			if k > 0 {
				v.From = d.From + int64(k)*span/60
				v.To = v.From + span/3
			}
			l := d.Build(v, &fr, &buf)
			for _, tx := range fr.Texts {
				if float64(tx.X) < l.PlotX || float64(tx.Y) < l.CurvesY || float64(tx.Y) > l.HistY+fleetHistH {
					continue
				}
				w := labelWidth(tx.Text)
				switch {
				case tx.MaxWidth > 0:
					w = min(w, float64(tx.MaxWidth))
				case tx.Font == "b":
					w = serverLabelW(tx.Text)
				}
				x0, x1 := float64(tx.X), float64(tx.X)+w
				y0, y1 := float64(tx.Y)-5, float64(tx.Y)+5
				for _, op := range fr.Ops {
					if op.Kind != "seg" {
						continue
					}
					for i := op.Offset; i+4 <= op.Offset+op.Count; i += 4 {
						f := fr.floats[i : i+4]
						if min(f[0], f[2]) > float32(x1) || max(f[0], f[2]) < float32(x0) || min(f[1], f[3]) > float32(y1) || max(f[1], f[3]) < float32(y0) {
							continue
						}
						crossed[tx.Text]++
						if tx.Box != ColorBg {
							t.Errorf("at %v px, %s-%s: the label %q at (%.0f, %.0f) is crossed by a line (%v) and on no box",
								width, clock(v.From, nil), clock(v.To, nil), tx.Text, tx.X, tx.Y, f)
						}
						break
					}
				}
			}
		}
	}
	if crossed["answered by c: 26"] == 0 || crossed["0"] == 0 {
		t.Errorf("lines cross the labels %v, not \"answered by c: 26\" and \"0\": the test tests less than it says", crossed)
	}
}

// TestFleetHoverOfAClientLog: a client read from client-go's own log,
// which names no request's parameters, is not said to have asked for
// bookmarks (its library's default, which half the lab's did not), nor
// given a verdict for the other cursor.
func TestFleetHoverOfAClientLog(t *testing.T) {
	tl := recordingTimeline(t, "samples-lab", "fleet-klog.log")
	d := NewFleetData(tl.Analyze(timeline.DefaultParams()))
	if d == nil || len(d.Rows) < 200 || !d.Rows[0].Client.BookmarksUnseen {
		t.Fatalf("the lab's klog makes no fleet of clients whose bookmarks it does not show: %v", d)
	}
	got := strings.Join(d.rowText(0, (d.clockStart+d.clockEnd)/2, 1), "\n")
	for _, want := range []string{"asked for bookmarks: not shown", "with the cursor its log shows (as it ran): "} {
		if !strings.Contains(got, want) {
			t.Errorf("the hover %q does not say %q", got, want)
		}
	}
	for _, not := range []string{"asked for bookmarks: yes", "without bookmarks: "} {
		if strings.Contains(got, not) {
			t.Errorf("the hover %q says %q", got, not)
		}
	}
}

// TestProbableRestartsAreSaidSo: the lab's klog alone suggests the three
// restarts by its clients' watches ending together, which the summary
// calls probable and does not apply; the fleet names them so too, while
// the audit logs show them for certain, with when the new process served
// (its log's first request): "the first reconnect a server answered was
// sent at 18:15:01.229" of b's read as no server answering for 3 s,
// where a and c answered at 18:14:58.4 (the UI review of the page).
func TestProbableRestartsAreSaidSo(t *testing.T) {
	for _, c := range []struct {
		files  []string
		label  func(r timeline.DetectedRestart) string
		served string
	}{
		{[]string{"fleet-klog.log"}, func(timeline.DetectedRestart) string { return "probable restart" }, "the first reconnect a server answered, as the clients' logs date it, was at "},
		// The audit logs name the server.
		{[]string{"audit-*.log"}, func(r timeline.DetectedRestart) string { return "server " + r.ServerName + " restart" }, "its new process served from "},
	} {
		d := NewFleetData(recordingTimeline(t, "samples-lab", c.files...).Analyze(timeline.DefaultParams()))
		if d == nil || len(d.Restarts) != 3 {
			t.Fatalf("%s: %v", c.files, d)
		}
		v, l, _ := wholeFleetFrame(d, 4000, 500)
		r := d.Restarts[0]
		h := d.HitTest(v, &l, v.Scale(&l).X(r.Ended)+1, l.HistY+20)
		if want := c.served + clock(r.Served, d.zone); !strings.Contains(h.Text, want) {
			t.Errorf("%s: the restart's hover %q does not say %q", c.files, h.Text, want)
		}
		if len(l.RestartLabels) == 0 {
			t.Fatalf("%s: no restart named over the curves", c.files)
		}
		// One label a restart, each its own.
		want := map[string]int{}
		for _, r := range d.Restarts {
			want[c.label(r)]++
		}
		for _, rl := range l.RestartLabels {
			if want[rl.Text]--; want[rl.Text] < 0 {
				t.Errorf("%s: a restart is named %q, want one label each of %v", c.files, rl.Text, want)
			}
		}
	}
}

// TestFleetNameHoverTellsTheClient: over a row's name the hover tells
// the client, not a reconnect at the view's first instant (before the
// recordings begin, which read as noise).
func TestFleetNameHoverTellsTheClient(t *testing.T) {
	d := fleetData(t)
	v, l, _ := wholeFleetFrame(d, 1280, 800)
	h := d.HitTest(v, &l, l.PlotX/2, l.RowY(0, 0)+FleetRowH/2)
	if h.Row != 0 || !strings.Contains(h.Text, "asked for bookmarks: ") {
		t.Fatalf("over the first row's name: row %d, %q", h.Row, h.Text)
	}
	if strings.Contains(h.Text, "a reconnect at") || strings.Contains(h.Text, "recordings begin") {
		t.Errorf("over the first row's name the hover tells an instant: %q", h.Text)
	}
}

// TestFleetOfClientLogsDrawsOneCurve: every client of the lab's klog
// hides its bookmarks, so the curves' "with" and "without" are one
// answer: one curve, named as the logs show it, not two that coincide.
func TestFleetOfClientLogsDrawsOneCurve(t *testing.T) {
	for _, c := range []struct {
		file   string
		unseen bool
	}{{"fleet-klog.log", true}, {"audit-a-1.log", false}} {
		d := NewFleetData(recordingTimeline(t, "samples-lab", c.file).Analyze(timeline.DefaultParams()))
		_, _, fr := wholeFleetFrame(d, 1280, 500)
		aware, named := 0, false
		for _, op := range fr.Ops {
			if op.Kind == "seg" && op.Color == ColorAware {
				aware++
			}
		}
		for _, tx := range fr.Texts {
			named = named || tx.Text == "with bookmarks ━"
		}
		if got := aware == 0 && !named; got != c.unseen {
			t.Errorf("%s: %d curves with bookmarks, named %v; want one curve alone: %v", c.file, aware, named, c.unseen)
		}
		tip := strings.Join(d.stampedeLines(nil, (d.clockStart+d.clockEnd)/2), "\n")
		if got := !strings.Contains(tip, "with bookmarks"); got != c.unseen {
			t.Errorf("%s: the curves' hover %q", c.file, tip)
		}
	}
}

// TestRestartHoverCountsItsRelists: the histogram's bin under a
// restart's mark may hold only the start of the relists it caused (b's
// in the lab: 2 in the bin, the burst in the next, as a UI review found);
// the restart's hover says its own count.
func TestRestartHoverCountsItsRelists(t *testing.T) {
	d := NewFleetData(recordingTimeline(t, "samples-lab", "*.ts.http", "audit-*.log").Analyze(timeline.DefaultParams()))
	if d == nil || len(d.Restarts) != 3 {
		t.Fatalf("the lab's restarts: %v", d)
	}
	v, l, _ := wholeFleetFrame(d, 4000, 500)
	told := 0
	for _, r := range d.Restarts {
		h := d.HitTest(v, &l, v.Scale(&l).X(r.Ended)+1, l.HistY+20)
		want := fmt.Sprintf("%d of those clients then got 410 Gone and relisted, %s in all", r.RelistClients, quantity.Plural(r.Relists, "relist"))
		if r.Relists == 0 {
			continue
		}
		told++
		if !strings.Contains(h.Text, "API server "+r.ServerName+" restart: ") || !strings.Contains(h.Text, want) {
			t.Errorf("the hover of %s's restart says %q, want its name and %q", r.ServerName, h.Text, want)
		}
	}
	if told == 0 {
		t.Fatal("no restart of the lab caused a relist: the test proves nothing")
	}
}
