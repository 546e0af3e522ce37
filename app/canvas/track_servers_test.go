package canvas

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// labTimeline reads the lab's six audit logs and, with exports, its
// Prometheus exports, as the page reads dropped files.
func labTimeline(t testing.TB, exports bool) *timeline.Timeline {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	files, err := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	if err != nil || len(files) != 6 {
		t.Fatalf("the lab has %d audit logs, want 6 (%v)", len(files), err)
	}
	if exports {
		ex, _ := filepath.Glob(filepath.Join(dir, "prometheus", "query_range", "*.json.gz"))
		files = append(files, ex...)
	}
	return buildFiles(t, files)
}

// trackBands are the layout's track bands by label.
func trackBands(layout Layout) map[string]Band {
	out := map[string]Band{}
	for _, b := range layout.Bands {
		if b.ID == BandTrack {
			out[b.Label] = b
		}
	}
	return out
}

// The lab's three servers each get a band of their processes and caches
// and one of their requests; pointing inside a process names it and its
// ConfigMap cache's RV and capacity as the metrics say then, and, in the
// minute an old process shut down (its scrapes failing from its
// SIGTERM), that it took no new request: that part of its bar is drawn
// faint.
func TestServerTracksOfTheLab(t *testing.T) {
	tl := labTimeline(t, true)
	c := NewCache(tl)
	v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	s := v.PlotScale(&layout)
	bands := trackBands(layout)
	if len(tl.Servers) != 3 || len(bands) != 12 {
		t.Fatalf("%d servers, track bands %v; want 3 servers, each with four bands: its own, its requests' and its two caches' windows", len(tl.Servers), bands)
	}
	for _, srv := range tl.Servers {
		b, ok := bands["server "+srv.Name]
		if _, req := bands["requests · "+srv.Name]; !ok || !req {
			t.Fatalf("server %s has no band of its own, or none of its requests: %v", srv.Name, bands)
		}
		if len(srv.Incarnations) != 2 {
			t.Fatalf("server %s has %d processes in its audit logs, the lab restarted each once", srv.Name, len(srv.Incarnations))
		}
		for k, inc := range srv.Incarnations {
			mid := (inc.From + inc.To) / 2
			h := HitTest(c, v, &layout, s.X(mid), b.Y+b.Height/2)
			want := "server " + srv.Name + ", process " + strconv.Itoa(k+1) + " since " + clock(inc.From, nil)
			if !strings.HasPrefix(h.Text, want) {
				t.Errorf("mid-process %d of %s: %q, want it to begin %q", k+1, srv.Name, h.Text, want)
			}
			// The hover is asked at the pixel's instant.
			at := s.At(s.X(mid))
			rv, ok := tl.Metrics.HeadRV(srv.Name, "configmaps", at)
			capacity, okc := tl.Metrics.Capacity(srv.Name, "configmaps", at)
			if !ok || !okc {
				t.Fatalf("the lab's metrics have no ConfigMap cache of %s at %s", srv.Name, clock(at, nil))
			}
			if want := "its configmaps cache at RV " + strconv.FormatUint(rv, 10) + ", holding up to " + strconv.Itoa(capacity) + " changes"; !strings.Contains(h.Text, want) {
				t.Errorf("mid-process %d of %s: %q, want %q", k+1, srv.Name, h.Text, want)
			}
		}
		restart := srv.Incarnations[1].From
		if h := HitTest(c, v, &layout, s.X(restart), b.Y+4); !strings.Contains(h.Text, "restarted at "+clock(restart, nil)+": process 2 began") {
			t.Errorf("at %s's restart: %q", srv.Name, h.Text)
		}
	}
	// Its scrapes bound each closing within two seconds; its audit log's
	// instant, within them, is the closer.
	checkShutdowns(t, tl, c, v, &layout, &fr)
	// The request bands' hover counts what the metrics count.
	b := bands["requests · a"]
	from, to := tl.Servers[0].Incarnations[1].From, tl.Servers[0].Incarnations[1].To
	at := s.At(s.X((from + to) / 2))
	h := HitTest(c, v, &layout, s.X((from+to)/2), b.Y+b.Height/2)
	lt, ln := tl.Metrics.RequestSteps("a", "LIST")
	k := lastAtOrBefore(lt, at) + 1
	if want := "server a finished " + count(int(ln[k]), "LIST", "LISTs") + " and "; !strings.HasPrefix(h.Text, want) {
		t.Errorf("requests of a at %s: %q, want it to begin %q", clock(at, nil), h.Text, want)
	}
	// Across a's restart nobody scraped it for a minute (its old process
	// answered no scrape while it drained): what it finished then is not
	// known, though its new process's first scrape counts from 0.
	restart := tl.Servers[0].Incarnations[1].From
	at = s.At(s.X(restart))
	k = lastAtOrBefore(lt, at) + 1
	if lt[k]-lt[k-1] < int64(30*time.Second) {
		t.Fatalf("a's scrapes around its restart at %s are %s apart: the gap is not exercised", clock(restart, nil), time.Duration(lt[k]-lt[k-1]))
	}
	h = HitTest(c, v, &layout, s.X(restart), b.Y+b.Height/2)
	if want := "requests · server a: not scraped between " + clock(lt[k-1], nil) + " and " + clock(lt[k], nil) + ", so what it finished then is not known; it restarted then, and its new process had finished "; !strings.HasPrefix(h.Text, want) {
		t.Errorf("requests of a at its restart: %q, want it to begin %q", h.Text, want)
	}
}

// TestCapacityLabelsStandApart: the lab's caches' capacities, written
// under each server's lines where they change, at 1280 and 900 px: no
// label begins before the one before it on its line has ended, the
// first's words ("configmaps cache holds 200 changes") included, and
// some capacity change is labelled after the first, so the test sees
// two labels on a line.
func TestCapacityLabelsStandApart(t *testing.T) {
	tl := labTimeline(t, true)
	c := NewCache(tl)
	for _, width := range []float64{1280, 900} {
		v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, width)
		var fr Frame
		c.Build(v, &fr)
		lines := map[float32][]Text{}
		for _, tx := range fr.Texts {
			if strings.HasPrefix(tx.Text, "holds ") || strings.Contains(tx.Text, " cache holds ") {
				lines[tx.Y] = append(lines[tx.Y], tx)
			}
		}
		pairs := 0
		for _, texts := range lines {
			sort.Slice(texts, func(i, j int) bool { return texts[i].X < texts[j].X })
			for k := 1; k < len(texts); k++ {
				pairs++
				if end := float64(texts[k-1].X) + labelWidth(texts[k-1].Text); float64(texts[k].X) < end {
					t.Errorf("at %v px, %q at x %v begins before %q ends at %v", width, texts[k].Text, texts[k].X, texts[k-1].Text, end)
				}
			}
		}
		if pairs == 0 {
			t.Errorf("at %v px no line has two capacity labels: the test tests nothing", width)
		}
	}
}

// TestCapacityLabelsEndInThePlot: however the lab's timeline is panned,
// at 390, 800 and 1440 px, a cache's capacity label under a server's lines
// ends within the plot, by the most its words take, in one of its whole
// wordings ("configmaps cache holds 200 changes", "holds 400"): one
// near the plot's right end, which the plot's clip would cut mid-word
// ("ho"), is written short or left out.
func TestCapacityLabelsEndInThePlot(t *testing.T) {
	tl := labTimeline(t, true)
	an := tl.Analyze(timeline.DefaultParams())
	c := NewCache(tl)
	whole := regexp.MustCompile(`^(holds [0-9]+|[a-z.]+ cache holds [0-9]+ changes)$`)
	var fr Frame
	// checked counts the labels looked at; near, the capacity changes
	// in view whose shortest label would run past the plot's right end.
	checked, near := 0, 0
	for _, width := range []float64{390, 800, 1440} {
		// A change of capacity comes to every place near the plot's
		// right end.
		slideTimeline(tl, an, c, width, 150, &fr, func(v *View, layout *Layout) {
			s := v.PlotScale(layout)
			right := s.X0 + s.Width
			for _, tx := range fr.Texts {
				if !strings.Contains(tx.Text, "holds ") {
					continue
				}
				checked++
				if end := float64(tx.X) + labelWidth(tx.Text); end > right || !whole.MatchString(tx.Text) {
					t.Errorf("at %v px, %s-%s: the capacity label %q ends at %.1f, the plot at %.1f, or is no whole wording",
						width, clock(v.From, nil), clock(v.To, nil), tx.Text, end, right)
				}
			}
			for _, srv := range collectServers(tl) {
				for _, cs := range srv.caches[:min(len(srv.caches), 1)] {
					for i, at := range cs.capT {
						if at > v.From && at <= v.To && s.X(at)+2+labelWidth("holds "+strconv.Itoa(cs.capacity[i])) > right {
							near++
						}
					}
				}
			}
		})
	}
	if checked == 0 || near == 0 {
		t.Fatalf("%d capacity labels checked, %d changes near the plot's right end: the test tests nothing", checked, near)
	}
}

// From the lab's audit logs alone, each old process's band says, in the
// minute it shut down, that it took no new request from when its own
// informers' watches ended, as its audit log shows, and draws that part
// faint; a moment before, it says nothing of it.
func TestServerTracksOfTheLabsAuditLogs(t *testing.T) {
	tl := labTimeline(t, false)
	c := NewCache(tl)
	v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	checkShutdowns(t, tl, c, v, &layout, &fr)
}

// checkShutdowns checks that each old process of the lab's servers says,
// pointed at in the minute it shut down, when its audit log shows it
// stopped taking new requests, and five seconds before says nothing of
// it; and that the frame draws faint the three shutdowns and the three
// last processes' exits (after the fleet, for the milliseconds they
// took).
func checkShutdowns(t *testing.T, tl *timeline.Timeline, c *Cache, v *View, layout *Layout, fr *Frame) {
	t.Helper()
	s := v.PlotScale(layout)
	bands := trackBands(*layout)
	for _, srv := range tl.Servers {
		b, ok := bands["server "+srv.Name]
		old := srv.Incarnations[0]
		if !ok || old.ClosingSource != timeline.ClosingAudited {
			t.Fatalf("server %s: band %v, its old process's closing from %v", srv.Name, ok, old.ClosingSource)
		}
		h := HitTest(c, v, layout, s.X((old.Closing+old.To)/2), b.Y+b.Height/2)
		if want := "shutting down: it stopped taking new requests at " + clock(old.Closing, nil) + ", as its audit log shows: its own informers' watches ended then"; !strings.Contains(h.Text, want) {
			t.Errorf("in %s's shutdown: %q, want %q", srv.Name, h.Text, want)
		}
		if h := HitTest(c, v, layout, s.X(old.Closing-int64(5e9)), b.Y+b.Height/2); strings.Contains(h.Text, "shutting down") {
			t.Errorf("before %s's shutdown: %q", srv.Name, h.Text)
		}
	}
	faint := 0
	for _, op := range fr.Ops {
		if op.Kind == "rect" && op.Color == ColorSession && op.Alpha == 0.2 {
			faint += op.Count / 4
		}
	}
	if faint != 6 {
		t.Errorf("%d faint bars, want the three old processes' shutdowns and the three last ones' exits", faint)
	}
}

// A session's hover names the server, and its process, that answered it.
func TestSessionHoverNamesItsServer(t *testing.T) {
	tl := labTimeline(t, false)
	named := 0
	for g := range tl.Sessions {
		srv, inc, ok := tl.ServerOf(g)
		if !ok {
			continue
		}
		named++
		c := &Cache{tl: tl}
		want := "answered by server " + tl.Servers[srv].Name + ", process " + strconv.Itoa(inc+1) + " of 2"
		if got := c.sessionText(g); !strings.Contains(got, want) {
			t.Fatalf("session %d: %q, want %q", g, got, want)
		}
	}
	if named != len(tl.Sessions) || named == 0 {
		t.Errorf("%d of %d sessions name their server; the lab's audit logs name every one", named, len(tl.Sessions))
	}
}

// A Prometheus export alone draws its servers, on the export's clock.
func TestServerTracksOfAnExportAlone(t *testing.T) {
	name := filepath.Join(testsample.Recording(t, "samples-lab"), "prometheus", "query_range", "apiserver_watch_cache_resource_version.json.gz")
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := timeline.NewBuilder()
	if err := b.AddReader(filepath.Base(name), f, parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	c := NewCache(tl)
	from, to := c.Extent(false)
	if tl.Metrics == nil || from > tl.Metrics.From || to < tl.Metrics.To {
		t.Fatalf("the view spans %s to %s, not the export's", clock(from, nil), clock(to, nil))
	}
	v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	bands := trackBands(layout)
	for _, srv := range []string{"a", "b", "c"} {
		b, ok := bands["server "+srv]
		if !ok {
			t.Fatalf("no band of server %s: %v", srv, bands)
		}
		s := v.PlotScale(&layout)
		// A minute in, where every server was scraped.
		mid := tl.Metrics.From + 60e9
		if h := HitTest(c, v, &layout, s.X(mid), b.Y+b.Height/2); !strings.HasPrefix(h.Text, "server "+srv+", process 1, in its metrics from "+clock(tl.Metrics.From, nil)) || !strings.Contains(h.Text, "cache at RV") {
			t.Errorf("server %s mid-export: %q", srv, h.Text)
		}
	}
}

// recordingTimeline reads a recording's files matching the patterns, as
// the page reads dropped files.
func recordingTimeline(t testing.TB, name string, patterns ...string) *timeline.Timeline {
	t.Helper()
	dir := testsample.Recording(t, name)
	b := timeline.NewBuilder()
	for _, pattern := range patterns {
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		if len(files) == 0 {
			t.Fatalf("%s: no file matches %s", dir, pattern)
		}
		for _, file := range files {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			err = b.AddReader(filepath.Base(file), f, parser.Options{})
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return b.Build()
}

// ownLogMarks counts the frame's marks of the servers' own logs: the
// crosses at SIGTERM and the diamonds of re-initialised caches.
func ownLogMarks(fr *Frame) (sigterms, reinits int) {
	for _, op := range fr.Ops {
		switch {
		case op.Kind == "mark" && op.Color == ColorError && op.Shape == "cross":
			sigterms += op.Count / 2
		case op.Kind == "mark" && op.Color == ColorError && op.Shape == "diamond":
			reinits += op.Count / 2
		}
	}
	return sigterms, reinits
}

// With no audit log, samples-watchlist's API servers' own logs draw each
// server's band, a mark at its SIGTERM (timeline.txt: a at 18:45:46, b
// at 18:47:16, c at 18:48:46) and at its new process, whose hover says
// both.
func TestServerTracksOfTheirOwnLogs(t *testing.T) {
	tl := recordingTimeline(t, "samples-watchlist", "c000-*.ts.http", "apiserver-*.log")
	c := NewCache(tl)
	v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	s := v.PlotScale(&layout)
	bands := trackBands(layout)
	if sigterms, reinits := ownLogMarks(&fr); sigterms != 3 || reinits != 0 {
		t.Errorf("%d SIGTERM marks, %d re-initialisations; want one SIGTERM per server, no re-initialisation", sigterms, reinits)
	}
	sigterm := map[string]string{"a": "18:45:46", "b": "18:47:16", "c": "18:48:46"}
	for _, r := range tl.ServerLogRestarts() {
		b, ok := bands["server "+r.Server]
		if !ok {
			t.Fatalf("no band of server %s: %v", r.Server, bands)
		}
		for _, at := range []int64{r.SIGTERM, r.NewStart} {
			h := HitTest(c, v, &layout, s.X(at), b.Y+4)
			if want := "its own log: SIGTERM at " + sigterm[r.Server] + "."; !strings.Contains(h.Text, want) {
				t.Errorf("server %s at %s: %q, want %q", r.Server, clock(at, nil), h.Text, want)
			}
		}
	}
}

// samples-outage's servers ran one process each, and four watch caches
// ended their watches with no restart (c's pods at 19:07:28, a's
// runtimeclasses and rolebindings at 19:10:48, a's rolebindings at
// 19:14:16): a mark each on its server's band, whose hover names it.
func TestServerTracksOfReinitialisedCaches(t *testing.T) {
	tl := recordingTimeline(t, "samples-outage", "audit-*.log", "apiserver-*.log")
	c := NewCache(tl)
	v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	s := v.PlotScale(&layout)
	if sigterms, reinits := ownLogMarks(&fr); sigterms != 0 || reinits != 4 {
		t.Errorf("%d SIGTERM marks, %d re-initialisations; want no restart, 4 re-initialisations", sigterms, reinits)
	}
	b := trackBands(layout)["server a"]
	h := HitTest(c, v, &layout, s.X(tl.CacheReinits()[2].T), b.Y+b.Height/2)
	for _, want := range []string{"server a's cache of rolebindings ended every watch at 19:10:48.", "server a's cache of runtimeclasses ended every watch at 19:10:48.", "with no restart (its own log)"} {
		if !strings.Contains(h.Text, want) {
			t.Errorf("server a at 19:10:48: %q, want %q", h.Text, want)
		}
	}
	b = trackBands(layout)["server c"]
	if h := HitTest(c, v, &layout, s.X(tl.CacheReinits()[0].T), b.Y+b.Height/2); !strings.Contains(h.Text, "server c's cache of pods ended every watch at 19:07:28") {
		t.Errorf("server c at 19:07:28: %q", h.Text)
	}
}

// BenchmarkFrameLabServers is a frame of the lab's audit logs and
// exports: 225 clients' groups and the three servers' tracks.
func BenchmarkFrameLabServers(b *testing.B) {
	tl := labTimeline(b, true)
	c := NewCache(tl)
	groups, rows, _ := BuildRows(tl, timeline.Filter{}, map[string]bool{}, nil)
	from, to := c.Extent(false)
	v := &View{Analysis: tl.Analyze(timeline.DefaultParams()), From: from, To: to, Width: 1440, PixelRatio: 1, Groups: groups, Rows: rows, Selected: -1}
	var fr Frame
	for b.Loop() {
		c.Build(v, &fr)
	}
}

// buildFiles reads the files, by their base names, into one timeline, as
// the page reads dropped files.
func buildFiles(t testing.TB, files []string) *timeline.Timeline {
	t.Helper()
	b := timeline.NewBuilder()
	for _, name := range files {
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
	return b.Build()
}

// TestServerTracksFitWhatTheyDraw: from the lab's audit logs alone a
// server's band holds its processes' bars and restart marks only, and is
// no taller than they need; with the exports it has room for its caches'
// lines. Either way a restart is still hit on the band's bar.
func TestServerTracksFitWhatTheyDraw(t *testing.T) {
	for _, exports := range []bool{false, true} {
		tl := labTimeline(t, exports)
		c := NewCache(tl)
		v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, 1280)
		var fr Frame
		layout := c.Build(v, &fr)
		s := v.PlotScale(&layout)
		want := serverBarH
		if exports {
			want = serverH
		}
		b, ok := trackBands(layout)["server a"]
		if !ok || b.Height != want {
			t.Fatalf("exports %v: server a's band %+v, want %v high", exports, b, want)
		}
		restart := tl.Servers[0].Incarnations[1].From
		if h := HitTest(c, v, &layout, s.X(restart), b.Y+4); !strings.Contains(h.Text, "restarted at "+clock(restart, nil)) {
			t.Errorf("exports %v: at a's restart: %q", exports, h.Text)
		}
	}
}

// TestServerRestartsAreNotErrors: a server's new process is marked with
// an upward triangle in the text's colour, not the ERROR events' red
// downward one (the review read a restart beside "No 410 was observed"
// as an error).
func TestServerRestartsAreNotErrors(t *testing.T) {
	tl := recordingTimeline(t, "samples-watchlist", "c000-*.ts.http", "apiserver-*.log")
	c := NewCache(tl)
	v := wholeView(tl, tl.Analyze(timeline.DefaultParams()), c, 1280)
	var fr Frame
	c.Build(v, &fr)
	starts := 0
	for _, op := range fr.Ops {
		switch {
		case op.Kind == "mark" && op.Shape == "tri" && op.Color == ColorFg:
			starts += op.Count / 2
		case op.Kind == "mark" && op.Shape == "tridown":
			t.Errorf("an ERROR's mark in a capture with no ERROR: %+v", op)
		}
	}
	if starts != 3 {
		t.Errorf("%d new processes marked, want one per server", starts)
	}
}
