package canvas

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"watchlens/parser"
	"watchlens/timeline"
)

// A client named with a right-to-left override ("abc\u202egpj.exe", drawn
// as "abcexe.jpg") shows the override as written, `\u202e`, in its row's
// label, its tooltip and, for its file's name, the summary: no text of the fleet holds a
// direction control.
func TestFleetShowsDirectionControls(t *testing.T) {
	const evil = "abc\u202egpj.exe"
	names, err := filepath.Glob("../../testdata/fleet/*.ts.http")
	if err != nil || len(names) < 2 {
		t.Fatalf("the fleet recording: %v %v", names, err)
	}
	b := timeline.NewBuilder()
	for i, n := range names[2:6] {
		in, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		// The first client's User-Agent, which names it, and its file's
		// name, which the summary says, are the evil name.
		name := filepath.Base(n)
		if i == 0 {
			name = evil
			ua := regexp.MustCompile(`User-Agent: [^\r\n]*`)
			if !ua.Match(in) {
				t.Fatalf("%s has no User-Agent", n)
			}
			in = ua.ReplaceAll(in, []byte("User-Agent: "+evil))
		}
		if err := b.AddReader(name, bytes.NewReader(in), parser.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	a := b.Build().Analyze(timeline.DefaultParams())
	d := NewFleetData(a)
	if d == nil {
		t.Fatal("no fleet")
	}
	var fr Frame
	var buf FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: 1280, PixelRatio: 1}
	l := d.Build(v, &fr, &buf)
	const shown = `abc\u202egpj.exe`
	row, labelled := -1, false
	for r := range d.Rows {
		if d.Rows[r].Label == evil {
			row = r
		}
	}
	for _, tx := range fr.Texts {
		if strings.ContainsRune(tx.Text, '\u202e') {
			t.Errorf("the label %q holds the override", tx.Text)
		}
		labelled = labelled || strings.HasSuffix(tx.Text, shown)
	}
	if row < 0 || !labelled {
		t.Fatalf("no row or no label for %q (row %d)", shown, row)
	}
	h := d.HitTest(v, &l, 20, l.RowY(row, v.ScrollY)+FleetRowH/2)
	if h.Row != row || !strings.HasPrefix(h.Text, shown+"\n") {
		t.Errorf("the row's tooltip: %q", h.Text)
	}
	mentioned := false
	for _, s := range a.Summary(nil) {
		if strings.ContainsRune(s.Text, '\u202e') {
			t.Errorf("the summary says %q", s.Text)
		}
		mentioned = mentioned || strings.Contains(s.Text, shown)
	}
	if !mentioned {
		t.Errorf("the summary does not name the client: %v", a.Summary(nil))
	}
}
