package engine

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"watchlens/app/canvas"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// labSources are the lab recording's files, every one under its folder
// in path order, as a dropped folder hands them over.
func labSources(t *testing.T) ([]Source, []string) {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	found := sources(testsample.Files(t, testsample.Under(dir), paths...))
	names := make([]string, len(found))
	for i := range found {
		found[i].Found = true
		names[i] = found[i].Name
	}
	return found, names
}

// TestOpenTheLabFolder: the engine's answer to opening the lab folder is
// the model's own: the verdict is what the timeline's analysis says, the
// notes are left out and no record is, and the extent and the filters'
// values are the timeline's.
func TestOpenTheLabFolder(t *testing.T) {
	sources, names := labSources(t)
	e, o, err := Open(sources, Options{Params: timeline.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	tl := e.Timeline()
	want := tl.Analyze(timeline.DefaultParams()).Summary(nil)
	if !slices.Equal(o.Summary, want) || !o.Judged {
		t.Errorf("the verdict %v (judged %v), the model's %v", o.Summary, o.Judged, want)
	}
	for _, note := range []string{"README.md", "TRUTH.tsv"} {
		if !slices.Contains(o.LeftOut, note) {
			t.Errorf("%s is not left out: %v", note, o.LeftOut)
		}
	}
	for _, name := range o.LeftOut {
		if strings.HasSuffix(name, ".ts.http") || strings.HasSuffix(name, ".log") {
			t.Errorf("a record is left out: %s", name)
		}
	}
	if len(o.Files) != len(tl.Files) || len(o.Files)+len(o.LeftOut) > len(names)+len(tl.Files) {
		t.Errorf("%d files answered, %d in the timeline, %d left out of %d", len(o.Files), len(tl.Files), len(o.LeftOut), len(names))
	}
	audit := 0
	for i, f := range o.Files {
		if f.Name != tl.Files[i].Name {
			t.Errorf("file %d answered as %q, the timeline's %q", i, f.Name, tl.Files[i].Name)
		}
		if f.Source < 0 {
			audit++
			continue
		}
		if src := sources[f.Source]; f.Size != src.Size || !strings.HasPrefix(f.Name, src.Name) {
			t.Errorf("file %d (%s) answered as read from %s, %d bytes", i, f.Name, src.Name, f.Size)
		}
	}
	if audit == 0 {
		t.Error("no file is an audit log's client: the lab's audit logs were not read")
	}
	if lo, hi := o.Extent(false); lo > tl.Start() || hi < tl.End() || hi <= lo || o.Events != tl.Len() || len(o.Kinds) == 0 {
		t.Errorf("extent [%d, %d), %d events, kinds %v; the timeline's [%d, %d), %d events", lo, hi, o.Events, o.Kinds, tl.Start(), tl.End(), tl.Len())
	}
}

// sampleEngine opens built-in samples as the page opens them.
func sampleEngine(t *testing.T, names ...string) (*Engine, Opened) {
	t.Helper()
	paths := make([]string, len(names))
	for i, name := range names {
		paths[i] = testsample.Sample(t, name)
	}
	return openFiles(t, Options{}, paths...)
}

// whole is the view of the whole capture, 1280 px wide.
func whole(o Opened) ViewState {
	lo, hi := o.Extent(false)
	return ViewState{From: lo, To: hi, Width: 1280, PixelRatio: 1, Selected: -1}
}

// TestSummaryMatchesTheManifest: what the view's summary says of the
// whole capture is what the samples' manifest lists, and its zones,
// whole and zoomed, are the model's own range statistics; a filter that
// hides every object shows none.
func TestSummaryMatchesTheManifest(t *testing.T) {
	man := testsample.Manifest(t, testsample.Path(t, testsample.SamplesDir))
	zonesSeen := 0
	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http"} {
		e, o := sampleEngine(t, name)
		st := whole(o)
		s := e.Summary(st)
		if s.Lanes != e.Timeline().Lanes.Len() || s.Bookmarks != man[name]["BOOKMARK"] || s.Errors != man[name]["ERROR"] || s.Selected != "none" {
			t.Errorf("%s: summary %+v; manifest %v", name, s, man[name])
		}
		for _, r := range [][2]int64{{st.From, st.To}, {st.From, st.From + (st.To-st.From)/2}} {
			st.From, st.To = r[0], r[1]
			s = e.Summary(st)
			var want [2]int
			for _, z := range e.Analysis().RangeStats(r[0], r[1]).Zones {
				if z.Outcome == timeline.Refused && int(z.Kind) < len(want) {
					want[z.Kind] += z.Count
				}
			}
			if s.Zones[0].Count != want[0] || s.Zones[1].Count != want[1] {
				t.Errorf("%s: summary's zones %+v, the model's %v", name, s.Zones, want)
			}
			zonesSeen += want[0] + want[1]
		}
		st.Filter = timeline.Filter{Types: 1 << parser.Modified, Text: "no such object"}
		if s = e.Summary(st); s.Lanes != 0 || s.Rows != 0 || s.Bookmarks != 0 {
			t.Errorf("%s: filtered summary %+v", name, s)
		}
	}
	if zonesSeen == 0 {
		t.Error("no sample has a zone: the zones' check proves nothing")
	}
}

// TestHitSelectsTheEventStepped: stepping from no selection reaches the
// capture's first event shown, and a hit test on its mark, in its lane's
// row of the frame drawn, selects that event.
func TestHitSelectsTheEventStepped(t *testing.T) {
	e, o := sampleEngine(t, "w3-then-resume.ts.http")
	st := whole(o)
	var fr canvas.Frame
	d := e.Frame(st, &fr)
	step := e.Step(st, true)
	if step.Event < 0 {
		t.Fatal("no event to step to")
	}
	pt := e.Timeline().Point(step.Event)
	row := slices.IndexFunc(e.rows.rows, func(r canvas.Row) bool { return r.Lane == int(pt.Lane) })
	if row < 0 {
		t.Fatalf("event %d's lane %d has no row", step.Event, pt.Lane)
	}
	s := canvas.Scale{From: st.From, To: st.To, X0: d.Layout.PlotX, Width: d.Layout.PlotW}
	h := e.Hit(st, s.X(pt.T), d.Layout.LanesY+(float64(row)+0.5)*canvas.RowHeight)
	if h.Event != step.Event || h.Text == "" {
		t.Errorf("the hit on event %d's mark answers %+v", step.Event, h)
	}
	if back := e.Step(ViewState{Filter: st.Filter, From: st.From, To: st.To, Selected: step.Event}, false); back.Event != -1 {
		t.Errorf("a step back from the first event reaches %d", back.Event)
	}
}

// TestAnalysisSupersededByTheNext: an analysis asked for while another
// runs supersedes it: the first answers ErrCancelled, and the model keeps
// the second's answer.
func TestAnalysisSupersededByTheNext(t *testing.T) {
	e, o := sampleEngine(t, "w3-then-resume.ts.http")
	strict := timeline.DefaultParams()
	strict.CacheWindow /= 10
	var second Analyzed
	asked := false
	_, err := e.Analyze(timeline.DefaultParams(), func() {
		if !asked {
			asked = true
			var err error
			if second, err = e.Analyze(strict, nil); err != nil {
				t.Errorf("the later analysis: %v", err)
			}
		}
	})
	if !errors.Is(err, ErrCancelled) {
		t.Fatalf("the earlier analysis answered %v, not that it was superseded", err)
	}
	if e.Opened().Generation != second.Generation || second.Generation != o.Generation+1 {
		t.Errorf("generation %d kept, the later analysis's %d, the load's %d", e.Opened().Generation, second.Generation, o.Generation)
	}
	if e.Analysis().Params.CacheWindow != strict.CacheWindow {
		t.Errorf("the model kept params %+v, not the later analysis's", e.Analysis().Params)
	}
}

// TestOpenCancelled: a load the host gives up on answers ErrCancelled.
func TestOpenCancelled(t *testing.T) {
	b := testsample.SampleBytes(t, "w1-broad-configmaps-bookmarks.ts.http")
	_, _, err := Open([]Source{{Name: "w1", Size: int64(len(b)), Data: bytes.NewReader(b)}},
		Options{Params: timeline.DefaultParams(), Cancelled: func() bool { return true }})
	if !errors.Is(err, ErrCancelled) {
		t.Errorf("a cancelled load answered %v", err)
	}
}
