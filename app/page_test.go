package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseManifest(t *testing.T) {
	b, err := os.ReadFile("../samples/MANIFEST.tsv")
	if err != nil {
		t.Fatal(err)
	}
	samples := parseManifest(string(b))
	files, err := filepath.Glob("../samples/*")
	if err != nil {
		t.Fatal(err)
	}
	captures := 0
	for _, f := range files {
		if ext := filepath.Ext(f); ext != ".tsv" && ext != ".go" && ext != ".md" {
			captures++
		}
	}
	if len(samples) != captures {
		t.Errorf("the manifest lists %d samples, samples/ holds %d captures", len(samples), captures)
	}
	for _, sm := range samples {
		if _, err := os.Stat("../samples/" + sm.name); err != nil || sm.about == "" {
			t.Errorf("sample %q: %v, about %q", sm.name, err, sm.about)
		}
		if strings.HasPrefix(sm.about, "same") {
			t.Errorf("sample %q is described only relative to another: %q", sm.name, sm.about)
		}
	}
}
