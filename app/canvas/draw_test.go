package canvas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"watchlens/internal/busywatch"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// opsOf returns the operations of kind k drawn in colour col.
func opsOf(fr *Frame, k, col string) []Op {
	var out []Op
	for _, op := range fr.Ops {
		if op.Kind == k && (col == "" || op.Color == col) {
			out = append(out, op)
		}
	}
	return out
}

// TestFrameDrawsTheSample checks a whole-capture frame against the
// timeline's own answers: a bookmark tick per bookmark, a zone rect per
// zone, a mark per event when there is room for each.
func TestFrameDrawsTheSample(t *testing.T) {
	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http", "w6-sendinitialevents-rig-a.http", "kubectl-pods-watch.jsonl",
		"w2-broad-pods-bookmarks.http.gz", "client-go-golden-watch.http", "curl1-narrow-bookmarks-raw.curl", "l410-list-exact-stale-rv.http", "w4-then-resume.http"} {
		t.Run(name, func(t *testing.T) {
			tl, an := sampleTimeline(t, name)
			c := NewCache(tl)
			v := wholeView(tl, an, c, 1280)
			var fr Frame
			c.Build(v, &fr)
			for _, op := range fr.Ops {
				if op.Kind != "text" && op.Kind != "unclip" && op.Offset+op.Count > len(fr.floats) {
					t.Fatalf("op %+v reads past the buffer (%d floats)", op, len(fr.floats))
				}
				if op.Kind == "text" && op.Offset+op.Count > len(fr.Texts) {
					t.Fatalf("op %+v reads past the texts (%d)", op, len(fr.Texts))
				}
			}
			bookmarks := 0
			for _, f := range tl.Files {
				bookmarks += f.Counts["BOOKMARK"]
			}
			ticks := 0
			for _, op := range opsOf(&fr, "seg", ColorBookmark) {
				ticks += op.Count / 4
			}
			// Ticks within a pixel merge; these captures have none so close.
			if ticks != bookmarks {
				t.Errorf("%d bookmark ticks, %d bookmarks", ticks, bookmarks)
			}
			// Every zone is drawn: refused ones red, at-risk ones amber.
			refused, risky := 0, 0
			for _, op := range opsOf(&fr, "rect", ColorZone) {
				refused += op.Count / 4
			}
			for _, op := range opsOf(&fr, "rect", ColorRisk) {
				risky += op.Count / 4
			}
			if refused != len(an.Zones) || risky != len(an.RiskZones) {
				t.Errorf("%d red and %d pale zone rects, %d zones refused and %d at risk", refused, risky, len(an.Zones), len(an.RiskZones))
			}
			if _, err := json.Marshal(&fr); err != nil {
				t.Fatal(err)
			}
			segmentsAxisAligned(t, &fr)
			// Selected, and on the resourceVersion axis, too.
			v.Selected = tl.Len() / 2
			v.AxisRV = true
			v.From, v.To = c.Extent(true)
			fr = Frame{}
			c.Build(v, &fr)
			segmentsAxisAligned(t, &fr)
		})
	}
}

// segmentsAxisAligned checks what web/timeline.js relies on to fill the
// segments as rectangles: each is vertical or horizontal.
func segmentsAxisAligned(t *testing.T, fr *Frame) {
	t.Helper()
	for _, op := range fr.Ops {
		if op.Kind != "seg" {
			continue
		}
		for i := op.Offset; i < op.Offset+op.Count; i += 4 {
			if s := fr.floats[i : i+4]; s[0] != s[2] && s[1] != s[3] {
				t.Fatalf("a %s segment from (%g, %g) to (%g, %g) is slanted", op.Color, s[0], s[1], s[2], s[3])
			}
		}
	}
}

// The frame benchmark's synthetic capture: a busy broad watch, 10 000
// objects, 1 M events in an hour, a bookmark a minute (as the timeline
// package benchmarks it).
var (
	benchOnce sync.Once
	benchTL   *timeline.Timeline
	benchAn   *timeline.Analysis
)

func benchTimeline() (*timeline.Timeline, *timeline.Analysis) {
	benchOnce.Do(func() {
		b := timeline.NewBuilder()
		f := b.AddFile("synthetic")
		busywatch.Events(1_000_000, 7, func(e parser.Event) { f.Add(e) })
		f.Finish(busywatch.Sessions(), nil)
		benchTL = b.Build()
		benchAn = benchTL.Analyze(timeline.DefaultParams())
	})
	return benchTL, benchAn
}

// BenchmarkFrame builds one frame's draw buffers for 1 M events across
// 2000 plot columns, the whole capture in view (the worst case: every
// cursor and head step is folded into columns). Target < 16 ms.
func BenchmarkFrame(b *testing.B) {
	tl, an := benchTimeline()
	c := NewCache(tl)
	v := wholeView(tl, an, c, 2000+gutterW+rightPad)
	benchFrames(b, c, v, true)
}

// BenchmarkFrameZoomed: a tenth of the capture, scrolled half way down.
func BenchmarkFrameZoomed(b *testing.B) {
	tl, an := benchTimeline()
	c := NewCache(tl)
	v := wholeView(tl, an, c, 2000+gutterW+rightPad)
	span := v.To - v.From
	v.From, v.To = v.From+span/2, v.From+span/2+span/10
	v.ScrollY = float64(len(v.Rows)/2) * RowHeight
	benchFrames(b, c, v, false)
}

// BenchmarkFrameDragged is a frame of a drag over the 1 M events, as
// BenchmarkBrowserTimelineFrame's pan makes them: a quarter of the
// capture in 1200 columns, moved 5 columns a frame.
func BenchmarkFrameDragged(b *testing.B) {
	tl, an := benchTimeline()
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1200+gutterW+rightPad)
	width := (v.To - v.From) / 4
	panFrames(b, c, v, v.From+(v.To-v.From)/3, width, width*5/1200)
}

// panFrames builds the frames of a pan over v's whole range: a view
// width wide, from from on, moved step a frame, back to the start of the
// range when it reaches its end.
func panFrames(b *testing.B, c *Cache, v *View, from, width, step int64) {
	lo, hi := v.From, v.To
	var fr Frame
	for b.Loop() {
		if from+width > hi {
			from = lo
		}
		v.From, v.To = from, from+width
		c.Build(v, &fr)
		from += step
	}
}

// BenchmarkFrameFirst includes decoding the lanes on screen, as the first
// frame after a scroll does.
func BenchmarkFrameFirst(b *testing.B) {
	tl, an := benchTimeline()
	for b.Loop() {
		c := NewCache(tl)
		v := wholeView(tl, an, c, 2000+gutterW+rightPad)
		var fr Frame
		c.Build(v, &fr)
	}
}

// TestFrameSeveralFiles: two captures on one clock get a group per file
// and a pair of cursor lines each.
// twoFiles is w3 and w4 on one clock, as dropped together.
func twoFiles(t *testing.T) (*timeline.Timeline, *timeline.Analysis) {
	t.Helper()
	b := timeline.NewBuilder()
	for _, name := range []string{"w3-then-resume.ts.http", "w4-then-resume.ts.http"} {
		f, err := os.Open("../../samples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AddReader(name, f, parser.Options{}); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
}

func TestFrameSeveralFiles(t *testing.T) {
	b := timeline.NewBuilder()
	for _, name := range []string{"w3-then-resume.ts.http", "w4-then-resume.ts.http"} {
		f, err := os.Open("../../samples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AddReader(name, f, parser.Options{}); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	tl := b.Build()
	an := tl.Analyze(timeline.DefaultParams())
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	if len(v.Groups) != 2 || !strings.HasPrefix(v.Groups[1].Label(tl), "w4-then-resume.ts.http: ConfigMap") {
		t.Fatalf("groups %+v", v.Groups)
	}
	var fr Frame
	layout := c.Build(v, &fr)
	lines := 0
	for _, col := range []string{ColorAware, ColorIgnoring} {
		lines += len(opsOf(&fr, "seg", col))
	}
	// ColorAware is also ADDED's colour, but ADDED marks are "mark" ops.
	if lines != 4 {
		t.Errorf("%d cursor lines for two files", lines)
	}
	// Each file has its group of bands, under a band with its name.
	per := map[int]map[BandID]Band{}
	for _, b := range layout.Bands {
		if per[b.File] == nil {
			per[b.File] = map[BandID]Band{}
		}
		per[b.File][b.ID] = b
	}
	for f, file := range tl.Files {
		bands := per[f]
		if bands[BandFile].Label != file.Name {
			t.Errorf("file %d's group is labelled %q", f, bands[BandFile].Label)
		}
		for _, id := range []BandID{BandSessions, BandBookmarks, BandZoneAware, BandZoneIgnoring, BandCursors} {
			if _, ok := bands[id]; !ok {
				t.Errorf("file %s has no band %d", file.Name, id)
			}
		}
	}
	// Every red zone is drawn in its own file's zone bands, and a file
	// with refused zones has them drawn there.
	inBand := func(y float32) int {
		for f := range tl.Files {
			for _, id := range []BandID{BandZoneAware, BandZoneIgnoring, BandZoneHad} {
				if b, ok := per[f][id]; ok && float64(y) >= b.Y && float64(y) < b.Y+b.Height {
					return f
				}
			}
		}
		return -1
	}
	refused, drawn := map[int]int{}, map[int]int{}
	for _, z := range an.Zones {
		refused[z.File]++
	}
	for _, op := range opsOf(&fr, "rect", ColorZone) {
		for k := 0; k < op.Count/4; k++ {
			y := fr.floats[op.Offset+4*k+1]
			f := inBand(y)
			if f < 0 {
				t.Errorf("a refused zone drawn at y %v, outside every zone band", y)
			}
			drawn[f]++
		}
	}
	for f := range tl.Files {
		if (refused[f] > 0) != (drawn[f] > 0) {
			t.Errorf("file %d: %d refused zones, %d drawn in its bands", f, refused[f], drawn[f])
		}
	}
}

// BenchmarkFrameHotLanes: 1 M events in five lanes, the whole hour in view.
func BenchmarkFrameHotLanes(b *testing.B) {
	tl, an := hotTimeline(b, 1_000_000)
	c := NewCache(tl)
	v := wholeView(tl, an, c, 2000+gutterW+rightPad)
	benchFrames(b, c, v, false)
}

// BenchmarkFrameRV: the whole capture on the resourceVersion axis, where
// the lanes walk all their events (no time index applies).
func BenchmarkFrameRV(b *testing.B) {
	tl, an := benchTimeline()
	c := NewCache(tl)
	v := wholeView(tl, an, c, 2000+gutterW+rightPad)
	v.AxisRV = true
	v.From, v.To = c.Extent(true)
	benchFrames(b, c, v, true)
}

// benchFrames times the frames of view v after a first one, which decodes
// the lanes on screen, and with floats reports the frame's size.
func benchFrames(b *testing.B, c *Cache, v *View, floats bool) {
	var fr Frame
	c.Build(v, &fr)
	b.ResetTimer()
	for b.Loop() {
		c.Build(v, &fr)
	}
	if floats {
		b.ReportMetric(float64(len(fr.floats)), "floats")
	}
}

// sampleTimeline builds a sample's timeline as the page does.
func sampleTimeline(t testing.TB, name string) (*timeline.Timeline, *timeline.Analysis) {
	t.Helper()
	b := timeline.NewBuilder()
	if err := b.AddReader(name, bytes.NewReader(testsample.SampleBytes(t, name)), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
}

// slideTimeline builds n frames of tl's timeline, width px wide, over
// half its extent, the view sliding a pixel at a time from its start, and
// hands each to check: what is drawn near the plot's ends comes to every
// place there.
func slideTimeline(tl *timeline.Timeline, an *timeline.Analysis, c *Cache, width float64, n int, fr *Frame, check func(v *View, layout *Layout)) {
	from, to := c.Extent(false)
	span := (to - from) / 2
	for k := range n {
		v := wholeView(tl, an, c, width)
		v.From = from + int64(k)*span/int64(width)
		v.To = v.From + span
		layout := c.Build(v, fr)
		check(v, &layout)
	}
}

// wholeView is the view of the whole capture at a given canvas width.
func wholeView(tl *timeline.Timeline, an *timeline.Analysis, c *Cache, width float64) *View {
	groups, rows, _ := BuildRows(tl, timeline.Filter{}, map[string]bool{}, nil)
	from, to := c.Extent(false)
	return &View{Analysis: an, From: from, To: to, Width: width, PixelRatio: 1, Groups: groups, Rows: rows, Selected: -1}
}

// wholeFrame lays out a sample's whole capture at 1280 px, as the view first
// shows it, for the tests that aim at what it drew.
func wholeFrame(t *testing.T, sample string) (*timeline.Timeline, *Cache, *View, Layout, Scale) {
	t.Helper()
	tl, an := sampleTimeline(t, sample)
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	return tl, c, v, layout, v.PlotScale(&layout)
}

// A file's group of tracks folds into its name band, which then shows its
// zones, and pinned groups come first, in file order, past the 64th file
// too; of 70 files, the first MaxFileGroups in that order are stacked.
func TestFileGroupsFoldAndPin(t *testing.T) {
	var files []string
	for i := range 70 {
		files = append(files, fmt.Sprintf("f%d.http", i))
	}
	folded := FileSet{}.With(1, true).With(66, true)
	pinned := FileSet{}.With(68, true).With(2, true).With(66, true)
	l := FileLayout(1280, 0, 3, files, false, false, folded, pinned)
	var heads []string
	perFile := map[int]int{}
	for _, b := range l.Bands {
		if b.ID == BandFile {
			heads = append(heads, b.Label)
			if b.Folded != (b.File == 1 || b.File == 66) {
				t.Errorf("%s folded: %v", b.Label, b.Folded)
			}
		}
		perFile[b.File]++
	}
	if fmt.Sprint(heads[:4]) != "[f2.http f66.http f68.http f0.http]" || len(heads) != MaxFileGroups || l.FilesNotDrawn != len(files)-MaxFileGroups {
		t.Errorf("%d groups in order %v..., %d not drawn: want the pinned f2.http, f66.http and f68.http first, %d in all", len(heads), heads[:4], l.FilesNotDrawn, MaxFileGroups)
	}
	if perFile[1] != 1 || perFile[66] != 1 || perFile[0] != perFile[68] || perFile[0] < 6 || perFile[69] != 0 {
		t.Errorf("bands per file %v: the folded f1.http and f66.http should have their name band alone, f69.http none", perFile)
	}
	unfolded := FileLayout(1280, 0, 3, files, false, false, FileSet{}, pinned)
	if l.LanesY >= unfolded.LanesY {
		t.Errorf("folding a group does not give the lanes room: %v against %v", l.LanesY, unfolded.LanesY)
	}

	// On a capture: a click on a name band folds, at its right end pins;
	// folded, the file's refused zones show in its name band.
	tl, an := twoFiles(t)
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	v.FoldedFiles = FileSet{}.With(1, true) // w4, which has refused zones
	var fr Frame
	layout := c.Build(v, &fr)
	var head Band
	for _, b := range layout.Bands {
		if b.ID == BandFile && b.File == 1 {
			head = b
		}
	}
	if !head.Folded {
		t.Fatalf("w4's name band is not folded: %+v", layout.Bands)
	}
	h := HitTest(c, v, &layout, layout.PlotX+100, head.Y+head.Height/2)
	if !h.FileBand || h.File != 1 || h.Pin || !strings.Contains(h.Text, "unfold") {
		t.Errorf("a click on w4's name band: %+v", h)
	}
	if h := HitTest(c, v, &layout, layout.Width-20, head.Y+head.Height/2); !h.Pin || h.File != 1 {
		t.Errorf("a click on the pin: %+v", h)
	}
	inHead, stripTop := 0, head.Y+head.Height
	for _, op := range opsOf(&fr, "rect", ColorZone) {
		for k := 0; k < op.Count/4; k++ {
			if y := float64(fr.floats[op.Offset+4*k+1]); y >= head.Y && y < head.Y+head.Height {
				inHead++
				stripTop = min(stripTop, y)
			}
		}
	}
	if inHead == 0 {
		t.Error("the folded w4 shows no zone in its name band")
	}
	// The pin's words (11 px, centred on their y) end above the strip,
	// which runs under them,
	// and are drawn after the grid lines, which crossed them.
	grid, pinAt := -1, -1
	for k, op := range fr.Ops {
		if op.Kind == "seg" && op.Color == ColorGrid && grid < 0 {
			grid = k
		}
		if op.Kind == "text" {
			for i := op.Offset; i < op.Offset+op.Count; i++ {
				if fr.Texts[i].Text == "pin to top" {
					pinAt = k
				}
			}
		}
	}
	if grid < 0 || pinAt < grid {
		t.Errorf("the grid lines are drawn at operation %d, the pins at %d: over them", grid, pinAt)
	}
	pin := false
	for _, tx := range fr.Texts {
		if tx.Text == "pin to top" && float64(tx.Y) > head.Y && float64(tx.Y) < head.Y+head.Height {
			pin = true
			if bottom := float64(tx.Y) + 5.5; bottom >= stripTop {
				t.Errorf("the folded band's pin reaches y %.1f, its zone strip begins at %.1f", bottom, stripTop)
			}
		}
	}
	if !pin {
		t.Error("the folded w4's band has no pin")
	}
}

// TestFoldShowsTheCursorAsItRan: samples-lab's c020 asked for bookmarks,
// and no reconnect of its cursor was refused; the cursor that ignored them
// (its "410 · ignoring bookmarks" track) goes red. Folded, its
// name band drew the zones of every cursor, a solid red line under a
// client that was safe all along (the UI review of the page): it draws
// those of its cursor as it ran.
func TestFoldShowsTheCursorAsItRan(t *testing.T) {
	tl := recordingTimeline(t, "samples-lab", "c020-bookmarks.ts.http", "c080-nobookmarks.ts.http", "broad-a.ts.http", "broad-b.ts.http")
	an := tl.Analyze(timeline.DefaultParams())
	ignoring, aware := 0, 0
	for _, z := range an.Zones {
		if z.File == 0 && z.Kind == timeline.BookmarkIgnoring {
			ignoring++
		}
		if z.File == 0 && z.Kind == timeline.BookmarkAware {
			aware++
		}
	}
	if ignoring == 0 || aware != 0 {
		t.Fatalf("c020: %d refused zones ignoring bookmarks and %d as it ran; want some and none", ignoring, aware)
	}
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	v.FoldedFiles = FileSet{}.With(0, true).With(1, true)
	var fr Frame
	layout := c.Build(v, &fr)
	red := map[int]int{}
	for _, b := range layout.Bands {
		if b.ID != BandFile || !b.Folded {
			continue
		}
		for _, op := range opsOf(&fr, "rect", ColorZone) {
			for k := 0; k < op.Count/4; k++ {
				if y := float64(fr.floats[op.Offset+4*k+1]); y >= b.Y && y < b.Y+b.Height {
					red[b.File]++
				}
			}
		}
	}
	if red[0] != 0 {
		t.Errorf("folded, c020 shows %d refused zones; want none (its cursor that ignored bookmarks has %d, which its track shows)", red[0], ignoring)
	}
}

// TestPinnedGroupAboveTheServers: samples-lab's client opened from the
// fleet is pinned to the top, but its group sat under the tracks of the
// three API servers, some 850 px down the timeline's panel of 300 (the
// UI review of the page). A pinned group comes before the tracks; the
// others after them.
func TestPinnedGroupAboveTheServers(t *testing.T) {
	tl := recordingTimeline(t, "samples-lab", "c000-bookmarks.ts.http", "c154-nobookmarks.ts.http", "audit-*.log")
	an := tl.Analyze(timeline.DefaultParams())
	c := NewCache(tl)
	pinned := -1
	for fi, f := range tl.Files {
		if f.Name == "c154-nobookmarks.ts.http" {
			pinned = fi
		}
	}
	v := wholeView(tl, an, c, 1280)
	v.PinnedFiles = FileSet{}.With(pinned, true)
	var fr Frame
	layout := c.Build(v, &fr)
	var order []string
	for _, b := range layout.Bands {
		switch {
		case b.ID == BandTrack && (len(order) == 0 || order[len(order)-1] != "tracks"):
			order = append(order, "tracks")
		case b.ID == BandFile:
			order = append(order, tl.Files[b.File].Name)
		}
	}
	if len(order) < 3 || order[0] != "c154-nobookmarks.ts.http" || order[1] != "tracks" {
		t.Errorf("the bands come in the order %v; want c154's group, pinned, then the servers' tracks, then the others", order)
	}
}
