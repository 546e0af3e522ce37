package canvas

import (
	"strings"
	"testing"
)

// A picture for a document (View.Print) draws no controls: the file
// groups keep their names, without their fold marks and pins.
func TestPrintDrawsNoControls(t *testing.T) {
	tl, an := twoFiles(t)
	c := NewCache(tl)
	texts := func(print bool) string {
		v := wholeView(tl, an, c, 1280)
		v.Print = print
		var fr Frame
		c.Build(v, &fr)
		var all []string
		for _, tx := range fr.Texts {
			all = append(all, tx.Text)
		}
		return strings.Join(all, "\n")
	}
	shown, printed := texts(false), texts(true)
	if !strings.Contains(shown, "pin to top") || !strings.Contains(shown, "▾ w4-then-resume.ts.http") {
		t.Fatalf("on screen the groups have no pin or fold mark: the test tests nothing:\n%s", shown)
	}
	for _, control := range []string{"pin to top", "unpin", "▾", "▸"} {
		if strings.Contains(printed, control) {
			t.Errorf("the picture holds the control %q", control)
		}
	}
	for _, name := range []string{"w3-then-resume.ts.http", "w4-then-resume.ts.http"} {
		if !strings.Contains(printed, "\n"+name+"\n") {
			t.Errorf("the picture does not name the group of %s", name)
		}
	}
}
