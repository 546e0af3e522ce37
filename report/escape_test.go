package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"

	"watchlens/parser"
	"watchlens/timeline"
)

// hostile is a string a capture controls (an object's name, a message, a
// label selector, a file name) written to move a terminal's cursor, ring
// its bell, rewrite a line, break a Markdown table and inject HTML.
const hostile = "evil\x1b[2J\a\rFAKE\nline | cell\n## heading <img src=x onerror=alert(1)> `code` \u202egnp.exe"

// hostileReport is the report of a capture where hostile is everywhere a
// capture's strings reach: the file name, an object's name (in a
// "repeated" anomaly), the request's label selector and an error message.
func hostileReport(t *testing.T) *Report {
	t.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	at := func(d time.Duration) int64 { return t0 + int64(d) }
	object := func(seq int, d time.Duration) parser.Event {
		return parser.Event{Seq: seq, Type: parser.Modified, Kind: "ConfigMap", APIVersion: "v1", Namespace: "ns", Name: hostile, UID: "uid",
			RV: "5", RVNum: 5, RVValid: true, Arrival: at(d)}
	}
	c := &parser.Capture{
		Sessions: []parser.Session{{HTTPStatus: 200, StatusText: "OK", StartArrival: at(0), EndArrival: at(time.Minute),
			Request: &parser.Request{Method: "GET", Path: "/api/v1/configmaps", Watch: true, ResourceVersion: "1", LabelSelector: hostile}}},
		Events: []parser.Event{object(0, time.Second), object(1, 2*time.Second),
			{Seq: 2, Type: parser.Error, Kind: "Status", Arrival: at(3 * time.Second),
				Status: &parser.Status{Code: 410, Reason: "Expired", TooOld: true, X: 1, Y: 5, Message: hostile}}},
	}
	b := timeline.NewBuilder()
	b.AddCapture(hostile, c)
	rep := New(b.Build().Analyze(timeline.DefaultParams()), nil)
	if len(rep.Anomalies) == 0 || len(rep.Errors) == 0 {
		t.Fatalf("the hostile capture has %d anomalies and %d errors, want some of each", len(rep.Anomalies), len(rep.Errors))
	}
	return rep
}

// TestTextReportEscapesControls: no control character from the capture
// reaches the terminal; each is written as Go writes it in a quoted string.
func TestTextReportEscapesControls(t *testing.T) {
	var out bytes.Buffer
	if err := hostileReport(t).WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, r := range out.String() {
		if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			t.Errorf("the text report writes %U raw", r)
			break
		}
	}
	if n := strings.Count(out.String(), `evil\x1b[2J\a\rFAKE\nline | cell\n## heading`); n < 4 {
		t.Errorf("the hostile string is escaped %d times, want it in the file name, the object, the selector and the message:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), `\u202egnp.exe`) {
		t.Error("a right-to-left override is not escaped")
	}
}

// TestMarkdownReportEscapes: a capture's strings cannot end a table row,
// add a cell, start a heading, or put HTML or code spans in the report.
func TestMarkdownReportEscapes(t *testing.T) {
	var out bytes.Buffer
	if err := hostileReport(t).WriteMarkdown(&out); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	for _, raw := range []string{"<img", "\x1b", "\r"} {
		if strings.Contains(md, raw) {
			t.Errorf("the Markdown report writes %q raw", raw)
		}
	}
	if strings.Count(md, "`") != strings.Count(md, "\\`") {
		t.Error("the Markdown report writes a backtick unescaped")
	}
	if !strings.Contains(md, "&lt;img src=x onerror=alert(1)>") {
		t.Error("the HTML in a name is not written as entities")
	}
	lines := strings.Split(md, "\n")
	cells := -1 // unescaped pipes of the current table's header
	rows := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "#") && strings.Contains(l, "heading") {
			t.Errorf("a capture's string made a heading: %q", l)
		}
		if !strings.HasPrefix(l, "|") {
			cells = -1
			continue
		}
		n := strings.Count(l, "|") - strings.Count(l, `\|`)
		if cells < 0 {
			cells = n
			continue
		}
		rows++
		if n != cells {
			t.Errorf("a row has %d cell borders, its header %d: %q", n, cells, l)
		}
	}
	if rows == 0 {
		t.Fatal("no table rows in the Markdown report")
	}
}

// TestHugeNamesClipped: a capture's megabyte-long user agent is a client's
// name in the fleet's table; the text report clips it with an ellipsis,
// and never writes fmt's %!(BADWIDTH) for a column padded to it.
func TestHugeNamesClipped(t *testing.T) {
	rows := [][]string{{strings.Repeat("ü", 1<<20), "x"}, {"short", strings.Repeat("y", 1<<20)}}
	var out bytes.Buffer
	p := &printer{w: &out}
	p.table([]string{"client", "sentence"}, rows)
	if out.Len() > 2*(maxCell+maxLastCell)*4 || strings.Contains(out.String(), "BADWIDTH") || !strings.Contains(out.String(), "ü…") || !strings.Contains(out.String(), "y…") {
		t.Errorf("a table of huge cells is %d bytes: %.300q", out.Len(), out.String())
	}
}

// mdSafe writes as entities what would start HTML or a quote, and leaves
// any other "<" and ">" as written: the report's own words compare
// resourceVersions with them.
func TestMDSafeAngles(t *testing.T) {
	for in, want := range map[string]string{
		"<img src=x>":               "&lt;img src=x>",
		"</td>":                     "&lt;/td>",
		"<!-- x -->":                "&lt;!-- x -->",
		"<?php":                     "&lt;?php",
		"<https://example.com>":     "&lt;https://example.com>",
		"<Script>":                  "&lt;Script>",
		"r < oldest - 1":            "r < oldest - 1",
		"a >= b, 1<2":               "a >= b, 1<2",
		"> quoted":                  "&gt; quoted",
		"ends with <":               "ends with <",
		"AT&T &amp;":                "AT&amp;T &amp;amp;",
		"a#1 → c#1":                 "a#1 → c#1",
		"# heading":                 `\# heading`,
		"<[x](javascript:alert(1))": `<\[x\](javascript:alert(1))`,
	} {
		if got := mdSafe(in); got != want {
			t.Errorf("mdSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
