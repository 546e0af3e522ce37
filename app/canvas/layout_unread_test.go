package canvas

import (
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
)

// TestLayoutLeavesNoCaptureOut: the README and the notes selected with an
// incident's records get no group of tracks: beside one capture, the
// capture's bands are the timeline's own, as when it is open alone;
// beside two, each capture has its group and they have none.
func TestLayoutLeavesNoCaptureOut(t *testing.T) {
	lab := testsample.Recording(t, "samples-lab")
	notes := []string{filepath.Join(lab, "README.md"), filepath.Join(lab, "TRUTH.tsv")}
	one := testsample.Sample(t, "w3-then-resume.ts.http")
	two := testsample.Sample(t, "w4-then-resume.ts.http")
	groups := func(files ...string) []string {
		c := NewCache(buildFiles(t, files))
		var names []string
		for _, b := range c.Layout(1280, 0, 1, false, false, FileSet{}, FileSet{}).Bands {
			if b.ID == BandFile {
				names = append(names, b.Label)
			}
		}
		return names
	}
	if g := groups(append(notes, one)...); len(g) != 0 {
		t.Errorf("one capture beside the notes is stacked in groups %q", g)
	}
	if g := groups(append(notes, one, two)...); len(g) != 2 || g[0] != "w3-then-resume.ts.http" || g[1] != "w4-then-resume.ts.http" {
		t.Errorf("two captures beside the notes are stacked in groups %q", g)
	}
	if g := groups(one, two); len(g) != 2 {
		t.Errorf("two captures alone are stacked in groups %q", g)
	}
}
