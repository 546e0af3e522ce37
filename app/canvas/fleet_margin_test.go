package canvas

import (
	"math"
	"slices"
	"strings"
	"testing"

	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// samples-lab's clients without bookmarks: one of them, recorded to the
// shared clock's last instant, is refused there. Past it, in the view's
// margin, nothing was recorded: the curves, which count the zones, stop
// at the clock's end instead of falling to 0 there, and the hover says
// the recordings end and gives the counts of its last instant, those a
// reconnect asked about then (Reconnect at) counts refused; asked past
// it, a reconnect counts none, nothing showing the clients still
// watching. A row's hover there gives its client's verdict at the last
// instant, or, for a client whose recording ended before it, says so.
// Before the clock's start, the hover says the recordings begin.
func TestFleetCurvesStopAtTheClocksEnds(t *testing.T) {
	a := recordingTimeline(t, "samples-lab", "*-nobookmarks.ts.http").Analyze(timeline.DefaultParams())
	d := NewFleetData(a)
	if d == nil {
		t.Fatal("no fleet")
	}
	last := d.StepAt(d.clockEnd)
	if last.Without == 0 {
		t.Fatalf("no client refused without bookmarks at the clock's last instant: the margin's curves are not exercised")
	}
	var fr Frame
	var buf FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: 1280, MaxHeight: 800, PixelRatio: 1}
	l := d.Build(v, &fr, &buf)
	s := v.Scale(&l)
	n := int(l.PlotW)
	left, right := l.PlotX+float64(s.Column(d.clockStart, n)), l.PlotX+float64(s.Column(d.clockEnd, n)+1)
	if left <= l.PlotX || right >= l.PlotX+l.PlotW {
		t.Fatalf("the clock's columns [%.0f, %.0f) leave no margin in the plot [%.0f, %.0f)", left, right, l.PlotX, l.PlotX+l.PlotW)
	}

	// Every curve's segment and area lies over the clock's columns, and
	// the line without bookmarks reaches the last at the last instant's
	// count.
	top := max(d.MaxWith, d.MaxWithout, d.MaxAtRiskWith, d.MaxAtRiskWithout)
	y0, h := l.CurvesY+fleetCurvesH-4, fleetCurvesH-18
	// The curve's y for a count, as drawCurves rounds it.
	yOf := func(v int) float32 { return float32(math.Round(y0-float64(v)*h/float64(top)) + 0.5) }
	endY := float32(-1)
	for _, op := range fr.Ops {
		if op.Color != ColorIgnoring && op.Color != ColorAware || op.Kind != "seg" && op.Kind != "rect" {
			continue
		}
		f := fr.floats[op.Offset : op.Offset+op.Count]
		for i := 0; i+3 < len(f); i += 4 {
			x0, y, x1 := float64(f[i]), float64(f[i+1]), float64(f[i+2])
			if op.Kind == "rect" {
				x1 = x0 + x1
			}
			if y < l.CurvesY || y > l.CurvesY+fleetCurvesH {
				continue // the histogram's, per server
			}
			if x0 < left || x1 > right {
				t.Errorf("a curve's %s spans x %.0f to %.0f, off the clock's columns [%.0f, %.0f)", op.Kind, x0, x1, left, right)
			}
			if op.Kind == "seg" && op.Color == ColorIgnoring && op.Size == 2 && f[i+1] == f[i+3] && x1 == right {
				endY = f[i+1]
			}
		}
	}
	// The last column draws the most its instants count: the clients
	// recorded to near the end stop counting within it.
	lastCol, most := s.Column(d.clockEnd, n), 0
	for k, st := range d.Fleet.Steps {
		if s.Column(st.T, n) == lastCol {
			most = max(most, st.Without)
			if k > 0 && s.Column(d.Fleet.Steps[k-1].T, n) < lastCol {
				most = max(most, d.Fleet.Steps[k-1].Without)
			}
		}
	}
	if endY != yOf(most) || most < last.Without || endY == yOf(0) {
		t.Errorf("the curve without bookmarks ends at y %.1f, want %.1f, the most its last column counts, %d clients (the last instant's %d; 0 is at %.1f)", endY, yOf(most), most, last.Without, yOf(0))
	}

	// The hover in the margin past the end.
	at := d.clockEnd + (d.To-d.clockEnd)/2
	hit := d.HitTest(v, &l, s.X(at), l.CurvesY+fleetCurvesH/2)
	at = s.Roundest(s.At(s.X(at)))
	for _, want := range []string{
		"The recordings end at " + clock(d.clockEnd, nil),
		"Had every watch dropped at " + clock(d.clockEnd, nil),
		quantity.Plural(last.Without, "client") + " to relist without bookmarks",
		"Past it nothing shows the clients still watching",
	} {
		if !strings.Contains(hit.Text, want) {
			t.Errorf("past the clock's end the hover says\n%s\nwithout %q", hit.Text, want)
		}
	}
	if strings.Contains(hit.Text, "\n0 clients to relist") {
		t.Errorf("past the clock's end the hover counts 0 clients:\n%s", hit.Text)
	}
	fc, _ := a.FleetReconnect(timeline.ResumeQuery{At: d.clockEnd})
	if fc.Without.Refused != last.Without || fc.With.Refused != last.With {
		t.Errorf("past the clock's end the hover counts %d refused without bookmarks, %d with; a reconnect at its last instant %d and %d",
			last.Without, last.With, fc.Without.Refused, fc.With.Refused)
	}
	if past, _ := a.FleetReconnect(timeline.ResumeQuery{At: at}); past.Without.AfterRecording != len(d.Rows) || past.Without.Refused != 0 {
		t.Errorf("a reconnect past the clock's end counts %+v without bookmarks, want all %d clients past their recordings", past.Without, len(d.Rows))
	}

	// hoverRow scrolls row r into view and hovers it at instant t.
	hoverRow := func(r int, t int64) FleetHit {
		v.ScrollY = l.ClampScroll(float64(r) * FleetRowH)
		l = d.Build(v, &fr, &buf)
		s = v.Scale(&l)
		return d.HitTest(v, &l, s.X(t), l.RowY(r, v.ScrollY)+FleetRowH/2)
	}

	// A row refused at the clock's end, hovered past it.
	r := slices.IndexFunc(d.Rows, func(row FleetRow) bool { return spanAt(row.Own(), d.clockEnd) })
	if r < 0 {
		t.Fatal("no row refused at the clock's last instant")
	}
	c := d.Rows[r].Client
	hit = hoverRow(r, at)
	if want := "the recordings end at " + clock(d.clockEnd, nil) + "; a reconnect then, "; hit.Row != r || !strings.Contains(hit.Text, want) || !strings.Contains(hit.Text, "(as it ran): refused (410 Gone)") {
		t.Errorf("row %d (%s) past the clock's end says\n%s\nwant %q and refused", r, c.Name, hit.Text, want)
	}
	own := timeline.BookmarkIgnoring
	if c.Bookmarks {
		own = timeline.BookmarkAware
	}
	for _, vd := range a.ResumeAt(c.File, at) {
		if vd.Kind == own && vd.Outcome != timeline.Refused {
			t.Errorf("row %d (%s) says refused past the clock's end; a reconnect there of its %s cursor: %s", r, c.Name, own.Words(), vd.Outcome)
		}
	}

	// A row whose recording ended before the clock's end, hovered past
	// its end: not counted, and said so.
	early := slices.IndexFunc(d.Rows, func(row FleetRow) bool {
		f := &a.TL.Files[row.Client.File]
		return f.End < d.clockEnd && f.End > d.clockStart && len(row.Own()) > 0
	})
	if early < 0 {
		t.Fatal("no row with refusals whose recording ends before the clock's")
	}
	end := a.TL.Files[d.Rows[early].Client.File].End
	hit = hoverRow(early, end+(d.clockEnd-end)/2)
	if want := "its recording ends at "; hit.Row != early || !strings.Contains(hit.Text, want) || strings.Contains(hit.Text, "refused (410 Gone)") {
		t.Errorf("row %d (%s) past its recording's end says\n%s\nwant %q and no refusal", early, d.Rows[early].Client.Name, hit.Text, want)
	}
	if spanAt(d.Rows[early].Own(), end+1) {
		t.Errorf("row %d (%s) is refused past its recording's end", early, d.Rows[early].Client.Name)
	}

	// The hover in the margin before the start.
	v.ScrollY = 0
	l = d.Build(v, &fr, &buf)
	hit = d.HitTest(v, &l, s.X(d.From+(d.clockStart-d.From)/2), l.CurvesY+fleetCurvesH/2)
	if want := "The recordings begin at " + clock(d.clockStart, nil); !strings.Contains(hit.Text, want) || strings.Contains(hit.Text, "to relist") {
		t.Errorf("before the clock's start the hover says\n%s\nwant %q and no count", hit.Text, want)
	}
}
