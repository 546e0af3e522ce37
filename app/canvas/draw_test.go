package canvas

import (
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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
			// Every zone is drawn: refused ones red, at-risk ones pale.
			refused, risky := 0, 0
			for _, op := range opsOf(&fr, "rect", ColorZone) {
				switch op.Alpha {
				case zoneAlpha:
					refused += op.Count / 4
				case zoneRiskAlpha:
					risky += op.Count / 4
				}
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

// TestMarksOnePerEventWhenZoomedIn: zoomed in enough, every event of a lane
// on screen has its own mark, in its type's shape. The lane is the one with
// the most events whose events, zoomed to the lane's span, all lie further
// apart than marks of a type merge.
func TestMarksOnePerEventWhenZoomedIn(t *testing.T) {
	tl, an := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	plotW := NewLayout(1280, 2, false, HasHad(an)).PlotW
	row := -1
	for r, rw := range v.Rows {
		if rw.Lane < 0 {
			continue
		}
		evs := tl.LaneEvents(rw.Lane)
		if len(evs) < 2 || row >= 0 && len(evs) <= len(tl.LaneEvents(v.Rows[row].Lane)) {
			continue
		}
		span := float64(tl.Event(int(evs[len(evs)-1])).T - tl.Event(int(evs[0])).T + 2)
		apart := true
		for k := 1; k < len(evs); k++ {
			if float64(tl.Event(int(evs[k])).T-tl.Event(int(evs[k-1])).T)*plotW/span < markSize {
				apart = false
			}
		}
		if apart {
			row = r
		}
	}
	if row < 0 {
		t.Fatal("no lane with two or more events a mark apart: the test tests nothing")
	}
	rw := v.Rows[row]
	v.Rows = []Row{{Group: rw.Group, Lane: -1}, rw} // its header, and it
	evs := tl.LaneEvents(rw.Lane)
	t.Logf("lane %s: %d events", tl.Lanes[rw.Lane].Name, len(evs))
	v.From, v.To = tl.Event(int(evs[0])).T-1, tl.Event(int(evs[len(evs)-1])).T+1
	var fr Frame
	c.Build(v, &fr)
	want := map[string]int{}
	for _, i := range evs {
		want[markStyles[tl.Event(int(i)).Type].shape]++
	}
	got := map[string]int{}
	for _, op := range opsOf(&fr, "mark", "") {
		if op.Shape != "tridown" && op.Shape != "ring" {
			got[op.Shape] += op.Count / 2
		}
	}
	for shape, n := range want {
		if got[shape] != n {
			t.Errorf("%d %s marks, %d events", got[shape], shape, n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("marks of shapes %v, events of shapes %v", got, want)
	}
}

// steps is a step series from plain slices.
type steps struct {
	ts []int64
	vs []uint64
}

func (s steps) T(k int) int64   { return s.ts[k] }
func (s steps) RV(k int) uint64 { return s.vs[k] }
func (s steps) SearchT(lo, hi int, t int64) int {
	return lo + sort.Search(hi-lo, func(x int) bool { return s.ts[lo+x] >= t })
}

// descents is timeline.Steps.Descents for a test series.
func descents(st steps) []int32 {
	var out []int32
	for k, v := range st.vs {
		if v == timeline.NoRV || k > 0 && (st.vs[k-1] == timeline.NoRV || v < st.vs[k-1]) {
			out = append(out, int32(k))
		}
	}
	return out
}

// TestStepEnvelope reduces a step series to columns and back to segments.
func TestStepEnvelope(t *testing.T) {
	s := Scale{From: 0, To: 100, X0: 10, Width: 100}
	ts := []int64{0, 10, 10, 50, 51, 90}
	vs := []uint64{5, 7, 6, 9, timeline.NoRV, 12}
	var e stepEnvelope
	e.reset(100)
	e.add(steps{ts, vs}, descents(steps{ts, vs}), 0, len(ts), s)
	if !e.has[10] || e.lo[10] != 5 || e.hi[10] != 7 || e.last[10] != 6 {
		t.Errorf("column 10: has %v lo %d hi %d last %d", e.has[10], e.lo[10], e.hi[10], e.last[10])
	}
	if !e.breakAfter[50] || e.has[51] {
		t.Errorf("the unset step does not break the line")
	}
	// A long rising run folds from its ends and gives the same columns.
	var long, byStep stepEnvelope
	lts, lvs := make([]int64, 1000), make([]uint64, 1000)
	for i := range lts {
		lts[i], lvs[i] = int64(i/10), uint64(i*3)
	}
	long.reset(100)
	long.add(steps{lts, lvs}, descents(steps{lts, lvs}), 0, len(lts), s)
	byStep.reset(100)
	every := make([]int32, len(lts)) // as if it fell at every step: no shortcut
	for i := range every {
		every[i] = int32(i)
	}
	byStep.add(steps{lts, lvs}, every, 0, len(lts), s)
	for col := range 100 {
		if long.has[col] != byStep.has[col] || long.lo[col] != byStep.lo[col] || long.hi[col] != byStep.hi[col] || long.last[col] != byStep.last[col] {
			t.Fatalf("column %d: folded %v %d..%d last %d, stepwise %v %d..%d last %d", col,
				long.has[col], long.lo[col], long.hi[col], long.last[col], byStep.has[col], byStep.lo[col], byStep.hi[col], byStep.last[col])
		}
	}
	if e.min != 5 || e.max != 12 {
		t.Errorf("range %d..%d", e.min, e.max)
	}
	segs := e.segments(nil, 10, 100, rvBand{h: 20, top: 12, bot: 5})
	// 0->10 flat at 5; at 10 a vertical 5..7 and flat at 6 to 50; vertical
	// 6..9 at 50; no line from 51 to 90; 90 flat to the end.
	if len(segs)%4 != 0 || len(segs)/4 != 5 {
		t.Fatalf("%d segments: %v", len(segs)/4, segs)
	}
	for k := 0; k < len(segs); k += 4 {
		if segs[k] > 60.5+10 && segs[k] < 90+10 {
			t.Errorf("segment %v crosses the gap with no cursor", segs[k:k+4])
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
		const n = 1_000_000
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
		b := timeline.NewBuilder()
		f := b.AddFile("synthetic")
		names := make([]string, 10_000)
		for i := range names {
			names[i] = "obj-" + strconv.Itoa(i)
		}
		step := int64(time.Hour) / n
		rv := uint64(1000)
		for i := 0; i < n; i++ {
			rv++
			e := parser.Event{Seq: i, Offset: int64(i) * 900, Length: 900, Type: parser.Modified, Kind: "ConfigMap",
				Namespace: "ns-" + strconv.Itoa(i%7), Name: names[i%len(names)], UID: names[i%len(names)], RVNum: rv, RVValid: true, Arrival: t0 + int64(i)*step}
			if i%16_667 == 0 {
				e.Type, e.Name, e.UID, e.Namespace = parser.Bookmark, "", "", ""
			}
			f.Add(e)
		}
		f.Finish([]parser.Session{{HTTPStatus: 200, StartArrival: t0, EndArrival: t0 + int64(time.Hour),
			Request: &parser.Request{Watch: true, ResourceVersion: "1000", AllowWatchBookmarks: true}}}, nil)
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
	c.Build(v, &fr)
	lines := 0
	for _, col := range []string{ColorAware, ColorIgnoring} {
		lines += len(opsOf(&fr, "seg", col))
	}
	// ColorAware is also ADDED's colour, but ADDED marks are "mark" ops.
	if lines != 4 {
		t.Errorf("%d cursor lines for two files", lines)
	}
}

// hotTimeline is 1 M events over five objects: the hot lanes of a lease
// or an endpoint renewed all the time. Every 1000th event, all in the
// first lane, is OBSERVED, so that lane has type changes to find.
func hotTimeline(t testing.TB, n int) (*timeline.Timeline, *timeline.Analysis) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	b := timeline.NewBuilder()
	f := b.AddFile("hot")
	step := int64(time.Hour) / int64(n)
	for i := 0; i < n; i++ {
		name := "lease-" + strconv.Itoa(i%5)
		typ := parser.Modified
		if i%1000 == 500 {
			typ = parser.Observed // not DELETED: that would close the lane
		}
		f.Add(parser.Event{Seq: i, Type: typ, Kind: "Lease", Namespace: "kube-node-lease", Name: name, UID: name,
			RVNum: uint64(1000 + i), RVValid: true, Arrival: t0 + int64(i)*step})
	}
	f.Finish([]parser.Session{{HTTPStatus: 200, StartArrival: t0, EndArrival: t0 + int64(time.Hour),
		Request: &parser.Request{Watch: true, ResourceVersion: "1000"}}}, nil)
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
}

// TestHotLaneMarks: in a packed lane every type still gets a mark in every
// stretch where it occurs, and marks of a type stay a mark width apart.
func TestHotLaneMarks(t *testing.T) {
	tl, an := hotTimeline(t, 100_000)
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1000+gutterW+rightPad)
	v.Rows = v.Rows[:2]
	var fr Frame
	c.Build(v, &fr)
	var dots, diamonds int
	for _, op := range opsOf(&fr, "mark", "") {
		switch op.Shape {
		case "dot":
			dots += op.Count / 2
			for k := op.Offset + 2; k < op.Offset+op.Count; k += 2 {
				if dx := fr.floats[k] - fr.floats[k-2]; dx < markSize*0.6-0.1 {
					t.Fatalf("two MODIFIED marks %.2f px apart", dx)
				}
			}
		case "diamond":
			diamonds += op.Count / 2
		}
	}
	// 1000 px of plot, a bucket every 5.4 px or more; the lane's 100
	// OBSERVED events are 36 s (about 10 px) apart, each in its own bucket.
	if dots < 150 || dots > 200 || diamonds != 100 {
		t.Errorf("%d MODIFIED and %d OBSERVED marks", dots, diamonds)
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

// A LIST answered 410 Gone (l410) is a Status response, not an in-stream
// ERROR: it is marked and counted as an error in view like one, and its
// one instant gets an axis of seconds, not nanoseconds.
func TestListGoneIsDrawn(t *testing.T) {
	_, c, v, _, s := wholeFrame(t, "l410-list-exact-stale-rv.http")
	if len(c.errs) != 1 || !strings.Contains(c.errs[0].msg, "too old") {
		t.Fatalf("errors to draw: %+v", c.errs)
	}
	var fr Frame
	c.Build(v, &fr)
	if marks := opsOf(&fr, "mark", ColorError); len(marks) != 1 || marks[0].Count != 2 {
		t.Errorf("error marks: %+v", marks)
	}
	if span := s.To - s.From; span < int64(time.Second) {
		t.Errorf("the view spans %d ns", span)
	}
	for _, tk := range timeTicks(s) {
		if strings.Contains(tk.Label, ".") && len(tk.Label) > 12 {
			t.Errorf("tick %q is finer than the capture deserves", tk.Label)
		}
	}
}
