package parser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sampleDirs are the real captures; the shared ones sit beside the repo in
// CI as they do here.
var sampleDirs = []string{"../samples", "../../shared/samples-real", "../../shared/samples-public"}

type manifestEntry struct {
	file   string
	counts map[string]int
}

func readManifest(t *testing.T, dir string) map[string]map[string]int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return nil
	}
	m := map[string]map[string]int{}
	for i, ln := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i == 0 {
			continue
		}
		cols := strings.Split(ln, "\t")
		if len(cols) < 3 {
			t.Fatalf("%s: manifest line %d has %d columns", dir, i+1, len(cols))
		}
		c := map[string]int{}
		if err := json.Unmarshal([]byte(cols[2]), &c); err != nil {
			t.Fatalf("%s: manifest line %d: %v", dir, i+1, err)
		}
		m[cols[0]] = c
	}
	return m
}

func readSample(t *testing.T, path string) *Capture {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ReadAll(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSamplesMatchManifest(t *testing.T) {
	seen := 0
	for _, dir := range sampleDirs {
		man := readManifest(t, dir)
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, path := range files {
			name := filepath.Base(path)
			if name == "MANIFEST.tsv" || strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".go") {
				continue
			}
			seen++
			t.Run(dir+"/"+name, func(t *testing.T) {
				c := readSample(t, path)
				for _, d := range c.Diagnostics {
					t.Errorf("diagnostic: %v", d)
				}
				got := map[string]int{}
				for _, ev := range c.Events {
					got[ev.Type.String()]++
				}
				want, ok := man[name]
				if !ok {
					if dir != "../../shared/samples-public" {
						t.Fatalf("%s is not in %s/MANIFEST.tsv", name, dir)
					}
					return
				}
				if len(got) != len(want) {
					t.Errorf("counts %v, want %v", got, want)
				}
				for k, n := range want {
					if got[k] != n {
						t.Errorf("counts %v, want %v", got, want)
						break
					}
				}
			})
		}
	}
	if seen < 15 {
		t.Errorf("only %d sample files found", seen)
	}
}
