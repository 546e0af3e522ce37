package canvas

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"watchlens/internal/synth"
	"watchlens/parser"
	"watchlens/timeline"
)

// fleetRecording is the analysis of the 44 captures of testdata/fleet:
// real client-go informers through a rolling restart of two API servers.
var fleetRecording = sync.OnceValues(func() (*timeline.Analysis, error) {
	names, err := filepath.Glob("../../testdata/fleet/*.ts.http")
	if err != nil {
		return nil, err
	}
	b := timeline.NewBuilder()
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return nil, err
		}
		err = b.AddReader(filepath.Base(n), f, parser.Options{})
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return b.Build().Analyze(timeline.DefaultParams()), nil
})

func fleetData(t *testing.T) *FleetData {
	t.Helper()
	a, err := fleetRecording()
	if err != nil {
		t.Fatal(err)
	}
	d := NewFleetData(a)
	if d == nil || len(d.Rows) != 44 {
		t.Fatalf("the recording's fleet has %v rows, want 44", d)
	}
	return d
}

// The rows' spans, worked out once from the zones, count at every step
// of the model's stampede series the clients it counts there.
func TestFleetSpansMatchTheStampede(t *testing.T) {
	d := fleetData(t)
	for i, r := range d.Rows {
		if r.Client != &d.Fleet.Clients[i] {
			t.Fatalf("row %d is not the fleet's client %d", i, i)
		}
	}
	if d.MaxWithout != 22 || d.MaxWith != 0 {
		t.Errorf("peaks %d without bookmarks, %d with; the recording's are 22 and 0", d.MaxWithout, d.MaxWith)
	}
	for _, st := range d.Fleet.Steps {
		var with, without int
		for _, r := range d.Rows {
			if spanAt(r.With, st.T) {
				with++
			}
			if spanAt(r.Without, st.T) {
				without++
			}
		}
		if with != st.With || without != st.Without {
			t.Errorf("at %s the rows count %d with, %d without bookmarks; the model %d, %d", clock(st.T, nil), with, without, st.With, st.Without)
		}
	}
	whole := d.RangeCounts(d.From, d.To)
	if whole.Relists != d.Fleet.RelistsObserved || whole.Relists != 18 {
		t.Errorf("%d relists in the whole range; the fleet observed %d, the recording 18", whole.Relists, d.Fleet.RelistsObserved)
	}
	// Every client the model saw refused at a reconnect is refused
	// somewhere in the whole range.
	refused := 0
	for _, c := range d.Fleet.Clients {
		if c.Without > 0 {
			refused++
		}
	}
	if whole.PeakWithout != d.MaxWithout || whole.Without < max(refused, whole.PeakWithout) || whole.With != 0 {
		t.Errorf("whole range: peak %d without bookmarks (want %d), %d clients ever refused without (at least %d), %d with (want 0)",
			whole.PeakWithout, d.MaxWithout, whole.Without, max(refused, whole.PeakWithout), whole.With)
	}
}

// Only the rows in view are drawn; scrolled to the end, the last client
// is.
func TestFleetFrameDrawsTheRowsInView(t *testing.T) {
	d := fleetData(t)
	var fr Frame
	var buf FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: 1280, MaxHeight: 500, PixelRatio: 1}
	l := d.Build(v, &fr, &buf)
	first, last := l.VisibleRows(0)
	if first != 0 || last >= len(d.Rows) || last < minRowsShow {
		t.Fatalf("rows [%d, %d) in view of %d in a 500 px canvas", first, last, len(d.Rows))
	}
	names := func() map[string]bool {
		m := map[string]bool{}
		for _, tx := range fr.Texts {
			m[strings.TrimPrefix(tx.Text, "✗ ")] = true
		}
		return m
	}
	shown := names()
	for r, row := range d.Rows {
		if shown[row.Client.Name] != (r < last) {
			t.Errorf("row %d (%s) drawn: %v, in view: %v", r, row.Client.Name, shown[row.Client.Name], r < last)
		}
	}
	rings := 0
	for _, op := range opsOf(&fr, "mark", ColorFg) {
		rings += op.Count / 2
	}
	want := 0
	for _, row := range d.Rows[:last] {
		want += len(row.Relists)
	}
	if rings != want || want == 0 {
		t.Errorf("%d relist rings drawn, %d relists in the rows in view", rings, want)
	}
	v.ScrollY = l.ClampScroll(1e9)
	l = d.Build(v, &fr, &buf)
	if lastRow := d.Rows[len(d.Rows)-1].Client.Name; !names()[lastRow] {
		t.Errorf("scrolled to the end, the last row %s is not drawn", lastRow)
	}
	if _, end := l.VisibleRows(v.ScrollY); end != len(d.Rows) {
		t.Errorf("scrolled to the end, rows in view end at %d of %d", end, len(d.Rows))
	}
}

// The pointer over a row names its client, over the curves the
// stampede's count, and the layout maps rows both ways.
func TestFleetHitTest(t *testing.T) {
	d := fleetData(t)
	var fr Frame
	var buf FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: 1280, PixelRatio: 1, ScrollY: 3 * FleetRowH}
	l := d.Build(v, &fr, &buf)
	for _, r := range []int{3, 10, 30} {
		y := l.RowY(r, v.ScrollY) + FleetRowH/2
		h := d.HitTest(v, &l, 20, y)
		if h.Row != r || !strings.HasPrefix(h.Text, d.Rows[r].Client.Name+"\n") {
			t.Errorf("row %d's middle hits row %d: %q", r, h.Row, h.Text)
		}
	}
	if h := d.HitTest(v, &l, 20, l.RowY(2, v.ScrollY)+FleetRowH/2); h.Row != -1 {
		t.Errorf("a row scrolled out of view is hit: %d", h.Row)
	}
	st := d.Fleet.Stampedes[0]
	s := v.Scale(&l)
	h := d.HitTest(v, &l, s.X(st.From)+1, l.CurvesY+fleetCurvesH/2)
	if want := strconv.Itoa(st.Without) + " clients to relist without bookmarks"; !strings.Contains(h.Text, want) || h.Row != -1 {
		t.Errorf("over the stampede from %s the curves say %q, want %q", clock(st.From, nil), h.Text, want)
	}
	// A relist's row says when and why it relisted.
	v.ScrollY = 0
	l = d.Build(v, &fr, &buf)
	row := d.Rows[0]
	h = d.HitTest(v, &l, s.X(row.Relists[0]), l.RowY(0, 0)+FleetRowH/2)
	if want := "relisted at " + clock(row.Relists[0], nil) + ", after 410 Gone"; !strings.Contains(h.Text, want) {
		t.Errorf("at %s's first relist the row says %q, want %q", row.Client.Name, h.Text, want)
	}
}

// BenchmarkFleetFrame10k builds frames of 10 000 virtual clients, a
// broad hour of 1 M ConfigMap events split by label, half of them quiet
// (red without bookmarks): the Go side of a fleet frame, natively,
// scrolled down a little further each frame.
func BenchmarkFleetFrame10k(b *testing.B) {
	const shards, n = 10_000, 1_000_000
	buf := synth.ShardedHour(shards, n)
	split, _ := timeline.ParseSplit("label=shard")
	bl := timeline.NewBuilder()
	if err := bl.AddReaderSplit("broad", buf, parser.Options{}, split); err != nil {
		b.Fatal(err)
	}
	a := bl.Build().Analyze(timeline.DefaultParams())
	start := time.Now()
	d := NewFleetData(a)
	prepared := time.Since(start)
	if d == nil || len(d.Rows) != shards+1 || d.MaxWithout < shards/2 {
		b.Fatalf("the split gives %v rows and at most %d clients refused without bookmarks", len(d.Rows), d.MaxWithout)
	}
	var fr Frame
	var scratch FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: 1280, MaxHeight: 800, PixelRatio: 1}
	l := d.Build(v, &fr, &scratch)
	b.ResetTimer()
	for i := range b.N {
		v.ScrollY = l.ClampScroll(float64(i%shards) * FleetRowH)
		l = d.Build(v, &fr, &scratch)
	}
	b.ReportMetric(float64(prepared.Microseconds())/1000, "ms/prepare")
}

// TestFleetCurvesShowTheirScale: the curves' peak and 0 are written where
// the plot's clip shows them (they were in the gutter, under the clip,
// and no reader saw a scale).
func TestFleetCurvesShowTheirScale(t *testing.T) {
	d := fleetData(t)
	_, l, fr := wholeFleetFrame(d, 1280, 800)
	top := max(d.MaxWith, d.MaxWithout, d.MaxAtRiskWith, d.MaxAtRiskWithout, 1)
	found := map[string]bool{}
	for _, tx := range fr.Texts {
		if tx.Text == strconv.Itoa(top)+" clients" || tx.Text == "0" {
			if float64(tx.X) < l.PlotX || float64(tx.X) > l.PlotX+l.PlotW || float64(tx.Y) < l.CurvesY || float64(tx.Y) > l.CurvesY+fleetCurvesH {
				t.Errorf("the scale's %q at (%v, %v), outside the curves' plot", tx.Text, tx.X, tx.Y)
			}
			found[tx.Text] = true
		}
	}
	if len(found) != 2 {
		t.Errorf("the curves' scale shows %v, want the peak (%d clients) and 0", found, top)
	}
}

// wholeFleetFrame builds the frame of d's whole span, width CSS px wide.
func wholeFleetFrame(d *FleetData, width, maxHeight float64) (*FleetViewport, FleetLayout, *Frame) {
	var fr Frame
	var buf FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: width, MaxHeight: maxHeight, PixelRatio: 1}
	l := d.Build(v, &fr, &buf)
	return v, l, &fr
}
