//go:build !wasm

package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"watchlens/app/canvas"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// The lab's API servers on the page: its six audit logs, its
// Prometheus exports and three captures dropped together draw a band per
// server with its processes, whose hover says what the server was doing,
// a band per server and resource of the window its cache kept, below
// which each 410 the captures got is a cross, and a session's hover
// names the server that answered it; an export dropped alone is
// read as metrics, its verdict the CLI's "Metrics only" line.

// labFiles are the lab's six audit logs and its Prometheus exports.
func labFiles(t *testing.T) (logs, exports []string) {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	logs, err := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	must(t, err)
	exports, err = filepath.Glob(filepath.Join(dir, "prometheus", "query_range", "*.json.gz"))
	must(t, err)
	if len(logs) != 6 || len(exports) == 0 {
		t.Fatalf("the lab has %d audit logs and %d exports, want 6 and some", len(logs), len(exports))
	}
	return logs, exports
}

// openSampleWithin is openSample with a time limit of its own: the
// lab's whole load and the hovers after it, on a machine other builds
// share, take longer than a tab's usual limit.
func (s *servedSite) openSampleWithin(t testing.TB, name string, limit time.Duration) context.Context {
	t.Helper()
	tab := newTabWithin(t, s.browser, limit)
	navigate(t, tab, s.url+"/?sample="+name)
	checkShown(t, tab, name, "samples/"+name)
	return tab
}

// labRefusedCaptures are the captures of the lab's first refused
// resume on each server (probes.tsv), each of which got one 410.
func labRefusedCaptures(t *testing.T) []string {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	probes, err := os.ReadFile(filepath.Join(dir, "probes.tsv"))
	must(t, err)
	var out []string
	seen, clients := map[string]bool{}, map[string]int{}
	lines := strings.Split(strings.TrimSpace(string(probes)), "\n")
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t")
		clients[f[0]]++
		if f[5] == "410" {
			clients[f[0]] += 1000
		}
	}
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t")
		// client, answer, server; a client with one 410 only.
		if f[5] != "410" || seen[f[6]] || clients[f[0]] >= 2000 {
			continue
		}
		seen[f[6]] = true
		out = append(out, filepath.Join(dir, f[0]+".ts.http"))
	}
	if len(out) != 3 {
		t.Fatalf("the lab's probes give refused captures %v, want one per server", out)
	}
	return out
}

// tipAt moves the mouse to (x, y) of the timeline's canvas, CSS px, and
// returns the tooltip if it soon holds want, else "".
func tipAt(t *testing.T, tab context.Context, x, y float64, want string) string {
	t.Helper()
	p, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const r = document.querySelector("#timeline .tl-stage").getBoundingClientRect(); return [r.left + %f, r.top + %f]; })()`, x, y)))
	must(t, err)
	must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, p[0], p[1])))
	tip, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => { const e = document.querySelector("#timeline .tl-tip"); const t = e && e.style.display !== "none" ? e.textContent : ""; return t.includes(%q) ? t : ""; })()`, want),
		chromedp.WithPollingTimeout(300*time.Millisecond)))
	if err != nil {
		return ""
	}
	return tip
}

// nativeLab builds the timeline of files as the page reads them.
func nativeLab(t *testing.T, files []string) *timeline.Timeline {
	t.Helper()
	b := timeline.NewBuilder()
	for _, name := range files {
		f, err := os.Open(name)
		must(t, err)
		must(t, b.AddReader(filepath.Base(name), f, parser.Options{}))
		f.Close()
	}
	return b.Build()
}

// timelineTip moves the mouse to (x, y) of the timeline's canvas, CSS px,
// scrolling it into the window first, and returns the tooltip once it
// holds want.
func timelineTip(t *testing.T, tab context.Context, x, y float64, want string) string {
	t.Helper()
	p := scrollToLayout(t, tab, x, y)
	// The pointer comes onto the canvas from outside it, as a user's
	// does: a move to where it already is would fire no event. Where no
	// tip shows after a while, it comes again, as a user's does: a frame
	// drawn meanwhile, under a loaded machine's browser tests, can take
	// the first move's answer away.
	var tip string
	err := errors.New("no move yet")
	for deadline := time.Now().Add(pageWait); err != nil && time.Now().Before(deadline); {
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 0, 0)))
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, p[0], p[1])))
		tip, err = chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => { const e = document.querySelector("#timeline .tl-tip"); const t = e && e.style.display !== "none" ? e.textContent : ""; return t.includes(%q) ? t : ""; })()`, want),
			chromedp.WithPollingTimeout(min(15*time.Second, time.Until(deadline)))))
	}
	if err != nil {
		got, _ := chromedp.Run(tab, chromedp.Evaluate[string](`(() => { const e = document.querySelector("#timeline .tl-tip"); return e ? e.textContent : ""; })()`))
		t.Fatalf("at (%.0f, %.0f) the tooltip reads %q, not %q", x, y, got, want)
	}
	return tip
}

// plotX is where instant at lies on the timeline's canvas as the summary
// says it shows.
func plotX(t *testing.T, tab context.Context, at int64) float64 {
	t.Helper()
	g, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const d = document.querySelector("#timeline-summary").dataset, c = document.querySelector("#timeline canvas").dataset;
		return [Number(d.from), Number(d.to), Number(c.plotX), Number(c.plotW)]; })()`))
	must(t, err)
	from, to := int64(g[0]), int64(g[1])
	return g[2] + float64(at-from)/float64(to-from)*g[3]
}

func TestBrowserServers(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	logs, exports := labFiles(t)
	refused := labRefusedCaptures(t)
	files := append(append(append([]string(nil), logs...), exports...), refused...)
	tl := nativeLab(t, files)
	if len(tl.Servers) != 3 || tl.Metrics == nil {
		t.Fatalf("natively the lab has %d servers and metrics %v; want 3 and metrics", len(tl.Servers), tl.Metrics != nil)
	}
	clients := len(tl.Analyze(timeline.DefaultParams()).Fleet().Clients)
	s := startSite(t)
	tab := s.openSampleWithin(t, "w3-then-resume.ts.http", 5*time.Minute)
	// Tall enough for the three servers' bands and the first group of
	// tracks under them.
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 2200)))
	dropRead(t, tab, files...)
	// 207 clients: the page opens on the fleet, whose rows say the
	// servers each client went to.
	fleet, err := chromedp.Run(tab, chromedp.Poll[string](`(() => { const d = document.querySelector("#fleet-summary"); return d ? d.dataset.servers : null; })()`,
		chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	if rows := strings.Split(fleet, "\n"); len(rows) != clients || !strings.Contains(rows[0], "#") {
		t.Errorf("the fleet's rows name the servers %q...; want %d rows, each naming its servers", rows[:min(3, len(rows))], clients)
	}
	// The fleet drawn, before its picture: the rows' servers come with
	// the summary, ahead of the engine's frame.
	readFleetLayout(t, tab)
	screenshot(t, tab, "servers-fleet")
	if !showTimeline(t, tab) {
		t.Error("with the lab's 207 clients the page did not open on the fleet view")
	}
	var want []string
	var got string
	for _, srv := range tl.Servers {
		want = append(want, srv.Name+" "+strconv.Itoa(len(srv.Incarnations))+" true")
	}
	got, err = chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => { const d = document.querySelector("#timeline-summary"); return d && d.dataset.servers === %q ? d.dataset.servers : null; })()`, strings.Join(want, "\n")),
		chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil {
		t.Fatalf("the timeline's summary lists the servers %q, want %q", got, want)
	}
	bands := timelineBands(t, tab, func(b []fileBand) bool { return len(b) > 6 })
	byLabel := map[string]fileBand{}
	for _, b := range bands {
		if b.id == canvas.BandTrack {
			byLabel[b.label] = b
		}
	}
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`)))
	screenshot(t, tab, "servers")
	shotTimeline(t, tab, "servers-timeline")

	t.Run("each server's band draws its processes", func(t *testing.T) {
		for _, srv := range tl.Servers {
			b, ok := byLabel["server "+srv.Name]
			if _, req := byLabel["requests · "+srv.Name]; !ok || !req {
				t.Fatalf("no band of server %s, or of its requests, among %v", srv.Name, byLabel)
			}
			for k, inc := range srv.Incarnations {
				tip := timelineTip(t, tab, plotX(t, tab, (inc.From+inc.To)/2), b.y+b.h/2,
					"server "+srv.Name+", process "+strconv.Itoa(k+1)+" since "+time.Unix(0, inc.From).UTC().Format("15:04:05.000"))
				if !strings.Contains(tip, "its configmaps cache at RV ") || !strings.Contains(tip, "holding up to ") {
					t.Errorf("server %s's process %d: %q says nothing of its ConfigMap cache", srv.Name, k+1, tip)
				}
			}
		}
	})
	t.Run("a cursor's 410 lies below its server's window", func(t *testing.T) {
		a := tl.Analyze(timeline.DefaultParams())
		seen := 0
		for g := range tl.Sessions {
			ss := &tl.Sessions[g]
			if ss.Error == nil || !ss.Error.TooOld || ss.Server < 0 || ss.ErrorEvent < 0 || !strings.HasSuffix(tl.Files[ss.File].Name, ".ts.http") {
				continue
			}
			srv := tl.Servers[ss.Server].Name
			resource := tl.ResourceOf(ss.File)
			b, ok := byLabel["window · "+srv+" · "+resource]
			if !ok {
				t.Fatalf("no window band of server %s's %s among %v", srv, resource, byLabel)
			}
			at := tl.Event(ss.ErrorEvent).T
			// The band is drawn: its top is the cache's head, which it
			// kept.
			want, ok := a.CacheWindowAt(ss.Server, resource, at)
			if !ok || !want.Held {
				t.Fatalf("natively server %s's %s window at the 410 is %+v", srv, resource, want)
			}
			x := plotX(t, tab, at)
			timelineTip(t, tab, x, b.y+3, "server "+srv+" kept changes from RV ")
			// The cross of the 410, somewhere down the band.
			tip := ""
			for y := b.y + 3; y < b.y+b.h-2 && tip == ""; y += 3 {
				tip = tipAt(t, tab, x, y, "'s resume from RV "+ss.Request.ResourceVersion+" was refused at ")
			}
			if tip == "" {
				t.Errorf("no cross of %s's 410 at %s (RV %s) in server %s's %s band", tl.Files[ss.File].Name, time.Unix(0, at).UTC().Format("15:04:05.000"), ss.Request.ResourceVersion, srv, resource)
				continue
			}
			// The window said then: kept from RV h, above the cursor.
			var from uint64
			if _, after, ok := strings.Cut(tip, " kept changes from RV "); ok {
				from, _ = strconv.ParseUint(strings.Fields(after)[0], 10, 64)
			}
			rv, _ := strconv.ParseUint(ss.Request.ResourceVersion, 10, 64)
			if from <= rv || !strings.Contains(tip, "so the cursor had left its window") {
				t.Errorf("the hover on %s's 410 says %q: the window kept from RV %d, the cursor was %d", tl.Files[ss.File].Name, tip, from, rv)
			}
			seen++
			screenshot(t, tab, "servers-window-410-"+srv)
		}
		if seen != len(refused) {
			t.Errorf("%d 410s found on the page, want one for each of the %d captures dropped", seen, len(refused))
		}
		shotTimeline(t, tab, "servers-windows")
	})
	t.Run("a session's hover names its server", func(t *testing.T) {
		names, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#timeline-summary").dataset.files`))
		must(t, err)
		first := strings.Split(names, "\n")[0]
		f := -1
		for k := range tl.Files {
			if tl.Files[k].Name == first {
				f = k
			}
		}
		// Its group of tracks is folded: a click on its name unfolds it.
		if head, at, unfolded := groupOf(bands, 0); at >= 0 && !unfolded {
			clickBand(t, tab, head, 20)
		}
		var sessions fileBand
		for _, b := range timelineBands(t, tab, func(b []fileBand) bool { _, _, u := groupOf(b, 0); return u }) {
			if b.file == 0 && b.id == canvas.BandSessions {
				sessions = b
			}
		}
		if f < 0 || sessions.h == 0 {
			t.Fatalf("the page's first file %q: natively %d, its sessions band %+v", first, f, sessions)
		}
		// Its longest session, whose middle no other of its sessions
		// or gaps is near.
		g := -1
		for _, k := range tl.Files[f].Sessions {
			if ss := tl.Sessions[k]; g < 0 || ss.End-ss.Start > tl.Sessions[g].End-tl.Sessions[g].Start {
				g = k
			}
		}
		want := canvas.AnsweredBy(tl, g)
		if !strings.HasPrefix(want, "answered by server ") {
			t.Fatalf("natively session %d of %s names no server: %q", g, first, want)
		}
		ss := tl.Sessions[g]
		timelineTip(t, tab, plotX(t, tab, (ss.Start+ss.End)/2), sessions.y+sessions.h/2, want)
		screenshot(t, tab, "servers-session-hover")
	})

	t.Run("an export alone is metrics", func(t *testing.T) {
		export := ""
		for _, e := range exports {
			if filepath.Base(e) == "apiserver_watch_cache_resource_version.json.gz" {
				export = e
			}
		}
		want := nativeSummary(t, []string{filepath.Base(export)}, []string{export})
		if len(want) == 0 || !strings.HasPrefix(want[0], "Metrics only: ") {
			t.Fatalf("natively the export's summary is %q, not Metrics only", want)
		}
		alone := s.openSampleWithin(t, "w3-then-resume.ts.http", 3*time.Minute)
		must(t, chromedp.Do(alone, chromedp.EmulateViewport(1440, 900)))
		dropRead(t, alone, export)
		verdictShown(t, alone, want)
		// The header and the Files panel name the export read.
		metricsFiles := filesText(t, alone, "#metrics-files")
		page, err := chromedp.Run(alone, chromedp.Evaluate[string](`document.body.textContent`))
		must(t, err)
		openFiles, err := chromedp.Run(alone, chromedp.Evaluate[string](`document.querySelector("#open-files").title`))
		must(t, err)
		named := []string{openFiles, metricsFiles}
		if named[0] != filepath.Base(export) || !strings.Contains(named[1], filepath.Base(export)) || !strings.Contains(named[1], "servers named by their \"server\" label: a, b, c") {
			t.Errorf("with the export alone the header names %q and the Files panel says %q", named[0], named[1])
		}
		// Neither the verdict of a capture without reconnects nor the
		// Files panel's word for a file without watch events.
		for _, never := range []string{"No 410 was observed, and the capture has no reconnect", "No 410 was observed, and no watch reconnected", "No watch events were found in"} {
			if strings.Contains(page, never) {
				t.Errorf("the page with an export alone says %q", never)
			}
		}
		bands := timelineBands(t, alone, func(b []fileBand) bool {
			n := 0
			for _, x := range b {
				if x.id == canvas.BandTrack && strings.HasPrefix(x.label, "server ") {
					n++
				}
			}
			return n == 3
		})
		m := nativeLab(t, []string{export}).Metrics
		for _, b := range bands {
			if b.label == "server b" {
				mid := m.From + 60e9 // a minute in, every server scraped
				timelineTip(t, alone, plotX(t, alone, mid), b.y+b.h/2, "server b, process 1, in its metrics from "+time.Unix(0, m.From).UTC().Format("15:04:05.000"))
			}
		}
		screenshot(t, alone, "servers-metrics-alone")
	})
}
