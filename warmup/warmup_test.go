package warmup

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"watchlens/app/engine"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// openIncident opens every file of FS together, each named by its name,
// as the engine's worker opens the warm-up's incident.
func openIncident(t *testing.T) (*engine.Engine, engine.Opened) {
	t.Helper()
	names, err := fs.Glob(FS, "*")
	if err != nil {
		t.Fatal(err)
	}
	sources := make([]engine.Source, len(names))
	for i, name := range names {
		b, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sources[i] = engine.Source{Name: name, Size: int64(len(b)), Data: bytes.NewReader(b)}
	}
	e, o, err := engine.Open(sources, engine.Options{Params: timeline.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	return e, o
}

// captures are the names of FS's client captures.
func captures(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(FS, "*.ts.http")
	if err != nil || len(names) == 0 {
		t.Fatalf("no capture in the incident: %v", err)
	}
	return names
}

// TestIncidentRunsSeveralServers: opened as the warm-up opens it, the
// incident is what only a load of several servers is: a fleet of a row
// per capture, each row's requests joined by the audit logs to the
// server that answered them, the three servers among them, their
// restarts found, relists seen, the Prometheus exports read, and
// nothing it holds read short or left out.
func TestIncidentRunsSeveralServers(t *testing.T) {
	e, o := openIncident(t)
	f, ok := e.Fleet()
	if !ok || !o.Fleet {
		t.Fatalf("the incident has no fleet (Opened.Fleet %v)", o.Fleet)
	}
	if want := len(captures(t)); len(f.Rows) != want {
		t.Errorf("the fleet has %d rows, the incident %d captures", len(f.Rows), want)
	}
	servers := map[string]bool{}
	for _, r := range f.Rows {
		if r.Servers == "" {
			t.Errorf("no audit log says which server answered %s", r.Name)
		}
		for s := range strings.SplitSeq(r.Servers, " → ") {
			servers[strings.SplitN(s, "#", 2)[0]] = true
		}
	}
	if !servers["a"] || !servers["b"] || !servers["c"] || len(servers) != 3 {
		t.Errorf("the rows were answered by the servers %v, want a, b and c", servers)
	}
	// Those its audit logs show, and a probable one the excerpt's logs
	// leave out.
	if len(o.Restarts) != 3 || f.Restarts+f.ProbableRestarts != 3 {
		t.Errorf("%d restarts found (the fleet says %d and %d probable), want the three servers'", len(o.Restarts), f.Restarts, f.ProbableRestarts)
	}
	if f.Relists == 0 {
		t.Error("no relist seen")
	}
	exports, err := fs.Glob(FS, "*.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Exports, exports) {
		t.Errorf("the exports read are %v, want %v", o.Exports, exports)
	}
	if len(o.LogErrs) != 0 || len(o.LeftOut) != 0 {
		t.Errorf("audit logs read short %v, files left out %v", o.LogErrs, o.LeftOut)
	}
	for _, file := range o.Files {
		if file.ReadErr != "" {
			t.Errorf("%s read short: %s", file.Name, file.ReadErr)
		}
	}
}

// TestIncidentIsTheLabs: every file of the incident is samples-lab's
// file of the same name, or lines of it, whole and in its order, or,
// for a Prometheus export (under prometheus/query_range), its envelope
// with some of its series, each as Prometheus wrote it and in its order;
// and the fleet's relists are the ones the recording's TRUTH.tsv counts
// for the incident's clients.
func TestIncidentIsTheLabs(t *testing.T) {
	lab := testsample.Recording(t, "samples-lab")
	names, err := fs.Glob(FS, "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(name, ".json.gz"):
			if !seriesOf(t, gunzip(t, b), gunzip(t, testsample.Read(t, filepath.Join(lab, "prometheus", "query_range", name)))) {
				t.Errorf("%s is not series of the lab's, in its envelope", name)
			}
		case strings.HasSuffix(name, ".log"):
			if !linesOf(t, b, testsample.Read(t, filepath.Join(lab, name))) {
				t.Errorf("%s is not lines of the lab's, in its order", name)
			}
		default:
			if !bytes.Equal(b, testsample.Read(t, filepath.Join(lab, name))) {
				t.Errorf("%s differs from the lab's", name)
			}
		}
	}
	relists := relistsOf(t, filepath.Join(lab, "TRUTH.tsv"), captures(t))
	e, _ := openIncident(t)
	if f, _ := e.Fleet(); f.Relists != relists {
		t.Errorf("the fleet saw %d relists, the lab's TRUTH.tsv counts %d for the incident's clients", f.Relists, relists)
	}
}

// linesOf says whether part's lines are lines of whole, each whole and
// in whole's order.
func linesOf(t *testing.T, part, whole []byte) bool {
	t.Helper()
	lines := bytes.SplitAfter(whole, []byte("\n"))
	at := 0
	for line := range bytes.SplitAfterSeq(part, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		for at < len(lines) && !bytes.Equal(lines[at], line) {
			at++
		}
		if at == len(lines) {
			return false
		}
		at++
	}
	return len(part) > 0
}

// gunzip is b decompressed.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// seriesOf says whether part, a Prometheus query_range answer, is whole's
// with some of its series left out: the same bytes around its result,
// and each of its series one of whole's, byte for byte, in whole's order.
func seriesOf(t *testing.T, part, whole []byte) bool {
	t.Helper()
	type answer struct {
		Status string
		Data   struct {
			ResultType string
			Result     []json.RawMessage
		}
	}
	var p, w answer
	if err := json.Unmarshal(part, &p); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(whole, &w); err != nil {
		t.Fatal(err)
	}
	if p.Status != w.Status || p.Data.ResultType != w.Data.ResultType || len(p.Data.Result) == 0 {
		return false
	}
	at := 0
	for _, series := range p.Data.Result {
		for at < len(w.Data.Result) && !bytes.Equal(w.Data.Result[at], series) {
			at++
		}
		if at == len(w.Data.Result) {
			return false
		}
		at++
	}
	// around is an answer with its series cut out.
	around := func(b []byte, result []json.RawMessage) []byte {
		series := make([][]byte, len(result))
		for i, r := range result {
			series[i] = r
		}
		return bytes.Replace(b, bytes.Join(series, []byte(",")), nil, 1)
	}
	return bytes.Equal(around(part, p.Data.Result), around(whole, w.Data.Result))
}

// relistsOf sums the relists column of truth (a TRUTH.tsv) over the
// clients whose captures are named.
func relistsOf(t *testing.T, truth string, names []string) int {
	t.Helper()
	f, err := os.Open(truth)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	col := slices.Index(strings.Split(sc.Text(), "\t"), "relists")
	if col < 0 {
		t.Fatalf("%s has no relists column", truth)
	}
	sum, found := 0, 0
	for sc.Scan() {
		row := strings.Split(sc.Text(), "\t")
		if !slices.Contains(names, row[0]+".ts.http") {
			continue
		}
		n, err := strconv.Atoi(row[col])
		if err != nil {
			t.Fatalf("%s: %s's relists: %v", truth, row[0], err)
		}
		sum += n
		found++
	}
	if found != len(names) {
		t.Fatalf("%s has %d of the incident's %d clients", truth, found, len(names))
	}
	return sum
}
