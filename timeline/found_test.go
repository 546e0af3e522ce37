package timeline

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// Of the files of samples-lab's folder, its notes and tables are left
// out and every record stays: the 207 clients' captures, the audit logs,
// the client log and the Prometheus exports give the same timeline as
// the records named one by one.
func TestLeaveOutUnreadOfTheLabFolder(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	var all []string
	if err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			all = append(all, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	b := NewBuilder()
	var leftOut []string
	for _, p := range all {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		file := b.FilesAdded()
		err = b.AddReader(p, f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if b.LeaveOutUnread(file) {
			leftOut = append(leftOut, p)
		}
	}
	tl := b.Build()
	for _, p := range leftOut {
		if rel, _ := filepath.Rel(dir, p); strings.HasSuffix(p, ".http") || strings.HasSuffix(p, ".log") || strings.Contains(rel, ".json") {
			t.Errorf("a record was left out: %s", rel)
		}
	}
	for _, name := range []string{"README.md", "TRUTH.tsv", "prometheus/prometheus.yml", "prometheus/range.txt"} {
		if !slices.Contains(leftOut, filepath.Join(dir, name)) {
			t.Errorf("the folder's %s was not left out: %d left out", name, len(leftOut))
		}
	}
	if n := len(tl.Unjudged()); n > 0 {
		for _, u := range tl.Unjudged() {
			t.Logf("unjudged: %s: %s", u.Name, u.Reason)
		}
		t.Errorf("%d files of the folder stay unjudged", n)
	}
	fl := tl.Analyze(DefaultParams()).Fleet()
	if fl == nil || fl.RelistsObserved != 81 {
		t.Fatalf("the folder's fleet does not hold the lab's 81 relists: %+v", fl)
	}
}

// A real capture cut short, found in a folder, stays, and its report says
// it was cut short: saved with its HTTP head, and saved without it (curl
// --raw without -i) and cut inside its first event, where the parser
// keeps no session, only the truncation and the event that broke off.
// Beside them, range.txt of each recording with a Prometheus export, two
// Unix times that the parser reads as the chunk size of a body without
// its head and nothing after it, is left out.
func TestLeaveOutUnreadKeepsACaptureCutShort(t *testing.T) {
	whole := testsample.SampleBytes(t, "curl1-narrow-bookmarks-raw.curl")
	_, body, ok := bytes.Cut(whole, []byte("\r\n\r\n"))
	if !ok {
		t.Fatal("curl1-narrow-bookmarks-raw.curl has no HTTP head")
	}
	cut := []struct {
		name string
		data []byte
	}{
		{"with-head.curl", whole[:len(whole)/2]},
		{"without-head.curl", body[:len(body)/4]},
	}
	if bytes.Count(cut[1].data, []byte("\n")) != 1 {
		t.Fatalf("the capture without its head is not cut inside its first event: %q", cut[1].data)
	}
	b := NewBuilder()
	for _, c := range cut {
		file := b.FilesAdded()
		if err := b.AddReader("incident/"+c.name, bytes.NewReader(c.data), parser.Options{}); err != nil {
			t.Fatal(err)
		}
		if b.LeaveOutUnread(file) {
			t.Errorf("%s, a capture cut short, was left out", c.name)
		}
	}
	for _, rec := range []string{"samples-lab", "samples-outage", "samples-watchlist"} {
		p := filepath.Join(testsample.Recording(t, rec), "prometheus", "range.txt")
		file := b.FilesAdded()
		if err := b.AddReader(p, bytes.NewReader(testsample.Read(t, p)), parser.Options{}); err != nil {
			t.Fatal(err)
		}
		if !b.LeaveOutUnread(file) {
			t.Errorf("%s was not left out", p)
		}
	}
	tl := b.Build()
	if len(tl.Files) != len(cut) {
		t.Fatalf("%d files kept, want the %d captures cut short", len(tl.Files), len(cut))
	}
	if f := tl.Files[1]; len(f.Sessions) > 0 || f.Events > 0 {
		t.Errorf("%s read as %d sessions and %d events: the parser need not say the event broke off to keep it", f.Name, len(f.Sessions), f.Events)
	}
	for k, f := range tl.Files {
		if !slices.ContainsFunc(f.Diagnostics, func(d parser.Diagnostic) bool { return d.Kind == parser.DiagTruncated }) {
			t.Errorf("%s: the report does not say it was cut short: %v", cut[k].name, f.Diagnostics)
		}
	}
}

// A PNG is not a watch capture, and the summary gives no verdict over it,
// only what it is; a capture beside it is judged as usual.
func TestNothingJudged(t *testing.T) {
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	b := NewBuilder()
	b.AddReader("dir/timeline.png", bytes.NewReader(img.Bytes()), parser.Options{})
	b.AddReader("empty.log", bytes.NewReader(nil), parser.Options{})
	tl := b.Build()
	if tl.Judged() {
		t.Fatal("a PNG and an empty file are judged")
	}
	if got := tl.LooksLike(0); got != "a PNG image" {
		t.Errorf("the PNG looks like %q", got)
	}
	sum := tl.Analyze(DefaultParams()).Summary(nil)
	if len(sum) != 1 || sum[0].Topic != "unjudged" ||
		sum[0].Text != "Nothing to judge in the 2 files given, so there is no verdict: timeline.png: it is not a watch capture: it looks like a PNG image; empty.log: it is not a watch capture: it is empty." {
		t.Errorf("summary over a PNG and an empty file: %+v", sum)
	}

	b = NewBuilder()
	b.AddReader("timeline.png", bytes.NewReader(img.Bytes()), parser.Options{})
	f, err := os.Open(filepath.Join(samplesDir, "w4-then-resume.ts.http"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b.AddReader("w4-then-resume.ts.http", f, parser.Options{})
	tl = b.Build()
	sum = tl.Analyze(DefaultParams()).Summary(nil)
	if !tl.Judged() || len(sum) == 0 || sum[0].Topic == "unjudged" {
		t.Errorf("a capture beside a PNG is not judged: %+v", sum)
	}

	// Split into virtual clients (--split-by), a PNG is told for what it
	// is too, not as a capture with no event.
	sp, err := ParseSplit("namespace")
	if err != nil {
		t.Fatal(err)
	}
	b = NewBuilder()
	if err := b.AddReaderSplit("timeline.png", bytes.NewReader(img.Bytes()), parser.Options{}, sp); err != nil {
		t.Fatal(err)
	}
	tl = b.Build()
	if got := tl.LooksLike(0); got != "a PNG image" {
		t.Errorf("split, the PNG looks like %q", got)
	}
	sum = tl.Analyze(DefaultParams()).Summary(nil)
	if len(sum) != 1 || sum[0].Text != "Nothing to judge, so there is no verdict: timeline.png: it is not a watch capture: it looks like a PNG image." {
		t.Errorf("summary over a PNG split: %+v", sum)
	}
}
