package canvas

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/parser"
	"watchlens/timeline"
)

// sampleTimeline builds a sample's timeline as the page does.
func sampleTimeline(t testing.TB, name string) (*timeline.Timeline, *timeline.Analysis) {
	t.Helper()
	f, err := os.Open("../../samples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := timeline.NewBuilder()
	if err := b.AddReader(name, f, parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
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

func TestBuildRowsGroupsAndFolds(t *testing.T) {
	tl, _ := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	groups, rows, shown := BuildRows(tl, timeline.Filter{}, map[string]bool{}, nil)
	if shown != len(tl.Lanes) {
		t.Fatalf("%d lanes shown, want all %d", shown, len(tl.Lanes))
	}
	if len(rows) != len(tl.Lanes)+len(groups) {
		t.Fatalf("%d rows for %d lanes in %d groups", len(rows), len(tl.Lanes), len(groups))
	}
	for i := 1; i < len(groups); i++ {
		a, b := groups[i-1], groups[i]
		if a.Kind > b.Kind || a.Kind == b.Kind && a.Namespace >= b.Namespace {
			t.Errorf("groups out of order: %s/%s before %s/%s", a.Kind, a.Namespace, b.Kind, b.Namespace)
		}
	}
	for _, r := range rows {
		if r.Lane < 0 {
			continue
		}
		g, ln := groups[r.Group], tl.Lanes[r.Lane]
		if ln.Kind != g.Kind || ln.Namespace != g.Namespace {
			t.Fatalf("lane %d (%s/%s) in group %s/%s", r.Lane, ln.Kind, ln.Namespace, g.Kind, g.Namespace)
		}
	}
	folded := map[string]bool{groups[0].Key(): true}
	_, rows2, _ := BuildRows(tl, timeline.Filter{}, folded, nil)
	if want := len(rows) - len(groups[0].Lanes); len(rows2) != want {
		t.Errorf("folding group 0 leaves %d rows, want %d", len(rows2), want)
	}
	_, _, shown = BuildRows(tl, timeline.Filter{Namespace: groups[0].Namespace}, nil, nil)
	if shown != len(groups[0].Lanes) {
		t.Errorf("namespace filter shows %d lanes, want %d", shown, len(groups[0].Lanes))
	}
}

func TestScaleMapsBothWays(t *testing.T) {
	s := Scale{From: 1_000, To: 11_000, X0: 100, Width: 1000}
	if s.X(1_000) != 100 || s.X(11_000) != 1100 || s.X(6_000) != 600 {
		t.Errorf("x: %v %v %v", s.X(1_000), s.X(11_000), s.X(6_000))
	}
	for _, v := range []int64{1_000, 3_333, 10_999} {
		if got := s.At(s.X(v)); got != v {
			t.Errorf("at(x(%d)) = %d", v, got)
		}
	}
	if s.XClamped(math.MaxInt64) != 1102 || s.XClamped(math.MinInt64) != 98 {
		t.Errorf("xc does not clamp far values: %v %v", s.XClamped(math.MaxInt64), s.XClamped(math.MinInt64))
	}
	// Unix nanoseconds an hour apart keep nanosecond precision.
	tn := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC).UnixNano()
	s = Scale{From: tn, To: tn + int64(time.Hour), X0: 0, Width: 3600}
	if got := s.X(tn + int64(time.Second)); math.Abs(got-1) > 1e-9 {
		t.Errorf("one second is %v px, want 1", got)
	}
}

func TestZoomKeepsAnchorAndBounds(t *testing.T) {
	from, to := int64(0), int64(1000)
	f, tt := ZoomRange(from, to, 250, 0.5, 0, 1000, 10)
	if tt-f != 500 || f != 125 {
		t.Errorf("zoom in around 250: [%d, %d), want [125, 625)", f, tt)
	}
	// The anchor stays at the same fraction of the view.
	if (250-f)*1000 != (250-from)*(tt-f) {
		t.Errorf("anchor moved: %d..%d", f, tt)
	}
	if f, tt = ZoomRange(0, 1000, 500, 4, 0, 1000, 10); f != 0 || tt != 1000 {
		t.Errorf("zoom out past the extent: [%d, %d)", f, tt)
	}
	if f, tt = ZoomRange(400, 500, 450, 0.001, 0, 1000, 10); tt-f != 10 {
		t.Errorf("zoom in below the minimum span: [%d, %d)", f, tt)
	}
	if f, tt = ZoomRange(0, 100, 0, 0.5, 0, 1000, 10); f != 0 || tt != 50 {
		t.Errorf("zoom at the left edge: [%d, %d)", f, tt)
	}
	if f, tt = PanRange(100, 200, -500, 0, 1000); f != 0 || tt != 100 {
		t.Errorf("pan past the start: [%d, %d)", f, tt)
	}
	if f, tt = PanRange(100, 200, 5000, 0, 1000); f != 900 || tt != 1000 {
		t.Errorf("pan past the end: [%d, %d)", f, tt)
	}
}

func TestTicksAreRoundAndApart(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 0, 54, 23, 779_301_650, time.UTC).UnixNano()
	for _, span := range []time.Duration{time.Microsecond * 37, 3 * time.Millisecond, 2 * time.Second, 17 * time.Minute, 5 * time.Hour, 40 * 24 * time.Hour} {
		s := Scale{From: t0, To: t0 + int64(span), X0: 176, Width: 1092}
		ticks := timeTicks(s)
		if len(ticks) < 2 || len(ticks) > int(s.Width/minTickPx)+1 {
			t.Errorf("span %v: %d ticks", span, len(ticks))
			continue
		}
		step := ticks[1].Value - ticks[0].Value
		if float64(step)*s.Width/float64(span) < minTickPx {
			t.Errorf("span %v: ticks %v apart are closer than %v px", span, time.Duration(step), minTickPx)
		}
		for i, tk := range ticks {
			if tk.Value%step != 0 || tk.Value < s.From || tk.Value >= s.To || i > 0 && tk.Value-ticks[i-1].Value != step {
				t.Errorf("span %v: tick %d at %d is not on the %v grid", span, i, tk.Value, time.Duration(step))
			}
			if i > 0 && tk.Label == ticks[i-1].Label {
				t.Errorf("span %v: two ticks labelled %q", span, tk.Label)
			}
		}
	}
	if got := timeTicks(Scale{From: t0, To: t0 + int64(10*time.Minute), X0: 0, Width: 1000}); got[0].Label != "00:55" {
		t.Errorf("a 10 minute view starts with %q, want 00:55", got[0].Label)
	}
	n := numberTicks(Scale{From: 389, To: 1412, X0: 0, Width: 1000})
	if n[0].Value != 400 || n[1].Value-n[0].Value != 100 || n[0].Label != "400" {
		t.Errorf("RV ticks %v", n)
	}
}

func TestNearestPos(t *testing.T) {
	xs := []int64{10, 20, 30}
	for _, c := range []struct{ v, tol, want int64 }{{21, 2, 1}, {24, 3, -1}, {26, 5, 2}, {0, 10, 0}, {40, 10, 2}, {15, 5, 0}} {
		if got := nearestPos(xs, c.v, c.tol); int64(got) != c.want {
			t.Errorf("nearest(%d, ±%d) = %d, want %d", c.v, c.tol, got, c.want)
		}
	}
}

func TestZoneStatsUnion(t *testing.T) {
	s := int64(time.Second)
	zones := []timeline.Zone{
		{Kind: timeline.BookmarkAware, From: 10 * s, To: 20 * s},
		{Kind: timeline.BookmarkAware, From: 15 * s, To: 30 * s}, // another model, overlapping
		{Kind: timeline.BookmarkIgnoring, From: 40 * s, To: 50 * s, FromRV: 7, ToRV: 7},
	}
	st := zoneStats(zones, false, 0, 100*s)
	if st[0].Count != 2 || st[0].Seconds != 20 || st[1].Count != 1 || st[1].Seconds != 10 {
		t.Errorf("whole view: %+v", st)
	}
	st = zoneStats(zones, false, 25*s, 45*s)
	if st[0].Count != 1 || st[0].Seconds != 5 || st[1].Count != 1 || st[1].Seconds != 5 {
		t.Errorf("clipped view: %+v", st)
	}
	if st = zoneStats(zones, true, 5, 8); st[1].Count != 1 || st[0].Count != 0 {
		t.Errorf("RV axis: %+v", st)
	}
}

func TestLayoutBandsAndRows(t *testing.T) {
	layout := NewLayout(1280, 100, false, true)
	if layout.LanesH != maxRowsShow*RowHeight || layout.ContentH != 100*RowHeight {
		t.Errorf("lane area %v of %v", layout.LanesH, layout.ContentH)
	}
	for _, b := range layout.Bands {
		if got := layout.BandAt(b.Y + b.Height/2); got != b.ID {
			t.Errorf("middle of band %d reads as %d", b.ID, got)
		}
	}
	if r := layout.RowAt(layout.LanesY+RowHeight*2.5, 3*RowHeight, 100); r != 5 {
		t.Errorf("row under the third visible row scrolled by 3 = %d", r)
	}
	if s := layout.ClampScroll(1e9); s != layout.ContentH-layout.LanesH {
		t.Errorf("scroll clamps to %v", s)
	}
	rv := NewLayout(1280, 3, true, false)
	if _, ok := rv.bandByID(BandCursors); ok {
		t.Error("the RV axis has a cursor strip (RV against time)")
	}
}

// TestHitTest clicks where the frame drew the marks of a real capture.
func TestHitTest(t *testing.T) {
	tl, c, v, layout, s := wholeFrame(t, "w4-then-resume.ts.http")

	// The one MODIFIED, in its lane (row 1, under the group header).
	mod := int(tl.LaneEvents(0)[0])
	x := s.X(tl.Event(mod).T)
	y := layout.LanesY + RowHeight*1.5
	h := HitTest(c, v, &layout, x+3, y)
	if h.Event != mod || !strings.Contains(h.Text, "MODIFIED ConfigMap") || !strings.Contains(h.Text, "RV 389") {
		t.Errorf("near the MODIFIED: %+v", h)
	}
	if h = HitTest(c, v, &layout, x+40, y); h.Event != -1 {
		t.Errorf("40 px from any mark selects %d", h.Event)
	}
	// The group header folds.
	if h = HitTest(c, v, &layout, 300, layout.LanesY+RowHeight/2); h.Group != 0 {
		t.Errorf("header row: %+v", h)
	}
	// The ERROR marker in the sessions band, with its message.
	sb, _ := layout.bandByID(BandSessions)
	errEv := int(tl.Specials()[0])
	h = HitTest(c, v, &layout, s.X(tl.Event(errEv).T), sb.Y+sb.Height/2)
	if h.Event != errEv || !strings.Contains(h.Text, "too old resource version: 389 (1411)") {
		t.Errorf("error marker: %+v", h)
	}
	// A red zone reads its reason.
	zb, _ := layout.bandByID(BandZoneAware)
	z := v.Analysis.Zones[0]
	h = HitTest(c, v, &layout, s.X(z.From+(z.To-z.From)/2), zb.Y+zb.Height/2)
	if !strings.Contains(h.Text, "410 Gone") {
		t.Errorf("zone band: %+v", h)
	}
}

func TestHitTestBookmark(t *testing.T) {
	_, c, v, layout, s := wholeFrame(t, "w3-then-resume.ts.http")
	b, _ := layout.bandByID(BandBookmarks)
	bm := c.bookmarks[1]
	h := HitTest(c, v, &layout, s.X(bm.t)+1, b.Y+b.Height/2)
	want := "nothing you watch changed in (" + itoa(c.bookmarks[0].rv) + ".." + itoa(bm.rv) + "]"
	if h.Event != int(bm.idx) || !strings.Contains(h.Text, want) {
		t.Errorf("bookmark: %+v, want %q", h, want)
	}
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

func TestHitTestReconnectGap(t *testing.T) {
	tl, c, v, layout, s := wholeFrame(t, "w3-then-resume.ts.http")
	b, _ := layout.bandByID(BandSessions)
	h := HitTest(c, v, &layout, s.X(tl.Sessions[1].Start)-1, b.Y+b.Height/2)
	if !strings.Contains(h.Text, "reconnect gap of 0.816 s before session 1") {
		t.Errorf("at the reconnect: %q", h.Text)
	}
	h = HitTest(c, v, &layout, s.X(tl.Sessions[0].Start)+100, b.Y+b.Height/2)
	if !strings.Contains(h.Text, "session 0 of w3-then-resume.ts.http") || !strings.Contains(h.Text, "ended: deadline") {
		t.Errorf("inside session 0: %q", h.Text)
	}
}

// TestDensityCountsEveryEvent: the events band's columns add up to the
// capture's events (bookmarks and errors aside), and hovering reads one.
func TestDensityCountsEveryEvent(t *testing.T) {
	tl, an := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	total := 0
	for _, n := range c.bins.Objects {
		total += int(n)
	}
	f := tl.Files[0]
	if want := f.Events - f.Counts["BOOKMARK"] - f.Counts["ERROR"]; total != want {
		t.Errorf("density columns hold %d events, want %d", total, want)
	}
	b, _ := layout.bandByID(BandDensity)
	busiest := 0
	for col, n := range c.bins.Objects {
		if n > c.bins.Objects[busiest] {
			busiest = col
		}
	}
	h := HitTest(c, v, &layout, layout.PlotX+float64(busiest)+0.5, b.Y+b.Height/2)
	if want := strconv.Itoa(int(c.bins.Objects[busiest])) + " events"; !strings.HasPrefix(h.Text, want) {
		t.Errorf("hovering the busiest column reads %q, want %q", h.Text, want)
	}
}

// TestBuildRowsInView: with Filter.InView, the rows are the lanes active
// in the range.
func TestBuildRowsInView(t *testing.T) {
	tl, _ := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	mid := tl.Start() + (tl.End()-tl.Start())/2
	active := timeline.LanesActiveIn(tl, mid, tl.End()+1)
	in := 0
	for l := range tl.Lanes {
		if active(l) {
			in++
		}
	}
	if in == 0 || in == len(tl.Lanes) {
		t.Fatalf("%d of %d lanes active in the second half: the test proves nothing", in, len(tl.Lanes))
	}
	_, _, shown := BuildRows(tl, timeline.Filter{InView: true}, nil, active)
	if shown != in {
		t.Errorf("BuildRows shows %d lanes, want the %d active ones", shown, in)
	}
}

func TestColumnEnd(t *testing.T) {
	for _, s := range []Scale{
		{From: 1_764_460_800_000_000_000, To: 1_764_460_800_000_000_000 + int64(time.Hour), X0: 180.5, Width: 1192.3},
		{From: 1_764_460_800_000_000_000, To: 1_764_460_800_000_000_000 + MinSpanTime, X0: 0, Width: 2000},
		{From: -50, To: 977, X0: 10, Width: 333},
		// Over years, instants are past float64's exact integers.
		{From: 0, To: 40 * 365 * 24 * int64(time.Hour), X0: 0, Width: 1500},
	} {
		n := int(math.Ceil(s.Width))
		for col := 0; col < n-1; col++ {
			end := s.ColumnEnd(col, n)
			if s.Column(end-1, n) > col || s.Column(end, n) <= col {
				t.Fatalf("scale %+v: column %d ends at %d, where columns are %d and %d", s, col, end, s.Column(end-1, n), s.Column(end, n))
			}
		}
		if end := s.ColumnEnd(n-1, n); end != math.MaxInt64 {
			t.Errorf("the last column ends at %d", end)
		}
	}
}
