package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// undated rewrites a dated library log into a layout without a date:
// logback's default pattern (a time of day, "HH:mm:ss.SSS") or Python's
// BASIC_FORMAT ("LEVEL:logger:message", no time).
func undated(t *testing.T, name string, basic bool) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if !basic {
		return regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d `).ReplaceAll(b, nil)
	}
	// "2026-12-01 18:14:59,372 WARNING kubernetes.informer.informer: msg"
	return regexp.MustCompile(`(?m)^\S+ \S+ ([A-Z]+) ([\w.]+): `).ReplaceAll(b, []byte("$1:$2:"))
}

// TestLibLogTimeOfDay: fabric8's log in logback's default pattern reads
// as the dated one, on the date given, else on the clock's latest date
// that does not put it in the future; a line earlier than the one before
// by more than 12 hours is on the next day.
func TestLibLogTimeOfDay(t *testing.T) {
	dated := readLibFile(t, filepath.Join("testdata", "fabric8-informer.log"))
	in := undated(t, "fabric8-informer.log", false)
	if IsLibLog(in) != LibFabric8 {
		t.Fatalf("the time-of-day log is sniffed as %v", IsLibLog(in))
	}
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		lo   LibLogOptions
		from string
	}{
		{LibLogOptions{Date: day}, "option"},
		{LibLogOptions{Now: day.Add(24*time.Hour + time.Hour)}, "clock"}, // 01:00 the next day: 18:09 is yesterday's
		{LibLogOptions{Now: day.Add(23 * time.Hour)}, "clock"},
	} {
		l, err := ReadLibLog(bytes.NewReader(in), Options{}, LibFabric8, c.lo)
		if err != nil {
			t.Fatal(err)
		}
		if l.DateFrom != c.from || !l.Date.Equal(day) || len(l.Lines) != len(dated.Lines) || l.First != dated.First || l.Last != dated.Last {
			t.Fatalf("%+v: date %s from %q, %d lines %d..%d; want %s from %q, %d lines %d..%d", c.lo, l.Date, l.DateFrom, len(l.Lines), l.First, l.Last, day, c.from, len(dated.Lines), dated.First, dated.Last)
		}
		for k, ln := range l.Lines {
			if d := dated.Lines[k]; ln.Time != d.Time || ln.Kind != d.Kind || ln.Client != d.Client {
				t.Errorf("line %d: %+v, dated %+v", ln.Line, ln, d)
			}
		}
	}
	l, _ := ReadLibLog(bytes.NewReader(in), Options{}, LibFabric8, LibLogOptions{Now: day.AddDate(0, 0, 3)})
	l.MoveToDate(day, "files")
	if l.First != dated.First || l.DateFrom != "files" {
		t.Errorf("moved to %s: first %d (%s), want %d", day, l.First, l.DateFrom, dated.First)
	}
	midnight := "23:59:59.900 [main] DEBUG i.f.k.c.i.impl.cache.Reflector - Listing items (1) for v1/namespaces/lab/configmaps at v3\n" +
		"00:00:00.100 [main] DEBUG i.f.k.c.i.impl.cache.Reflector - Starting watcher for v1/namespaces/lab/configmaps at v3\n"
	l, _ = ReadLibLog(strings.NewReader(midnight), Options{}, LibFabric8, LibLogOptions{Date: day})
	if len(l.Lines) != 2 || l.Lines[1].Time-l.Lines[0].Time != int64(200*time.Millisecond) {
		t.Errorf("across midnight: %+v", l.Lines)
	}
}

// TestLibLogNoTime: the Python informer's log in BASIC_FORMAT is
// sniffed as Python's; none of its events is given a time: each that
// tells of a 410 or an error is diagnosed at its line, and the log says
// its events have no time.
func TestLibLogNoTime(t *testing.T) {
	in := undated(t, "python-informer.log", true)
	if IsLibLog(in) != LibPython {
		t.Fatalf("the BASIC_FORMAT log is sniffed as %v", IsLibLog(in))
	}
	l, err := ReadLibLog(bytes.NewReader(in), Options{}, LibPython, LibLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Lines) != 0 || l.First != 0 || l.Last != 0 {
		t.Errorf("%d lines placed at %d..%d, want none", len(l.Lines), l.First, l.Last)
	}
	// The informer's two 410s and its error, and urllib3's 15 requests.
	var at []int
	summary := false
	for _, d := range l.Diagnostics {
		switch {
		case d.Kind != DiagNoTime:
			t.Errorf("diagnostic %+v", d)
		case d.Line > 0:
			at = append(at, d.Line)
			lines := strings.Split(string(in), "\n")
			if int(d.Offset) != len(strings.Join(lines[:d.Line-1], "\n"))+1 || !strings.Contains(d.Msg, "no time at all") {
				t.Errorf("diagnostic at line %d, offset %d: %s", d.Line, d.Offset, d.Msg)
			}
		default:
			summary = strings.Contains(d.Msg, "its events have no time")
		}
	}
	if l.Untimed != 18 || !summary || len(at) == 0 || at[0] != 3 {
		t.Errorf("%d untimed events, diagnosed at lines %v, the log's word %v", l.Untimed, at, summary)
	}
}
