package engine

import (
	"bytes"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// sources are files as the engine's sources. The tests of the packages
// that use the engine open files through enginetest, which this package's
// tests cannot import: it imports the engine.
func sources(files []testsample.File) []Source {
	out := make([]Source, len(files))
	for i, f := range files {
		out[i] = Source{Name: f.Name, Size: int64(len(f.Data)), Data: bytes.NewReader(f.Data)}
	}
	return out
}

// openFiles opens files by their paths, each named by its base name.
func openFiles(t *testing.T, opts Options, paths ...string) (*Engine, Opened) {
	t.Helper()
	opts.Params = timeline.DefaultParams()
	e, o, err := Open(sources(testsample.Files(t, testsample.BaseName, paths...)), opts)
	if err != nil {
		t.Fatal(err)
	}
	return e, o
}

// TestFilesCountWhatTheManifestLists: each sample's file answers the
// events by type its manifest counted from the bytes, its size and its
// sessions' rows, whose events and bookmarks add up to its events but
// the ERRORs; the answer crosses a
// message unchanged.
func TestFilesCountWhatTheManifestLists(t *testing.T) {
	man := testsample.Manifest(t, testsample.Path(t, testsample.SamplesDir))
	names := []string{"w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http", "w2-broad-pods-bookmarks.http.gz"}
	e, o := sampleEngine(t, names...)
	r := e.Files("", 50)
	if r.Total != len(names) || r.Matched != len(names) || len(r.Shown) != len(names) {
		t.Fatalf("%d files, %d matched, %d shown; want %d", r.Total, r.Matched, len(r.Shown), len(names))
	}
	for i, f := range r.Shown {
		want := man[names[i]]
		got := map[string]int{}
		for _, c := range f.ByType {
			got[c.Name] = c.N
		}
		if f.Index != i || f.Name != names[i] || f.Size != o.Files[i].Size || f.Size != int64(len(testsample.SampleBytes(t, names[i]))) {
			t.Errorf("file %d answered as %d %q of %d bytes", i, f.Index, f.Name, f.Size)
		}
		total, sessionEvents := 0, 0
		for _, n := range want {
			total += n
		}
		for _, s := range f.Sessions {
			sessionEvents += s.Events + s.Bookmarks
		}
		if !maps.Equal(got, want) || f.Events != total || sessionEvents != total-want["ERROR"] || len(f.ByKind) == 0 {
			t.Errorf("%s: %d events by type %v, kinds %v, the sessions' %d; the manifest's %v", f.Name, f.Events, got, f.ByKind, sessionEvents, want)
		}
		if len(f.Sessions) == 0 || f.Sessions[0].Gap != -1 || f.Sessions[0].Request == "" || f.Sessions[0].Ended == "" {
			t.Errorf("%s: sessions %+v", f.Name, f.Sessions)
		}
	}
	// w4 is two requests: the watch that ends, and its resume that a 410
	// ends.
	if s := r.Shown[0].Sessions; len(s) != 2 || !strings.HasPrefix(s[1].Ended, "ERROR 410") || s[1].Gap <= 0 {
		t.Errorf("w4's sessions %+v, want its resume ended by a 410 after a gap", s)
	}
	roundTrip(t, "FilesReport", r)
}

// TestFilesFindAFileByName: the fleet recording's broad capture split by
// its shard label, 21 files; the tab lists the first few and finds one by
// a part of its name, whatever its case.
func TestFilesFindAFileByName(t *testing.T) {
	split, err := timeline.ParseSplit("label=shard")
	if err != nil {
		t.Fatal(err)
	}
	e, o := openFiles(t, Options{Split: &split}, testsample.Fleet(t, "broad-a.ts.http"))
	if len(o.Files) != 21 {
		t.Fatalf("%d files, want the capture and its 20 shards", len(o.Files))
	}
	r := e.Files("", 5)
	if len(r.Shown) != 5 || r.Matched != 21 || r.Total != 21 || r.Shown[0].Index != 0 || r.Shown[4].Index != 4 {
		t.Errorf("with nothing to find: %d shown of %d, want the first 5 of 21", len(r.Shown), r.Matched)
	}
	last := o.Files[20].Name
	_, sel, _ := strings.Cut(last, "[")
	r = e.Files(strings.ToUpper(strings.TrimSuffix(sel, "]")), 5)
	if len(r.Shown) != 1 || r.Matched != 1 || r.Shown[0].Index != 20 || r.Shown[0].Name != last {
		t.Errorf("finding %q: %d of %d, want file 20 alone", sel, len(r.Shown), r.Matched)
	}
	if r = e.Files("no such client", 5); len(r.Shown) != 0 || r.Matched != 0 || r.Total != 21 {
		t.Errorf("finding nothing: %d of %d", len(r.Shown), r.Matched)
	}
}

// TestFilesListRecordsFirst: of an incident's files selected together,
// the Files tab lists the records before the README and the notes that
// sort first by name, and still finds those by name.
func TestFilesListRecordsFirst(t *testing.T) {
	lab := testsample.Recording(t, "samples-lab")
	e, _ := openFiles(t, Options{}, filepath.Join(lab, "README.md"), filepath.Join(lab, "TRUTH.tsv"), filepath.Join(lab, "c000-bookmarks.ts.http"))
	r := e.Files("", 5)
	var names []string
	for _, f := range r.Shown {
		names = append(names, f.Name)
	}
	if want := []string{"c000-bookmarks.ts.http", "README.md", "TRUTH.tsv"}; !slices.Equal(names, want) || r.Matched != 3 {
		t.Errorf("the files listed: %q (%d matched), want %q", names, r.Matched, want)
	}
	if r = e.Files("truth", 5); len(r.Shown) != 1 || r.Shown[0].Name != "TRUTH.tsv" {
		t.Errorf("finding truth: %+v", r.Shown)
	}
}

// TestFilesSessionsNameTheirServer: the fleet recording's captures with
// its audit logs; the sessions table names, for every session, the
// server and process whose audit log holds its request.
func TestFilesSessionsNameTheirServer(t *testing.T) {
	dir := testsample.Recording(t, "samples-fleet")
	var paths []string
	for _, name := range []string{"c00-bookmarks.ts.http", "audit-a-1.log", "audit-a-2.log", "audit-b-1.log", "audit-b-2.log"} {
		paths = append(paths, filepath.Join(dir, name))
	}
	e, _ := openFiles(t, Options{}, paths...)
	tl := e.Timeline()
	r := e.Files("c00-bookmarks.ts.http", 1)
	if len(r.Shown) != 1 || !r.Servers || len(r.Shown[0].Sessions) != len(tl.Files[0].Sessions) {
		t.Fatalf("c00 answered %d files, servers %v", len(r.Shown), r.Servers)
	}
	named := 0
	for k, g := range tl.Files[0].Sessions {
		got := r.Shown[0].Sessions[k].Server
		srv, inc, ok := tl.ServerOf(g)
		if !ok {
			if got != "" {
				t.Errorf("session %d has no server, yet the table says %q", g, got)
			}
			continue
		}
		want := tl.Servers[srv].Name + ", process " + strconv.Itoa(inc+1) + " of " + strconv.Itoa(len(tl.Servers[srv].Incarnations))
		if got != want {
			t.Errorf("session %d: %q, want %q", g, got, want)
		}
		named++
	}
	if named == 0 {
		t.Errorf("no session of c00 names its server: the test tests nothing")
	}
}

// TestFilesSayWhatIsWrong: a PNG says what it looks like, a gzip cut in
// half says its cut decompression explains its other problems, and a
// Prometheus export is named among the exports and makes no file.
func TestFilesSayWhatIsWrong(t *testing.T) {
	gz := testsample.SampleBytes(t, "w2-broad-pods-bookmarks.http.gz")
	png := testsample.Read(t, testsample.Path(t, "web", "icon-192.png"))
	export := "apiserver_watch_cache_resource_version.json.gz"
	exportBytes := testsample.Read(t, filepath.Join(testsample.Recording(t, "samples-lab"), "prometheus", "query_range", export))
	e, o, err := Open([]Source{
		{Name: "cut.http.gz", Size: int64(len(gz) / 2), Data: bytes.NewReader(gz[:len(gz)/2])},
		{Name: "icon.png", Size: int64(len(png)), Data: bytes.NewReader(png)},
		{Name: export, Size: int64(len(exportBytes)), Data: bytes.NewReader(exportBytes)},
	}, Options{Params: timeline.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Files) != 2 || !slices.Equal(o.Exports, []string{export}) {
		t.Fatalf("files %+v, exports %v; want the two files, and the export", o.Files, o.Exports)
	}
	cut, img := o.Files[0], o.Files[1]
	if cut.Problems == 0 || !strings.HasPrefix(cut.RootCause, "above all at ") || cut.LooksLike != "" {
		t.Errorf("the cut gzip: %+v", cut)
	}
	if img.LooksLike == "" || !strings.Contains(strings.ToLower(img.LooksLike), "png") {
		t.Errorf("the PNG: %+v", img)
	}
	r := e.Files("", 50)
	if len(r.Shown) != 2 || r.Shown[0].Problems != cut.Problems || len(r.Shown[0].Diagnostics) != min(cut.Problems, maxDiagnostics) ||
		r.Shown[1].LooksLike != img.LooksLike || r.Shown[1].Events != 0 {
		t.Errorf("the files answered %+v", r.Shown)
	}
	if len(r.Exports.Files) != 1 || r.Exports.Files[0].Name != export || r.Exports.Series == 0 || r.Exports.Files[0].Points == 0 {
		t.Errorf("the exports answered %+v", r.Exports)
	}
	roundTrip(t, "Opened", o)
	roundTrip(t, "FilesReport", r)
}

// TestKlogSessionsAreNotRequestLines: client-go's own log names no URL,
// so a client read from it shows no request line of a path, selector
// and allowWatchBookmarks it never logged (the lab's c100-nobookmarks
// watched a label selector without bookmarks), but what each session
// was, rebuilt from the log.
func TestKlogSessionsAreNotRequestLines(t *testing.T) {
	e, _ := openFiles(t, Options{}, filepath.Join(testsample.Recording(t, "samples-lab"), "fleet-klog.log"))
	r := e.Files("c100-nobookmarks", 1)
	if len(r.Shown) != 1 || len(r.Shown[0].Sessions) < 2 {
		t.Fatalf("c100-nobookmarks: %d files shown", len(r.Shown))
	}
	watches := 0
	for _, s := range r.Shown[0].Sessions {
		if strings.Contains(s.Request, "GET ") || strings.Contains(s.Request, "allowWatchBookmarks") || !strings.HasSuffix(s.Request, ", rebuilt from the client's log (it names no URL)") {
			t.Errorf("session %d: %q", s.Index, s.Request)
		}
		if strings.HasPrefix(s.Request, "a watch from RV ") {
			watches++
		}
	}
	if watches == 0 {
		t.Errorf("no session of c100-nobookmarks is a watch from an RV")
	}
}
