package app

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
	f, err := os.Open("../samples/" + name)
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
func wholeView(tl *timeline.Timeline, an *timeline.Analysis, c *drawCache, width float64) *tlView {
	groups, rows, _ := buildRows(tl, timeline.Filter{}, map[string]bool{}, nil)
	from, to := c.extent(false)
	return &tlView{an: an, from: from, to: to, width: width, dpr: 1, groups: groups, rows: rows, selected: -1}
}

// wholeFrame lays out a sample's whole capture at 1280 px, as the view first
// shows it, for the tests that aim at what it drew.
func wholeFrame(t *testing.T, sample string) (*timeline.Timeline, *drawCache, *tlView, tlLayout, tlScale) {
	t.Helper()
	tl, an := sampleTimeline(t, sample)
	c := newDrawCache(tl)
	v := wholeView(tl, an, c, 1280)
	var fr tlFrame
	lo := c.build(v, &fr)
	return tl, c, v, lo, v.scale(&lo)
}

func TestBuildRowsGroupsAndFolds(t *testing.T) {
	tl, _ := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	groups, rows, shown := buildRows(tl, timeline.Filter{}, map[string]bool{}, nil)
	if shown != len(tl.Lanes) {
		t.Fatalf("%d lanes shown, want all %d", shown, len(tl.Lanes))
	}
	if len(rows) != len(tl.Lanes)+len(groups) {
		t.Fatalf("%d rows for %d lanes in %d groups", len(rows), len(tl.Lanes), len(groups))
	}
	for i := 1; i < len(groups); i++ {
		a, b := groups[i-1], groups[i]
		if a.kind > b.kind || a.kind == b.kind && a.ns >= b.ns {
			t.Errorf("groups out of order: %s/%s before %s/%s", a.kind, a.ns, b.kind, b.ns)
		}
	}
	for _, r := range rows {
		if r.lane < 0 {
			continue
		}
		g, ln := groups[r.group], tl.Lanes[r.lane]
		if ln.Kind != g.kind || ln.Namespace != g.ns {
			t.Fatalf("lane %d (%s/%s) in group %s/%s", r.lane, ln.Kind, ln.Namespace, g.kind, g.ns)
		}
	}
	folded := map[string]bool{groups[0].key(): true}
	_, rows2, _ := buildRows(tl, timeline.Filter{}, folded, nil)
	if want := len(rows) - len(groups[0].lanes); len(rows2) != want {
		t.Errorf("folding group 0 leaves %d rows, want %d", len(rows2), want)
	}
	_, _, shown = buildRows(tl, timeline.Filter{Namespace: groups[0].ns}, nil, nil)
	if shown != len(groups[0].lanes) {
		t.Errorf("namespace filter shows %d lanes, want %d", shown, len(groups[0].lanes))
	}
}

func TestScaleMapsBothWays(t *testing.T) {
	s := tlScale{from: 1_000, to: 11_000, x0: 100, w: 1000}
	if s.x(1_000) != 100 || s.x(11_000) != 1100 || s.x(6_000) != 600 {
		t.Errorf("x: %v %v %v", s.x(1_000), s.x(11_000), s.x(6_000))
	}
	for _, v := range []int64{1_000, 3_333, 10_999} {
		if got := s.at(s.x(v)); got != v {
			t.Errorf("at(x(%d)) = %d", v, got)
		}
	}
	if s.xc(math.MaxInt64) != 1102 || s.xc(math.MinInt64) != 98 {
		t.Errorf("xc does not clamp far values: %v %v", s.xc(math.MaxInt64), s.xc(math.MinInt64))
	}
	// Unix nanoseconds an hour apart keep nanosecond precision.
	tn := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC).UnixNano()
	s = tlScale{from: tn, to: tn + int64(time.Hour), x0: 0, w: 3600}
	if got := s.x(tn + int64(time.Second)); math.Abs(got-1) > 1e-9 {
		t.Errorf("one second is %v px, want 1", got)
	}
}

func TestZoomKeepsAnchorAndBounds(t *testing.T) {
	from, to := int64(0), int64(1000)
	f, tt := zoomRange(from, to, 250, 0.5, 0, 1000, 10)
	if tt-f != 500 || f != 125 {
		t.Errorf("zoom in around 250: [%d, %d), want [125, 625)", f, tt)
	}
	// The anchor stays at the same fraction of the view.
	if (250-f)*1000 != (250-from)*(tt-f) {
		t.Errorf("anchor moved: %d..%d", f, tt)
	}
	if f, tt = zoomRange(0, 1000, 500, 4, 0, 1000, 10); f != 0 || tt != 1000 {
		t.Errorf("zoom out past the extent: [%d, %d)", f, tt)
	}
	if f, tt = zoomRange(400, 500, 450, 0.001, 0, 1000, 10); tt-f != 10 {
		t.Errorf("zoom in below the minimum span: [%d, %d)", f, tt)
	}
	if f, tt = zoomRange(0, 100, 0, 0.5, 0, 1000, 10); f != 0 || tt != 50 {
		t.Errorf("zoom at the left edge: [%d, %d)", f, tt)
	}
	if f, tt = panRange(100, 200, -500, 0, 1000); f != 0 || tt != 100 {
		t.Errorf("pan past the start: [%d, %d)", f, tt)
	}
	if f, tt = panRange(100, 200, 5000, 0, 1000); f != 900 || tt != 1000 {
		t.Errorf("pan past the end: [%d, %d)", f, tt)
	}
}

func TestTicksAreRoundAndApart(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 0, 54, 23, 779_301_650, time.UTC).UnixNano()
	for _, span := range []time.Duration{time.Microsecond * 37, 3 * time.Millisecond, 2 * time.Second, 17 * time.Minute, 5 * time.Hour, 40 * 24 * time.Hour} {
		s := tlScale{from: t0, to: t0 + int64(span), x0: 176, w: 1092}
		ticks := timeTicks(s)
		if len(ticks) < 2 || len(ticks) > int(s.w/minTickPx)+1 {
			t.Errorf("span %v: %d ticks", span, len(ticks))
			continue
		}
		step := ticks[1].v - ticks[0].v
		if float64(step)*s.w/float64(span) < minTickPx {
			t.Errorf("span %v: ticks %v apart are closer than %v px", span, time.Duration(step), minTickPx)
		}
		for i, tk := range ticks {
			if tk.v%step != 0 || tk.v < s.from || tk.v >= s.to || i > 0 && tk.v-ticks[i-1].v != step {
				t.Errorf("span %v: tick %d at %d is not on the %v grid", span, i, tk.v, time.Duration(step))
			}
			if i > 0 && tk.label == ticks[i-1].label {
				t.Errorf("span %v: two ticks labelled %q", span, tk.label)
			}
		}
	}
	if got := timeTicks(tlScale{from: t0, to: t0 + int64(10*time.Minute), x0: 0, w: 1000}); got[0].label != "00:55" {
		t.Errorf("a 10 minute view starts with %q, want 00:55", got[0].label)
	}
	n := numberTicks(tlScale{from: 389, to: 1412, x0: 0, w: 1000})
	if n[0].v != 400 || n[1].v-n[0].v != 100 || n[0].label != "400" {
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
	if st[0].count != 2 || st[0].seconds != 20 || st[1].count != 1 || st[1].seconds != 10 {
		t.Errorf("whole view: %+v", st)
	}
	st = zoneStats(zones, false, 25*s, 45*s)
	if st[0].count != 1 || st[0].seconds != 5 || st[1].count != 1 || st[1].seconds != 5 {
		t.Errorf("clipped view: %+v", st)
	}
	if st = zoneStats(zones, true, 5, 8); st[1].count != 1 || st[0].count != 0 {
		t.Errorf("RV axis: %+v", st)
	}
}

func TestLayoutBandsAndRows(t *testing.T) {
	lo := newTLLayout(1280, 100, false, true)
	if lo.lanesH != maxRowsShow*rowH || lo.contentH != 100*rowH {
		t.Errorf("lane area %v of %v", lo.lanesH, lo.contentH)
	}
	for _, b := range lo.bands {
		if got := lo.bandAt(b.y + b.h/2); got != b.id {
			t.Errorf("middle of band %d reads as %d", b.id, got)
		}
	}
	if r := lo.rowAt(lo.lanesY+rowH*2.5, 3*rowH, 100); r != 5 {
		t.Errorf("row under the third visible row scrolled by 3 = %d", r)
	}
	if s := lo.clampScroll(1e9); s != lo.contentH-lo.lanesH {
		t.Errorf("scroll clamps to %v", s)
	}
	rv := newTLLayout(1280, 3, true, false)
	if _, ok := rv.band(bandCursors); ok {
		t.Error("the RV axis has a cursor strip (RV against time)")
	}
}

// TestHitTest clicks where the frame drew the marks of a real capture.
func TestHitTest(t *testing.T) {
	tl, c, v, lo, s := wholeFrame(t, "w4-then-resume.ts.http")

	// The one MODIFIED, in its lane (row 1, under the group header).
	mod := int(tl.LaneEvents(0)[0])
	x := s.x(tl.Event(mod).T)
	y := lo.lanesY + rowH*1.5
	h := hitTest(c, v, &lo, x+3, y)
	if h.event != mod || !strings.Contains(h.text, "MODIFIED ConfigMap") || !strings.Contains(h.text, "RV 389") {
		t.Errorf("near the MODIFIED: %+v", h)
	}
	if h = hitTest(c, v, &lo, x+40, y); h.event != -1 {
		t.Errorf("40 px from any mark selects %d", h.event)
	}
	// The group header folds.
	if h = hitTest(c, v, &lo, 300, lo.lanesY+rowH/2); h.group != 0 {
		t.Errorf("header row: %+v", h)
	}
	// The ERROR marker in the sessions band, with its message.
	sb, _ := lo.band(bandSessions)
	errEv := int(tl.Specials()[0])
	h = hitTest(c, v, &lo, s.x(tl.Event(errEv).T), sb.y+sb.h/2)
	if h.event != errEv || !strings.Contains(h.text, "too old resource version: 389 (1411)") {
		t.Errorf("error marker: %+v", h)
	}
	// A red zone reads its reason.
	zb, _ := lo.band(bandZoneAware)
	z := v.an.Zones[0]
	h = hitTest(c, v, &lo, s.x(z.From+(z.To-z.From)/2), zb.y+zb.h/2)
	if !strings.Contains(h.text, "410 Gone") {
		t.Errorf("zone band: %+v", h)
	}
}

func TestHitTestBookmark(t *testing.T) {
	_, c, v, lo, s := wholeFrame(t, "w3-then-resume.ts.http")
	b, _ := lo.band(bandBookmarks)
	bm := c.bookmarks[1]
	h := hitTest(c, v, &lo, s.x(bm.t)+1, b.y+b.h/2)
	want := "nothing you watch changed in (" + itoa(c.bookmarks[0].rv) + ".." + itoa(bm.rv) + "]"
	if h.event != int(bm.idx) || !strings.Contains(h.text, want) {
		t.Errorf("bookmark: %+v, want %q", h, want)
	}
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

func TestHitTestReconnectGap(t *testing.T) {
	tl, c, v, lo, s := wholeFrame(t, "w3-then-resume.ts.http")
	b, _ := lo.band(bandSessions)
	h := hitTest(c, v, &lo, s.x(tl.Sessions[1].Start)-1, b.y+b.h/2)
	if !strings.Contains(h.text, "reconnect gap of 0.816 s before session 1") {
		t.Errorf("at the reconnect: %q", h.text)
	}
	h = hitTest(c, v, &lo, s.x(tl.Sessions[0].Start)+100, b.y+b.h/2)
	if !strings.Contains(h.text, "session 0 of w3-then-resume.ts.http") || !strings.Contains(h.text, "ended: deadline") {
		t.Errorf("inside session 0: %q", h.text)
	}
}

// TestDensityCountsEveryEvent: the events band's columns add up to the
// capture's events (bookmarks and errors aside), and hovering reads one.
func TestDensityCountsEveryEvent(t *testing.T) {
	tl, an := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	c := newDrawCache(tl)
	v := wholeView(tl, an, c, 1280)
	var fr tlFrame
	lo := c.build(v, &fr)
	total := 0
	for _, n := range c.bins.Objects {
		total += int(n)
	}
	f := tl.Files[0]
	if want := f.Events - f.Counts["BOOKMARK"] - f.Counts["ERROR"]; total != want {
		t.Errorf("density columns hold %d events, want %d", total, want)
	}
	b, _ := lo.band(bandDensity)
	busiest := 0
	for col, n := range c.bins.Objects {
		if n > c.bins.Objects[busiest] {
			busiest = col
		}
	}
	h := hitTest(c, v, &lo, lo.plotX+float64(busiest)+0.5, b.y+b.h/2)
	if want := strconv.Itoa(int(c.bins.Objects[busiest])) + " events"; !strings.HasPrefix(h.text, want) {
		t.Errorf("hovering the busiest column reads %q, want %q", h.text, want)
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
	_, _, shown := buildRows(tl, timeline.Filter{InView: true}, nil, active)
	if shown != in {
		t.Errorf("buildRows shows %d lanes, want the %d active ones", shown, in)
	}
}

func TestColumnEnd(t *testing.T) {
	for _, s := range []tlScale{
		{from: 1_764_460_800_000_000_000, to: 1_764_460_800_000_000_000 + int64(time.Hour), x0: 180.5, w: 1192.3},
		{from: 1_764_460_800_000_000_000, to: 1_764_460_800_000_000_000 + minSpanTime, x0: 0, w: 2000},
		{from: -50, to: 977, x0: 10, w: 333},
		// Over years, instants are past float64's exact integers.
		{from: 0, to: 40 * 365 * 24 * int64(time.Hour), x0: 0, w: 1500},
	} {
		n := int(math.Ceil(s.w))
		for col := 0; col < n-1; col++ {
			end := s.columnEnd(col, n)
			if s.colOf(end-1, n) > col || s.colOf(end, n) <= col {
				t.Fatalf("scale %+v: column %d ends at %d, where columns are %d and %d", s, col, end, s.colOf(end-1, n), s.colOf(end, n))
			}
		}
		if end := s.columnEnd(n-1, n); end != math.MaxInt64 {
			t.Errorf("the last column ends at %d", end)
		}
	}
}
