package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"watchlens/web"
)

func TestFlagsFirst(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.String("format", "", "")
	fs.Bool("watch-cache", true, "")
	for _, tc := range []struct{ in, want []string }{
		{[]string{"f", "--format", "json"}, []string{"--format", "json", "f"}},
		{[]string{"f", "-format=json", "g"}, []string{"-format=json", "f", "g"}},
		{[]string{"f", "-watch-cache", "g"}, []string{"-watch-cache", "f", "g"}},
		{[]string{"-", "--watch-cache=false"}, []string{"--watch-cache=false", "-"}},
		{[]string{"f", "--", "-g", "--format"}, []string{"--", "f", "-g", "--format"}},
		{[]string{"--format"}, []string{"--format"}},
	} {
		if got := flagsFirst(fs, tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("flagsFirst(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestAnalyzeFlagsAnywhere: flags after the file names are flags, as with
// kubectl, and "--" ends them.
func TestAnalyzeFlagsAnywhere(t *testing.T) {
	code, out, errOut := analyze(t, "samples/w4-then-resume.http", "--format", "json", "--fail-on=410")
	if code != 1 || !json.Valid([]byte(out)) {
		t.Errorf("analyze FILE --format json --fail-on=410: exit %d, stderr %q; want 1 and a JSON report", code, errOut)
	}
	if code, _, errOut := analyze(t, "--", "-format"); code != 1 || !strings.Contains(errOut, "-format") {
		t.Errorf("analyze -- -format: exit %d, stderr %q; want 1 for a missing file named -format", code, errOut)
	}
}

// TestAnalyzeStdin: "-" is standard input, which the report names
// "stdin" (its sentences said "-'s reconnect").
func TestAnalyzeStdin(t *testing.T) {
	f, err := os.Open("samples/w4-then-resume.http")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := stdin
	stdin = f
	defer func() { stdin = saved }()
	code, out, errOut := analyze(t, "--fail-on", "410", "-", "--format", "json")
	var rep struct {
		Files []struct {
			Name   string `json:"name"`
			Events int    `json:"events"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
		t.Fatalf("analyze -: exit %d, stderr %q, %v", code, errOut, err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Name != "stdin" || rep.Files[0].Events != 2 {
		t.Errorf("files %+v, want one named stdin with w4's 2 events", rep.Files)
	}
}

// TestBuildOutsideRepository: a binary run elsewhere than in a clone has
// its static assets built in; -web needs only the built app.wasm, and its
// absence is explained.
func TestBuildOutsideRepository(t *testing.T) {
	t.Chdir(t.TempDir())
	// A binary built after `make wasm` carries the page's wasm and needs
	// no -web folder; one built before says how to get one (site's tests
	// hold both cases whichever this binary is).
	carried, err := fs.ReadFile(web.FS, "app.wasm")
	code, _, errOut := runCLIOut(t, "build", "-o", "carried")
	switch {
	case err == nil:
		if code != 0 {
			t.Errorf("build outside a clone with the binary's app.wasm: exit %d, stderr %q", code, errOut)
		} else if got, _ := os.ReadFile(filepath.Join("carried", "web", "app.wasm")); !bytes.Equal(got, carried) {
			t.Errorf("the site's app.wasm (%d bytes) is not the binary's (%d)", len(got), len(carried))
		}
	case code != 1 || !strings.Contains(errOut, "app.wasm not found in web") || !strings.Contains(errOut, "make wasm"):
		t.Errorf("build without app.wasm: exit %d, stderr %q; want 1 and how to get app.wasm", code, errOut)
	}
	web := t.TempDir()
	if err := os.WriteFile(filepath.Join(web, "app.wasm"), []byte("not really wasm"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLIOut(t, "build", "-o", "site", "-web", web); code != 0 {
		t.Fatalf("build -web DIR holding app.wasm only: exit %d: %s", code, errOut)
	}
	for _, f := range []string{"web/app.wasm", "web/app.css", "web/timeline.js", "web/blobread.js", "web/icon.svg", "web/icon-192.png", "index.html"} {
		if _, err := os.Stat(filepath.Join("site", f)); err != nil {
			t.Errorf("the site lacks %s: %v", f, err)
		}
	}
}

func runCLIOut(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut strings.Builder
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}
