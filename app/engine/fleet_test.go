package engine

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/words"
	"watchlens/internal/synth"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// openFleet opens the fleet recording's captures and audit logs, named by
// their paths, as the command line names the files it is given.
func openFleet(t testing.TB, params timeline.Params) (*Engine, Opened) {
	t.Helper()
	e, o, err := Open(sources(testsample.Files(t, testsample.AsGiven, testsample.FleetRecords(t)...)), Options{Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return e, o
}

// wholeFleet is the fleet view of the whole shared clock, 1280 px wide.
func wholeFleet(f Fleet) FleetState {
	return FleetState{From: f.From, To: f.To, Width: 1280, PixelRatio: 1}
}

// TestFleetAnswersTheRecording: the fleet of 44 informers through a
// rolling restart answers a row per client of the model, and the relists its TRUTH.tsv counts; a click on a row opens that
// client's file, its tooltip names it, and a range over the whole clock
// counts every relist. One capture alone has no fleet.
func TestFleetAnswersTheRecording(t *testing.T) {
	e, o := openFleet(t, timeline.DefaultParams())
	f, ok := e.Fleet()
	if !ok || !o.Fleet {
		t.Fatalf("the fleet recording has no fleet (Opened.Fleet %v)", o.Fleet)
	}
	model := e.Analysis().Fleet()
	if len(f.Rows) != len(model.Clients) {
		t.Fatalf("%d rows, the model's fleet has %d clients", len(f.Rows), len(model.Clients))
	}
	// The rows are the model's clients, each once; with audit logs, in
	// runs by the server each was on longest.
	names := map[int]string{}
	for _, c := range model.Clients {
		names[c.File] = c.Name
	}
	for i, r := range f.Rows {
		if name, ok := names[r.File]; !ok || r.Name != name {
			t.Errorf("row %d is %q (file %d), the model's client of that file %q (%v)", i, r.Name, r.File, name, ok)
		}
		delete(names, r.File)
	}
	truth := testsample.FleetTruth(t)
	relists := 0
	for _, c := range truth {
		relists += c.Relists
		if !slices.ContainsFunc(f.Rows, func(r FleetRow) bool { return strings.Contains(r.Name, c.Client) }) {
			t.Errorf("TRUTH.tsv's client %s has no row", c.Client)
		}
	}
	if relists == 0 || f.Relists != relists {
		t.Errorf("the fleet answers %d relists, TRUTH.tsv counts %d", f.Relists, relists)
	}
	if f.Restarts == 0 || f.MaxWithout < f.MaxWith || f.MinHeight <= 0 || f.From >= f.To {
		t.Errorf("the fleet answered %d restarts, peaks %d without and %d with bookmarks, least height %v, extent %d..%d",
			f.Restarts, f.MaxWithout, f.MaxWith, f.MinHeight, f.From, f.To)
	}

	st := wholeFleet(f)
	var fr canvas.Frame
	l := e.FleetFrame(st, &fr)
	if l.Rows != len(f.Rows) || l.PlotW <= 0 || len(fr.Ops) == 0 {
		t.Fatalf("the frame lays out %d rows of %d in a plot %v wide, %d ops", l.Rows, len(f.Rows), l.PlotW, len(fr.Ops))
	}
	// A picture drawn meanwhile leaves the frame shown what hit tests
	// answer for: the instant under the middle of its plot.
	x := l.PlotX + l.PlotW/2
	axis := e.FleetHit(st, x, 5).Text
	print := st
	print.Width, print.PixelRatio, print.Print = 640, 2, true
	var pic canvas.Frame
	if pl := e.FleetFrame(print, &pic); pl.PlotX+pl.PlotW >= x {
		t.Fatalf("the picture 640 px wide has its plot up to %v: the frame's middle %v proves nothing", pl.PlotX+pl.PlotW, x)
	}
	if got := e.FleetHit(st, x, 5).Text; got != axis || axis == "" {
		t.Errorf("the axis under the middle of the plot reads %q, after a picture was drawn %q", axis, got)
	}
	first, last := l.VisibleRows(st.ScrollY)
	for _, k := range []int{first, (first + last) / 2, last - 1} {
		h := e.FleetHit(st, x, l.RowY(k, st.ScrollY)+canvas.FleetRowH/2)
		if h.Row != k || h.File != f.Rows[k].File || !strings.HasPrefix(h.Text, words.Isolated(f.Rows[k].Name)+"\n") {
			t.Errorf("a click on row %d (%s, file %d) answers row %d, file %d: %q", k, f.Rows[k].Name, f.Rows[k].File, h.Row, h.File, h.Text)
		}
	}
	if h := e.FleetHit(st, x, l.CurvesY+10); h.Row != -1 || h.File != -1 || !strings.Contains(h.Text, "relist") {
		t.Errorf("a click over the curves answers %+v", h)
	}

	r := e.FleetRange(f.From, f.To)
	if r.Relists != f.Relists || r.PeakWithout != f.MaxWithout || r.PeakWith != f.MaxWith || r.Without == 0 {
		t.Errorf("the whole clock holds %+v; the fleet %d relists, peaks %d and %d", r, f.Relists, f.MaxWithout, f.MaxWith)
	}

	one, o1 := sampleEngine(t, "w4-then-resume.ts.http")
	if _, ok := one.Fleet(); ok || o1.Fleet {
		t.Error("one capture answers a fleet")
	}
	if h := one.FleetHit(wholeFleet(Fleet{From: 0, To: 1}), 10, 10); h.Row != -1 || h.File != -1 || h.Text != "" {
		t.Errorf("one capture's fleet hit answers %+v", h)
	}
}

// TestFleetFollowsTheAnalysis: the fleet's frames are the canvas's own
// for the latest analysis: asked twice, the same bytes; after the
// settings write times in another zone, the fleet answers from the new
// analysis, whose axis the tooltip writes in that zone.
func TestFleetFollowsTheAnalysis(t *testing.T) {
	e, _ := openFleet(t, timeline.DefaultParams())
	f, _ := e.Fleet()
	st := wholeFleet(f)
	st.ScrollY, st.Marker = 3*canvas.FleetRowH, (f.From+f.To)/2
	frameBytes := func(fr *canvas.Frame) string {
		spec, err := fr.Spec()
		if err != nil {
			t.Fatal(err)
		}
		floats, _ := fr.Floats(nil)
		return string(spec) + string(floats)
	}
	want := func() string {
		var fr canvas.Frame
		var scratch canvas.FleetScratch
		canvas.NewFleetData(e.Analysis()).Build(&canvas.FleetViewport{From: st.From, To: st.To, Width: st.Width, PixelRatio: st.PixelRatio,
			ScrollY: st.ScrollY, Marker: canvas.Marker(st.Marker)}, &fr, &scratch)
		return frameBytes(&fr)
	}
	var fr canvas.Frame
	l := e.FleetFrame(st, &fr)
	utc := frameBytes(&fr)
	if utc != want() {
		t.Error("the engine's fleet frame is not the canvas's for the same view")
	}
	e.FleetFrame(st, &fr)
	if frameBytes(&fr) != utc {
		t.Error("the same view drew two different fleet frames")
	}
	axis := e.FleetHit(st, l.PlotX+l.PlotW/2, 5).Text

	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	p := timeline.DefaultParams()
	p.Zone = paris
	if _, err := e.Analyze(p, nil); err != nil {
		t.Fatal(err)
	}
	e.FleetFrame(st, &fr)
	if got := frameBytes(&fr); got == utc || got != want() {
		t.Errorf("after the zone changed, the fleet frame is the old one (%v) or not the new analysis's (%v)", got == utc, got != want())
	}
	at := e.FleetHit(st, l.PlotX+l.PlotW/2, 5).Text
	if at == axis || at == "" {
		t.Errorf("the axis's tooltip reads %q in UTC and %q in Paris", axis, at)
	}
}

// TestFleetAnswersCrossAMessage: the fleet's questions and answers, on
// the fleet recording, come back from JSON as they went, and its frame
// from its binary form.
func TestFleetAnswersCrossAMessage(t *testing.T) {
	e, o := openFleet(t, timeline.DefaultParams())
	roundTrip(t, "Analyzed with a fleet", o.Analyzed)
	f, _ := e.Fleet()
	roundTrip(t, "Fleet", f)
	st := wholeFleet(f)
	st.MaxHeight, st.ScrollY, st.Marker, st.Selecting, st.SelectFrom, st.SelectTo = 600, 30, (f.From+f.To)/2, true, 300, 500
	roundTrip(t, "FleetState", st)
	var fr canvas.Frame
	l := e.FleetFrame(st, &fr)
	if len(l.RestartLabels) == 0 {
		t.Fatal("no restart labelled: the layout's round trip proves little")
	}
	roundTrip(t, "FleetLayout", l)
	roundTrip(t, "FleetHit", e.FleetHit(st, l.PlotX+l.PlotW/2, l.RowsY+4))
	roundTrip(t, "FleetRange", e.FleetRange(f.From, (f.From+f.To)/2))

	spec, err := fr.Spec()
	if err != nil {
		t.Fatal(err)
	}
	floats, n := fr.Floats(nil)
	back, got := decodeFrame(t, spec, floats)
	if n == 0 || len(got) != n || !reflect.DeepEqual(back.Ops, fr.Ops) || !reflect.DeepEqual(back.Texts, fr.Texts) {
		t.Fatalf("the fleet frame does not come back: %d floats of %d, %d ops of %d", len(got), n, len(back.Ops), len(fr.Ops))
	}
}

// BenchmarkFleetFrame10k asks the engine for frames of 10 000 virtual
// clients (a broad hour of 1 M ConfigMap events split by label, as
// canvas's BenchmarkFleetFrame10k builds), scrolled down a little
// further each frame as a pan asks one per pointer move, and has the
// canvas build the same frame from a FleetData of its own, alternately:
// ns/engine and ns/canvas are each's time a frame, and engine/canvas
// what the question adds.
func BenchmarkFleetFrame10k(b *testing.B) {
	const shards, n = 10_000, 1_000_000
	buf := synth.ShardedHour(shards, n)
	split, _ := timeline.ParseSplit("label=shard")
	e, _, err := Open([]Source{{Name: "broad", Size: int64(buf.Len()), Data: buf}}, Options{Split: &split, Params: timeline.DefaultParams()})
	if err != nil {
		b.Fatal(err)
	}
	f, ok := e.Fleet()
	if !ok || len(f.Rows) != shards+1 {
		b.Fatalf("the split gives %d rows", len(f.Rows))
	}
	st := FleetState{From: f.From, To: f.To, Width: 1280, MaxHeight: 800, PixelRatio: 1}
	var fr canvas.Frame
	l := e.FleetFrame(st, &fr)
	d := canvas.NewFleetData(e.Analysis())
	var scratch canvas.FleetScratch
	v := &canvas.FleetViewport{From: f.From, To: f.To, Width: 1280, MaxHeight: 800, PixelRatio: 1}
	var asked, built time.Duration
	b.ResetTimer()
	for i := range b.N {
		st.ScrollY = l.ClampScroll(float64(i%shards) * canvas.FleetRowH)
		v.ScrollY = st.ScrollY
		t := time.Now()
		e.FleetFrame(st, &fr)
		asked += time.Since(t)
		t = time.Now()
		d.Build(v, &fr, &scratch)
		built += time.Since(t)
	}
	b.ReportMetric(float64(asked.Nanoseconds())/float64(b.N), "ns/engine")
	b.ReportMetric(float64(built.Nanoseconds())/float64(b.N), "ns/canvas")
	b.ReportMetric(float64(asked)/float64(built), "engine/canvas")
}

// TestFleetWorstIsTheVerdicts: the page's worst moment is the verdict's
// own sentence. From samples-outage's audit logs alone, where no model
// refuses a reconnect and every client's is at risk, the fleet the page
// reads says the summary's words, with every client at risk, where
// counting the refused alone said "0 clients sent to relist".
func TestFleetWorstIsTheVerdicts(t *testing.T) {
	e := openOutageAudits(t)
	f, ok := e.Fleet()
	if !ok {
		t.Fatal("no fleet")
	}
	an := e.Analysis()
	if f.WorstWords == "" || f.WorstWords != an.WorstWords() {
		t.Fatalf("the page's worst moment %q, the verdict's %q", f.WorstWords, an.WorstWords())
	}
	told := false
	for _, l := range an.Summary(nil) {
		told = told || l.Topic == "fleet" && strings.Contains(l.Text, f.WorstWords)
	}
	if all := fmt.Sprintf(" %d clients might have had to fetch their whole lists again (relist) without bookmarks", len(f.Rows)); !told || !strings.Contains(f.WorstWords, all) {
		t.Errorf("the page's worst moment %q: in the summary %v, want it to say%s", f.WorstWords, told, all)
	}
}

// openOutageAudits opens samples-outage's audit logs alone.
func openOutageAudits(t *testing.T) *Engine {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-outage"), "audit-*.log"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("samples-outage's audit logs: %v %v", paths, err)
	}
	e, _, err := Open(sources(testsample.Files(t, testsample.BaseName, paths...)), Options{Params: timeline.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestFleetRowsMayMix: from samples-outage's audit logs alone, the 20
// informers with client-go's default User-Agent come in pairs of one
// selector that the log cannot always tell apart; each says so
// (timeline.File.MayMix), and its fleet row is marked, and only those.
func TestFleetRowsMayMix(t *testing.T) {
	e := openOutageAudits(t)
	f, ok := e.Fleet()
	if !ok {
		t.Fatal("no fleet")
	}
	tl := e.Analysis().TL
	marked := 0
	for _, r := range f.Rows {
		if r.MayMix != tl.Files[r.File].MayMix() {
			t.Errorf("%s: marked %v, its file says it may mix %v", r.Name, r.MayMix, !r.MayMix)
		}
		if r.MayMix {
			marked++
			if !strings.Contains(r.Name, "that the log cannot tell apart") {
				t.Errorf("%s: marked, and not one of informers the log names as alike", r.Name)
			}
		}
	}
	if marked != 20 {
		t.Errorf("%d rows marked, want samples-outage's 20 informers the audit log alone is unsure of", marked)
	}
	// The mark is drawn with the label, and the row's tooltip says why.
	var fr canvas.Frame
	for i, r := range e.fleetData().Rows {
		st := wholeFleet(f)
		st.ScrollY = float64(i) * canvas.FleetRowH
		l := e.FleetFrame(st, &fr)
		h := e.FleetHit(st, 20, l.RowY(i, st.ScrollY)+canvas.FleetRowH/2)
		says := strings.Contains(h.Text, "\n"+canvas.MayMixMark+"the audit log alone cannot tell this client from another informer")
		if h.Row != i || strings.HasPrefix(r.Label, canvas.MayMixMark) != r.MayMix || says != r.MayMix {
			t.Errorf("row %d %s (hit as row %d): label %q, may mix %v, tooltip %q", i, r.Client.Name, h.Row, r.Label, r.MayMix, h.Text)
		}
	}
}
