//go:build !wasm

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"watchlens/app/canvas"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// Reconnect at T on the page: a time typed in Find, in each form the
// page and the report write one, or an Alt-click on the plot, marks an
// instant, and the Reconnect tab's answer (per file and cursor, per API
// server, for the fleet, and the summary's words) is the CLI's
// `analyze --resume-at` JSON for the same files and instant, item by
// item. Escape clears the marker, and the link forgets it.

// reconnectShown is the Reconnect tab's answer as the page shows it.
type reconnectShown struct {
	At    string                    `json:"at"`
	Words []string                  `json:"words"`
	Fleet map[string]map[string]int `json:"fleet"`
	// Cells are "file|cursor|outcome|rv|server|a=refused,b=accepted",
	// one per file and cursor.
	Cells []string `json:"cells"`
}

// resumeAtJSON is what the CLI's JSON says of the instants asked.
type resumeAtJSON struct {
	ResumeAt []struct {
		File      string `json:"file"`
		Cursor    string `json:"cursor"`
		RV        string `json:"rv"`
		Outcome   string `json:"outcome"`
		Reason    string `json:"reason"`
		Server    string `json:"server"`
		PerServer []struct {
			Server  string `json:"server"`
			Outcome string `json:"outcome"`
			Reason  string `json:"reason"`
		} `json:"perServer"`
	} `json:"resumeAt"`
	Summary []struct {
		Topic string `json:"topic"`
		Text  string `json:"text"`
	} `json:"summary"`
	Fleet *struct {
		ReconnectAt []struct {
			With       map[string]int `json:"withBookmarks"`
			Without    map[string]int `json:"withoutBookmarks"`
			AsRecorded map[string]int `json:"asRecorded"`
		} `json:"reconnectAt"`
	} `json:"fleet"`
}

// cliResumeAt runs `watchlens analyze --resume-at at --format json` on
// files, in their folder, so that the files are named as the page names
// them.
func cliResumeAt(t *testing.T, dir string, files []string, at int64) resumeAtJSON {
	t.Helper()
	args := []string{"analyze", "--resume-at", time.Unix(0, at).UTC().Format(time.RFC3339Nano), "--format", "json"}
	for _, f := range files {
		rel, err := filepath.Rel(dir, f)
		must(t, err)
		args = append(args, rel)
	}
	var r resumeAtJSON
	must(t, json.Unmarshal([]byte(runWatchlens(t, dir, args...)), &r))
	return r
}

// cells are the CLI's answers as the page's cells write them.
func (r resumeAtJSON) cells() []string {
	var out []string
	for _, a := range r.ResumeAt {
		var per []string
		for _, p := range a.PerServer {
			per = append(per, p.Server+"="+p.Outcome)
		}
		out = append(out, strings.Join([]string{a.File, a.Cursor, a.Outcome, a.RV, a.Server, strings.Join(per, ",")}, "|"))
	}
	return out
}

// readReconnect waits for the Reconnect tab to answer instant at ("" for
// any) and reads the answer. The tab, if another is shown, is opened, as
// a user does.
func readReconnect(t *testing.T, tab context.Context, at string) reconnectShown {
	t.Helper()
	got, err := chromedp.Run(tab, chromedp.Poll[*reconnectShown](fmt.Sprintf(`(() => {
		const b = document.getElementById("tab-reconnect");
		if (b && b.getAttribute("aria-selected") !== "true") { b.click(); return null; }
		const r = document.querySelector("#reconnect");
		if (!r || r.dataset.ready !== "true" || (%q !== "" && r.dataset.at !== %q)) return null;
		const counts = tr => Object.fromEntries([...tr.querySelectorAll("td")].map(td => [td.dataset.outcome, Number(td.dataset.count)]));
		return {
			at: r.dataset.at,
			words: [...r.querySelectorAll(".reconnect-words")].map(p => p.textContent),
			fleet: Object.fromEntries([...r.querySelectorAll("#reconnect-fleet tbody tr")].map(tr => [tr.dataset.side, counts(tr)])),
			cells: [...r.querySelectorAll("#reconnect-files tbody")].flatMap(tb => [...tb.querySelectorAll("td[data-cursor]")].map(td =>
				[tb.dataset.file, td.dataset.cursor, td.dataset.outcome, td.dataset.rv, tb.dataset.server, td.dataset.servers].join("|"))),
		};
	})()`, at, at), chromedp.WithPollingTimeout(2*time.Minute)))
	if err != nil {
		text, _ := chromedp.Run(tab, chromedp.Evaluate[string](`(document.querySelector("#reconnect") || document.body).innerText.slice(0, 1500)`))
		t.Fatalf("the Reconnect tab never answered %q: %v\n%s", at, err, text)
	}
	return *got
}

// findTime types q in Find and presses Enter.
func findTime(t *testing.T, tab context.Context, q string) {
	t.Helper()
	must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#find"), q)))
	// The first match is the instant.
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { const b = document.querySelector("#find-results button"); return !!b && b.dataset.kind === "time"; })()`,
		chromedp.WithPollingTimeout(pageWait))); err != nil {
		list, _ := chromedp.Run(tab, chromedp.Evaluate[string](`(document.querySelector("#find-results") || {}).textContent || "no results"`))
		t.Fatalf("Find on %q lists no instant first: %s", q, list)
	}
	must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#find"), "\r")))
}

// sameAnswer compares the page's answer with the CLI's, item by item.
func sameAnswer(t *testing.T, got reconnectShown, want resumeAtJSON, fleet, servers bool) {
	t.Helper()
	w := want.cells()
	if len(w) == 0 {
		t.Fatal("the CLI answers for no file: the comparison proves nothing")
	}
	g := slices.Clone(got.Cells)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		var missing, extra []string
		for _, c := range w {
			if !slices.Contains(g, c) {
				missing = append(missing, c)
			}
		}
		for _, c := range g {
			if !slices.Contains(w, c) {
				extra = append(extra, c)
			}
		}
		t.Errorf("the page's %d answers per file and cursor are not the CLI's %d:\nthe CLI's, not on the page: %q\non the page, not the CLI's: %q", len(g), len(w), missing[:min(5, len(missing))], extra[:min(5, len(extra))])
	}
	var words []string
	for _, l := range want.Summary {
		if l.Topic == "resume-at" {
			words = append(words, l.Text)
		}
	}
	if len(got.Words) == 0 {
		t.Error("the page says nothing in words of the reconnect")
	}
	if len(words) > 0 && !slices.Equal(got.Words, words) {
		t.Errorf("the page says %q, the CLI's summary %q", got.Words, words)
	}
	if !fleet {
		if want.Fleet != nil || len(got.Fleet) > 0 {
			t.Errorf("a fleet's answer where none was expected: the page %v, the CLI %v", got.Fleet, want.Fleet != nil)
		}
		return
	}
	if want.Fleet == nil || len(want.Fleet.ReconnectAt) != 1 {
		t.Fatalf("the CLI gives no fleet answer")
	}
	fc := want.Fleet.ReconnectAt[0]
	for side, c := range map[string]map[string]int{"with": fc.With, "without": fc.Without, "as-recorded": fc.AsRecorded} {
		page := got.Fleet[side]
		if page["refused"] != c["refused"] || page["at-risk"] != c["atRisk"] || page["accepted"] != c["accepted"] || page["unknown"] != c["unknown"] {
			t.Errorf("had every client reconnected, %s bookmarks: the page counts %v, the CLI %v", side, page, c)
		}
	}
	perServer := 0
	for _, a := range want.ResumeAt {
		perServer += len(a.PerServer)
	}
	if servers != (perServer > 0) {
		t.Errorf("the CLI answers per server %d times; expected per server: %v", perServer, servers)
	}
}

// whyShown opens the first file's reasons and checks them against the
// CLI's: the model's exact reason for each cursor, and each server's.
func whyShown(t *testing.T, tab context.Context, want resumeAtJSON) {
	t.Helper()
	type why struct {
		File    string            `json:"file"`
		Model   map[string]string `json:"model"`
		Servers map[string]string `json:"servers"`
	}
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#reconnect-files tbody th button"))))
	got, err := chromedp.Run(tab, chromedp.Poll[*why](`(() => {
		const tb = document.querySelector("#reconnect-files tbody");
		const rs = [...tb.querySelectorAll(".reconnect-reason")];
		if (rs.length === 0) return null;
		const model = {}, servers = {};
		for (const r of rs) {
			model[r.dataset.cursor] = r.querySelector('[data-reason="model"]').textContent;
			for (const li of r.querySelectorAll("li[data-server]")) servers[r.dataset.cursor + " " + li.dataset.server] = li.querySelector('[data-reason="server"]').textContent;
		}
		return {file: tb.dataset.file, model, servers};
	})()`, chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	found := 0
	for _, a := range want.ResumeAt {
		if a.File != got.File || got.Model[a.Cursor] != a.Reason {
			continue
		}
		found++
		for _, p := range a.PerServer {
			if r := got.Servers[a.Cursor+" "+p.Server]; r != p.Reason {
				t.Errorf("%s, %s cursor, server %s: the page's reason %q, the CLI's %q", a.File, a.Cursor, p.Server, r, p.Reason)
			}
		}
	}
	if found != len(got.Model) || found == 0 {
		t.Errorf("%s: of the page's %d reasons %q, %d are the CLI's", got.File, len(got.Model), got.Model, found)
	}
}

// askFleetAt opens files (what) in a new tab, waits for the fleet, types
// query in Find, and reads the Reconnect tab's answer at instant at, the
// one query names.
func (s *servedSite) askFleetAt(t *testing.T, what string, files []string, query string, at int64) (context.Context, reconnectShown) {
	t.Helper()
	tab := s.openLong(t)
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
	dropRead(t, tab, files...)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#fleet-summary")`, chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Fatalf("%s did not open on the fleet: %v", what, err)
	}
	findTime(t, tab, query)
	return tab, readReconnect(t, tab, fmt.Sprint(at))
}

// capturesAndAuditLogs are a recording's folder and its captures and
// audit logs.
func capturesAndAuditLogs(t *testing.T, recording string) (dir string, files []string) {
	t.Helper()
	dir = testsample.Recording(t, recording)
	files, err := filepath.Glob(filepath.Join(dir, "*.ts.http"))
	must(t, err)
	logs, err := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	must(t, err)
	return dir, append(files, logs...)
}

// openLong opens the page on a sample in a tab with time enough to read
// a whole recording dropped on it.
func (s *servedSite) openLong(t *testing.T) context.Context {
	t.Helper()
	tab := newTabWithin(t, s.browser, 5*time.Minute)
	navigate(t, tab, s.url+"/?sample=w3-then-resume.ts.http")
	checkShown(t, tab, "w3-then-resume.ts.http", "samples/w3-then-resume.ts.http")
	return tab
}

// shotReconnectTab saves a PNG of the Reconnect tab from its top, the
// dock made tall enough to show its words and the fleet's counts.
func shotReconnectTab(t *testing.T, tab context.Context, name string) {
	t.Helper()
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		const d = document.querySelector("#dock").style;
		for (const [k, v] of [["height", "520px"], ["min-height", "520px"], ["flex", "0 0 520px"]]) d.setProperty(k, v, "important");
		document.querySelector("#dock .dock-body").scrollTop = 0;
	})()`)))
	png, err := chromedp.Run(tab, chromedp.Screenshot(chromedp.CSS("#dock")))
	must(t, err)
	must(t, os.MkdirAll("screenshots", 0o755))
	must(t, os.WriteFile(filepath.Join("screenshots", name+".png"), png, 0o644))
}

// zoneBandY is the middle, CSS px of the timeline's canvas, of the first
// zone band of kind id.
func zoneBandY(t *testing.T, tab context.Context, id canvas.BandID) float64 {
	t.Helper()
	text, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#timeline canvas").dataset.bands`))
	must(t, err)
	var bands []canvas.Band
	must(t, json.Unmarshal([]byte(text), &bands))
	for _, b := range bands {
		if b.ID == id {
			return b.Y + b.Height/2
		}
	}
	t.Fatalf("no band %v among %s", id, text)
	return 0
}

// timelinePoint is where (x, y) of the timeline's canvas, CSS px, is on
// the page, the canvas scrolled so that it is in the window (as
// timelineTip scrolls it).
func timelinePoint(t *testing.T, tab context.Context, x, y float64) (float64, float64) {
	t.Helper()
	p, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const r = document.querySelector("#timeline .tl-stage").getBoundingClientRect(); return [r.left + %f, r.top + %f]; })()`, x, y)))
	must(t, err)
	return p[0], p[1]
}

// reconnectClockNote is what the Reconnect tab says of an instant off
// the recording's clock, "" when it says nothing.
func reconnectClockNote(t *testing.T, tab context.Context) string {
	t.Helper()
	note, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => { const p = document.querySelector("#reconnect .reconnect-clock"); return p ? p.textContent : ""; })()`))
	must(t, err)
	return note
}

// reconnectTimeUTC is an instant as the Reconnect tab writes it in UTC.
func reconnectTimeUTC(t int64) string {
	return time.Unix(0, t).UTC().Format("Jan 2 15:04:05.000 MST")
}

// markedOtherThan waits for the Reconnect tab to mark an instant other
// than prev (Unix ns, "" for none), and returns it.
func markedOtherThan(t *testing.T, tab context.Context, prev string) string {
	t.Helper()
	marked, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => { const r = document.querySelector("#reconnect"); return r && r.dataset.at && r.dataset.at !== %q ? r.dataset.at : null; })()`, prev),
		chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		t.Fatalf("an Alt-click on the plot marked nothing but %q: %v", prev, err)
	}
	return marked
}

// markerInURL reads the instant the page's URL keeps marked ("" for none).
func markerInURL(t *testing.T, tab context.Context) string {
	t.Helper()
	at, err := chromedp.Run(tab, chromedp.Evaluate[string](`new URLSearchParams(location.search).get("at") || ""`))
	must(t, err)
	return at
}

func TestBrowserReconnectAt(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)

	t.Run("two samples: a time of day, then an Alt-click", func(t *testing.T) {
		t.Parallel()
		files := []string{"samples/w4-then-resume.ts.http", "samples/w1-broad-configmaps-bookmarks.ts.http"}
		tab := s.openSample(t, "w3-then-resume.ts.http")
		must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
		dropRead(t, tab, files...)
		waitSummary(t, tab, func(m map[string]string) bool { return strings.Count(m["files"], "\n") == 1 })
		findTime(t, tab, "01:04:25")
		at := time.Date(2026, 11, 30, 1, 4, 25, 0, time.UTC).UnixNano()
		got := readReconnect(t, tab, fmt.Sprint(at))
		want := cliResumeAt(t, "samples", files, at)
		// Two clients make a fleet.
		sameAnswer(t, got, want, true, false)
		if u := markerInURL(t, tab); u != fmt.Sprint(at) {
			t.Errorf("the link keeps at=%q, want %d", u, at)
		}
		whyShown(t, tab, want)
		screenshot(t, tab, "reconnect-at-samples")

		// An Alt-click on the plot marks the instant under the pointer.
		clickAt := at - int64(20*time.Second)
		x := plotX(t, tab, clickAt)
		y, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#timeline .tl-stage").getBoundingClientRect(); return [r.left, r.top]; })()`))
		must(t, err)
		must(t, chromedp.Do(tab, chromedp.MouseClickXY(y[0]+x, y[1]+40, chromedp.ButtonModifiers(chromedp.ModifierAlt))))
		marked := markedOtherThan(t, tab, fmt.Sprint(at))
		got = readReconnect(t, tab, marked)
		clicked, err := strconv.ParseInt(marked, 10, 64)
		must(t, err)
		if d := clicked - clickAt; d < -int64(time.Second) || d > int64(time.Second) {
			t.Errorf("an Alt-click at %s marked %s", time.Unix(0, clickAt).UTC(), time.Unix(0, clicked).UTC())
		}
		sameAnswer(t, got, cliResumeAt(t, "samples", files, clicked), true, false)
		shotTimeline(t, tab, "reconnect-at-samples-marker")

		// Escape clears the marker, and the link forgets it.
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`),
			chromedp.KeyEvent("\u001b")))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { const r = document.querySelector("#reconnect"); return !!r && !r.dataset.at; })()`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("Escape left the marker: %v", err)
		}
		if u := markerInURL(t, tab); u != "" {
			t.Errorf("the link still keeps at=%s after Escape", u)
		}
	})

	t.Run("past the recording's end and before its start: the hover and the Reconnect tab say nothing was recorded there", func(t *testing.T) {
		t.Parallel()
		// w4-then-resume.http's 410 comes at its last instant: its red
		// zones are that instant's, and they stop there, as the
		// recording does.
		const name = "w4-then-resume.http"
		tl, an := nativeTimeline(t, "samples/"+name)
		start, end := tl.Start(), tl.End()
		tab := s.newTab(t)
		must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
		navigate(t, tab, s.url+"/?sample="+name)
		g := readSummary(t, tab, name, nil)
		from, _ := strconv.ParseInt(g.From, 10, 64)
		to, _ := strconv.ParseInt(g.To, 10, 64)
		if from >= start || to <= end+1 {
			t.Fatalf("the whole view %d-%d shows no margin around the recording %d-%d", from, to, start, end)
		}
		zoneY := zoneBandY(t, tab, canvas.BandZoneIgnoring)
		past := end + (to-end)/2
		x := plotX(t, tab, past)
		endsAt := "The recording ends at " + timeline.FormatInstant(end, time.UTC) + ": nothing was recorded after it, and the zones stop there."
		tip := timelineTip(t, tab, x, zoneY, endsAt)
		// The hover answers for the recording's last instant, where the
		// zone drawn is red, and says what an Alt-click asks instead.
		last := an.Verdict(0, timeline.BookmarkIgnoring, end, an.Params.Delay)
		if last.Outcome != timeline.Refused {
			t.Fatalf("a drop at the recording's last instant is %s natively, not refused: the margin is not exercised", last.Outcome)
		}
		for _, want := range []string{"a drop at " + timeline.FormatInstant(end, time.UTC) + ":", "ignoring bookmarks: " + an.Words(last), "Alt-click: what a reconnect at "} {
			if !strings.Contains(tip, want) {
				t.Errorf("past the recording's end the hover says %q, without %q", tip, want)
			}
		}
		screenshot(t, tab, "reconnect-at-past-the-end-hover")

		// The Alt-click there asks the instant clicked, as analyze
		// --resume-at does: the tab says first that the recording ended,
		// and each cursor is as it was left.
		px, py := timelinePoint(t, tab, x, zoneY)
		clickAt(t, tab, px, py, 1) // 1: Alt
		got := readReconnect(t, tab, "")
		at, err := strconv.ParseInt(got.At, 10, 64)
		must(t, err)
		if at <= end {
			t.Fatalf("an Alt-click past the recording's end marked %s, not past %s", time.Unix(0, at).UTC(), time.Unix(0, end).UTC())
		}
		// The hover named the instant the click marks.
		if asks := "Alt-click: what a reconnect at " + timeline.FormatInstant(at, time.UTC) + " would get"; !strings.Contains(tip, asks) {
			t.Errorf("past the recording's end the hover says %q; the Alt-click there marked %s", tip, timeline.FormatInstant(at, time.UTC))
		}
		if note := reconnectClockNote(t, tab); note != "The recording ends at "+reconnectTimeUTC(end)+": nothing was recorded after it, so each cursor is judged as the client left it then." {
			t.Errorf("past the recording's end the Reconnect tab says %q", note)
		}
		sameAnswer(t, got, cliResumeAt(t, "samples", []string{"samples/" + name}, at), false, false)
		// The hover's answer at the last instant is the Alt-click's.
		if !slices.Contains(got.Cells, name+"|bookmark-ignoring|refused|389||") {
			t.Errorf("past the recording's end the hover says refused without bookmarks; the Reconnect tab %q", got.Cells)
		}
		// The pointer away: the marker past the zones' end, and the tab.
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1)))
		screenshot(t, tab, "reconnect-at-past-the-end")

		// Before the recording's start.
		before := from + (start-from)/2
		x = plotX(t, tab, before)
		beginsAt := "The recording begins at " + timeline.FormatInstant(start, time.UTC) + ": nothing was recorded before it."
		if tip := timelineTip(t, tab, x, zoneY, beginsAt); strings.Contains(tip, "a drop at") {
			t.Errorf("before the recording's start the hover says %q", tip)
		}
		px, py = timelinePoint(t, tab, x, zoneY)
		clickAt(t, tab, px, py, 1)
		got = readReconnect(t, tab, markedOtherThan(t, tab, got.At))
		if at, _ = strconv.ParseInt(got.At, 10, 64); at >= start {
			t.Fatalf("an Alt-click before the recording's start marked %s, not before %s", time.Unix(0, at).UTC(), time.Unix(0, start).UTC())
		}
		if note := reconnectClockNote(t, tab); note != "The recording begins at "+reconnectTimeUTC(start)+": nothing was recorded before it, so no cursor can be judged." {
			t.Errorf("before the recording's start the Reconnect tab says %q", note)
		}
		for _, c := range got.Cells {
			if !strings.Contains(c, "|unknown|") {
				t.Errorf("before the recording's start the Reconnect tab answers %q", c)
			}
		}
		want := cliResumeAt(t, "samples", []string{"samples/" + name}, at)
		sameAnswer(t, got, want, false, false)
		// Why, a click away: the recording begins later.
		whyShown(t, tab, want)
		shotReconnectTab(t, tab, "reconnect-at-before-the-start-tab")
	})

	t.Run("a link keeps the marker", func(t *testing.T) {
		t.Parallel()
		const name = "w4-then-resume.ts.http"
		at := time.Date(2026, 11, 30, 1, 4, 24, 980e6, time.UTC).UnixNano()
		tab := s.newTab(t)
		navigate(t, tab, fmt.Sprintf("%s/?sample=%s&at=%d", s.url, name, at))
		// The page opens on the marker's answer, not on the Event tab.
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#reconnect")?.dataset.ready === "true" && document.getElementById("tab-reconnect").getAttribute("aria-selected") === "true"`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			shown, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector('[role=tab][aria-selected=true]')?.id ?? "none"`))
			t.Errorf("a link with ?at= opens on the tab %s, not on the Reconnect tab's answer: %v", shown, err)
		}
		got := readReconnect(t, tab, fmt.Sprint(at))
		sameAnswer(t, got, cliResumeAt(t, "samples", []string{"samples/" + name}, at), false, false)
	})

	t.Run("the fleet with its audit logs: RFC 3339", func(t *testing.T) {
		t.Parallel()
		dir, files := capturesAndAuditLogs(t, "samples-fleet")
		tab := s.openLong(t)
		must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
		dropRead(t, tab, files...)
		waitSummary(t, tab, func(m map[string]string) bool { return strings.Contains(m["files"], "c00-bookmarks.ts.http") })
		findTime(t, tab, "2026-12-01T08:43:00Z")
		at := time.Date(2026, 12, 1, 8, 43, 0, 0, time.UTC).UnixNano()
		got := readReconnect(t, tab, fmt.Sprint(at))
		sameAnswer(t, got, cliResumeAt(t, dir, files, at), true, true)
		screenshot(t, tab, "reconnect-at-fleet")
		shotReconnectTab(t, tab, "reconnect-at-fleet-tab")
	})

	t.Run("inside an outage: each reconnect waits for its end", func(t *testing.T) {
		t.Parallel()
		// samples-outage's load balancer refused every connection from
		// 19:09:13.56 to 19:11:43.62 (probes.tsv), and the clients came
		// back once it listened again, 74 of them to a 410 (TRUTH.tsv).
		dir, files := capturesAndAuditLogs(t, "samples-outage")
		at := time.Date(2026, 12, 1, 19, 10, 0, 0, time.UTC).UnixNano()
		tab, got := s.askFleetAt(t, "samples-outage", files, "2026-12-01T19:10:00Z", at)
		want := cliResumeAt(t, dir, files, at)
		sameAnswer(t, got, want, true, true)
		// At 19:10:00 itself, before the outage's end, the evidence holds
		// 55 of the captured clients' cursors; when a request reached a
		// server again none was sure to be held, and 74 got a 410.
		accepted, risky := 0, 0
		for _, c := range got.Cells {
			switch {
			case strings.Contains(c, ".ts.http|bookmark-aware|accepted|"):
				accepted++
			case strings.Contains(c, ".ts.http|bookmark-aware|at-risk|"):
				risky++
			}
		}
		if accepted > 0 || risky == 0 {
			t.Errorf("inside the outage %d captured clients accepted with bookmarks, %d at risk; want none accepted: %q", accepted, risky, got.Cells)
		}
		if words := strings.Join(got.Words, "\n"); !strings.Contains(words, "No client's request reached an API server from") || !strings.Contains(words, "would have been answered once one did, as these counts are") {
			t.Errorf("inside the outage the Reconnect tab says %q", words)
		}
		whyShown(t, tab, want)
		shotReconnectTab(t, tab, "reconnect-at-outage-tab")
	})

	t.Run("the lab's audit logs and metrics: as the page prints a time", func(t *testing.T) {
		t.Parallel()
		logs, exports := labFiles(t)
		files := append(logs, exports...)
		dir := testsample.Recording(t, "samples-lab")
		// Server b was restarting then: it answers no one.
		at := time.Date(2026, 12, 1, 18, 15, 0, 0, time.UTC).UnixNano()
		tab, got := s.askFleetAt(t, "the lab's audit logs", files, "Dec 1 18:15:00 UTC", at)
		want := cliResumeAt(t, dir, files, at)
		sameAnswer(t, got, want, true, true)
		whyShown(t, tab, want)
		// The rows come by server, each group under a header of its own.
		hint, err := chromedp.Run(tab, chromedp.Evaluate[string](`[...document.querySelectorAll("#fleet .tl-hint")].map(p => p.textContent).join("\n")`))
		must(t, err)
		if !strings.Contains(hint, "Rows: by the API server each client was on longest") {
			t.Errorf("the fleet's hints do not say the rows come by server: %q", hint)
		}
		screenshot(t, tab, "reconnect-at-lab")
	})
}
