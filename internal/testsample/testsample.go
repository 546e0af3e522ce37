// Package testsample finds and reads the repository's real captures for
// the tests of every package: the samples with their MANIFEST.tsv, and the
// fleet recording with its TRUTH.tsv and timeline.txt. It imports no
// watchlens package, so the parser's own tests can use it.
package testsample

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The folders of real captures, relative to the module root.
const (
	// SamplesDir holds the samples the app offers, with MANIFEST.tsv.
	SamplesDir = "samples"
	// FleetDir holds 44 client-go informers through a rolling restart of
	// two API servers, with TRUTH.tsv and timeline.txt.
	FleetDir = "testdata/fleet"
)

// FindRoot returns the module root: the nearest folder at or above the
// working directory (a test's package folder) that holds go.mod.
func FindRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod at or above the working directory")
		}
		dir = up
	}
}

// Root is FindRoot for a test, which it fails when there is no root.
func Root(t testing.TB) string {
	t.Helper()
	root, err := FindRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// Path returns the path of a file or folder given relative to the module
// root, in slashes or as parts.
func Path(t testing.TB, rel ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Root(t)}, rel...)...)
}

// Sample returns the path of a sample: a file of SamplesDir.
func Sample(t testing.TB, name string) string {
	t.Helper()
	return Path(t, SamplesDir, name)
}

// Fleet returns the path of a file of the fleet recording.
func Fleet(t testing.TB, name string) string {
	t.Helper()
	return Path(t, FleetDir, name)
}

// FleetRecords returns the paths of the fleet recording's captures and
// audit logs, in name order: the files that hold its watches, without its
// notes. Fewer than ten fail the test, which would check next to nothing.
func FleetRecords(t testing.TB) []string {
	t.Helper()
	all, err := filepath.Glob(Fleet(t, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range all {
		if strings.HasSuffix(p, ".ts.http") || strings.HasSuffix(p, ".log") {
			paths = append(paths, p)
		}
	}
	if len(paths) < 10 {
		t.Fatalf("the fleet recording has %d captures and logs: %v", len(paths), all)
	}
	return paths
}

// Read returns a file's bytes as stored.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A Naming names a file a test opens by its path, as one of watchlens's
// hosts names the files it is given: the names reach the answers (files
// panel, reports), so a test names them as the host it stands for.
type Naming func(path string) string

// BaseName names a file by its base name, as the page names a file
// dropped or picked on it.
func BaseName(path string) string { return filepath.Base(path) }

// AsGiven names a file by its path as given, as the command line names
// its arguments.
func AsGiven(path string) string { return path }

// Under names a file by its path below dir, as the page names the files
// of a dropped folder.
func Under(dir string) Naming {
	return func(path string) string {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return path
		}
		return rel
	}
}

// File is a file a test opens: its name and its bytes as stored.
type File struct {
	Name string
	Data []byte
}

// Files reads the files at paths, in order, each named by name.
func Files(t testing.TB, name Naming, paths ...string) []File {
	t.Helper()
	files := make([]File, len(paths))
	for i, p := range paths {
		files[i] = File{Name: name(p), Data: Read(t, p)}
	}
	return files
}

// SampleBytes returns a sample's bytes as stored.
func SampleBytes(t testing.TB, name string) []byte {
	t.Helper()
	return Read(t, Sample(t, name))
}

// Plain returns a file's bytes, decompressed when it is a gzip file: the
// bytes a parser's offsets count.
func Plain(t testing.TB, path string) []byte {
	t.Helper()
	b := Read(t, path)
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return plain
}

// Manifest reads dir's MANIFEST.tsv: by each capture's name, its
// expected events per type ("ADDED", "MODIFIED", ...). A missing or
// empty manifest fails the test: every test of the samples would pass
// over nothing.
func Manifest(t testing.TB, dir string) map[string]map[string]int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatalf("reading the samples' manifest: %v", err)
	}
	out := map[string]map[string]int{}
	for i, ln := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		cols := strings.Split(ln, "\t")
		if len(cols) < 3 {
			t.Fatalf("%s: manifest line %d has %d columns", dir, i+2, len(cols))
		}
		c := map[string]int{}
		if err := json.Unmarshal([]byte(cols[2]), &c); err != nil {
			t.Fatalf("%s: manifest line %d: %v", dir, i+2, err)
		}
		out[cols[0]] = c
	}
	if len(out) == 0 {
		t.Fatalf("%s/MANIFEST.tsv lists no sample", dir)
	}
	return out
}

// FleetClient is one client's line of the fleet's TRUTH.tsv: what its
// recording holds, counted from the traffic when it was made.
type FleetClient struct {
	// Client names the client's capture: Client+".ts.http".
	Client string
	// Mode is "bookmarks" or "nobookmarks".
	Mode                               string
	Lists, Watches, Errors410, Relists int
	RelistTimes, Error410Times         []string // RFC 3339, in order
}

// FleetTruth reads the fleet's TRUTH.tsv, one client a line.
func FleetTruth(t testing.TB) []FleetClient {
	t.Helper()
	b := Read(t, Fleet(t, "TRUTH.tsv"))
	var out []FleetClient
	for _, ln := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		c := strings.Split(ln, "\t")
		if len(c) != 8 {
			t.Fatalf("TRUTH.tsv line %q has %d columns, want 8", ln, len(c))
		}
		n := func(i int) int {
			v, err := strconv.Atoi(c[i])
			if err != nil {
				t.Fatalf("TRUTH.tsv line %q: %v", ln, err)
			}
			return v
		}
		times := func(s string) []string {
			if s == "-" {
				return nil
			}
			return strings.Split(s, ",")
		}
		out = append(out, FleetClient{c[0], c[1], n(2), n(3), n(4), n(5), times(c[6]), times(c[7])})
	}
	return out
}

// Recordings are the recordings shared beside the checkout.
var Recordings = []string{"samples-real", "samples-public", "samples-fleet", "samples-lab", "samples-watchlist", "samples-outage"}

// Recording returns the folder of one of the recordings shared beside the
// checkout (../shared/NAME: samples-lab, samples-watchlist,
// samples-outage, ...). Without it a test skips, saying where it looked;
// under CI (CI set), which always has it beside the clone, it fails.
func Recording(t testing.TB, name string) string {
	t.Helper()
	dir, ok := RecordingIfPresent(t, name)
	if !ok {
		t.SkipNow()
	}
	return dir
}

// RecordingIfPresent is Recording for a test that goes on without the
// recording: it logs what is left out, and reports whether it is there.
func RecordingIfPresent(t testing.TB, name string) (string, bool) {
	t.Helper()
	dir := filepath.Join(filepath.Dir(Root(t)), "shared", name)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the recording %s is not beside the checkout (%v)", name, err)
		}
		t.Logf("skipped: the recording %s is not beside the checkout (%v)", name, err)
		return "", false
	}
	return dir, true
}

// Truth is a recording's TRUTH.tsv: one row per client, each by its
// column names (client, relists, errors410, watchlists, ...), as the
// recording's README defines them.
type Truth map[string]map[string]string

// ReadTruth reads dir's TRUTH.tsv.
func ReadTruth(t testing.TB, dir string) Truth {
	t.Helper()
	b := Read(t, filepath.Join(dir, "TRUTH.tsv"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(lines[0], "\t")
	out := Truth{}
	for _, ln := range lines[1:] {
		c := strings.Split(ln, "\t")
		if len(c) != len(head) {
			t.Fatalf("%s/TRUTH.tsv: line %q has %d columns, want %d", dir, ln, len(c), len(head))
		}
		row := map[string]string{}
		for i, h := range head {
			row[h] = c[i]
		}
		out[c[0]] = row
	}
	return out
}

// Int is a numeric column of a client's row ("-" is 0).
func (tr Truth) Int(t testing.TB, client, col string) int {
	t.Helper()
	s, ok := tr[client][col]
	if !ok {
		t.Fatalf("TRUTH.tsv has no column %q for %q", col, client)
	}
	if s == "-" {
		return 0
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("TRUTH.tsv %s.%s: %v", client, col, err)
	}
	return v
}
