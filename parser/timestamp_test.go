package parser

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTimestampWriterRoundTrip records a real capture through the writer,
// in writes cut at awkward places, and reads back the same events with the
// clock's times as arrivals.
func TestTimestampWriterRoundTrip(t *testing.T) {
	src, err := os.ReadFile("../samples/w6-sendinitialevents-rig-a.http")
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 11, 30, 1, 2, 3, 4, time.UTC)
	var stamps []time.Time
	now := func() time.Time {
		clock = clock.Add(1500 * time.Microsecond)
		stamps = append(stamps, clock)
		return clock
	}
	var out bytes.Buffer
	tw := NewTimestampWriter(&out, now)
	for rest, step := src, 1; len(rest) > 0; step = step*7%1009 + 1 {
		n := min(step, len(rest))
		if k, err := tw.Write(rest[:n]); err != nil || k != n {
			t.Fatalf("Write = %d, %v", k, err)
		}
		rest = rest[n:]
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	timed, err := ReadAll(bytes.NewReader(out.Bytes()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := ReadAll(bytes.NewReader(src), Options{})
	if len(timed.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", timed.Diagnostics)
	}
	if len(timed.Events) != len(plain.Events) || len(plain.Events) == 0 {
		t.Fatalf("%d events back, want %d", len(timed.Events), len(plain.Events))
	}
	known := map[int64]bool{}
	for _, s := range stamps {
		known[s.UnixNano()] = true
	}
	began := 0
	for i, e := range timed.Events {
		if !known[e.Arrival] {
			t.Fatalf("event %d arrival %v is no time the clock gave", i, time.Unix(0, e.Arrival).UTC())
		}
		// An event the writes cut began arriving at an earlier write.
		if e.Began != 0 && (!known[e.Began] || e.Began >= e.Arrival) {
			t.Fatalf("event %d began arriving at %v, no earlier time the clock gave", i, time.Unix(0, e.Began).UTC())
		}
		if e.Began != 0 {
			began++
		}
		e.Arrival, e.Began, e.Offset, e.Length, e.Identity = 0, 0, plain.Events[i].Offset, plain.Events[i].Length, plain.Events[i].Identity
		if !reflect.DeepEqual(e, plain.Events[i]) {
			t.Fatalf("event %d: %+v, want %+v", i, e, plain.Events[i])
		}
	}
	if began == 0 {
		t.Error("no event began arriving at an earlier write than it ended, where the writes cut them")
	}
}

func TestTimestampWriterPrefixesEveryLine(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.FixedZone("x", 3600))
	var out bytes.Buffer
	tw := NewTimestampWriter(&out, func() time.Time { return at })
	tw.Write([]byte("a\r\nb"))
	tw.Write([]byte("c\n\nd"))
	want := "2026-01-02T02:04:05.000006000Z a\r\n2026-01-02T02:04:05.000006000Z bc\n" +
		"2026-01-02T02:04:05.000006000Z \n2026-01-02T02:04:05.000006000Z d"
	if out.String() != want {
		t.Fatalf("got %q\nwant %q", out.String(), want)
	}
}

// TestTimesOutOfRange: a time outside the years Unix nanoseconds hold is
// refused wherever it is read, never wrapped (year 9999 read as 1754,
// year 0001 as 1970): an audit record's stage or receipt time is a
// diagnostic at its line's offset quoting it, an object's time or an
// arrival prefix is no time.
func TestTimesOutOfRange(t *testing.T) {
	if MinTime.Year() != minYear || MaxTime.Year() != maxYear {
		t.Fatalf("MinTime %v, MaxTime %v: minYear and maxYear are theirs", MinTime, MaxTime)
	}
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{"2262-04-11T23:47:16.854775807Z", true},
		{"2262-04-11T23:47:16.854775808Z", false},
		{"1677-09-21T00:12:43.145224192Z", true},
		{"1677-09-21T00:12:43.145224191Z", false},
		{"9999-12-31T00:00:00Z", false},
		{"0001-01-01T00:00:00Z", false},
	} {
		tm, err := time.Parse(time.RFC3339Nano, tc.s)
		if err != nil {
			t.Fatal(err)
		}
		if ns, ok := UnixNano(tm); ok != tc.ok || ok && ns != tm.UnixNano() {
			t.Errorf("UnixNano(%s) = %d, %v; want ok %v", tc.s, ns, ok, tc.ok)
		}
		// An object's creationTimestamp, by the fast path and the slow one.
		if ns, ok := parseTimeBytes([]byte(tc.s)); ok != tc.ok || ok && ns != tm.UnixNano() {
			t.Errorf("parseTimeBytes(%s) = %d, %v; want ok %v", tc.s, ns, ok, tc.ok)
		}
		// A line's arrival prefix.
		if ns, _, ok := parseTimePrefix([]byte(tc.s + " {}")); ok != tc.ok || ok && ns != tm.UnixNano() {
			t.Errorf("parseTimePrefix(%s) = %d, %v; want ok %v", tc.s, ns, ok, tc.ok)
		}
		var c prefixClock
		if ns, _, ok := c.parse([]byte(tc.s + " {}")); ok != tc.ok || ok && ns != tm.UnixNano() {
			t.Errorf("prefixClock.parse(%s) = %d, %v; want ok %v", tc.s, ns, ok, tc.ok)
		}
	}
	for _, p := range []string{"9223372036 x", "99999999999 x", "999999999999.5 x"} {
		if ns, _, ok := parseTimePrefix([]byte(p)); ok {
			t.Errorf("Unix seconds prefix %q read as %v", p, time.Unix(0, ns).UTC())
		}
	}

	// Real audit records of the fleet, one with its stage in year 9999,
	// one received in year 0001.
	log, err := os.ReadFile("../testdata/fleet/audit-a-1.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(log, []byte("\n"))[:40]
	stage := regexp.MustCompile(`"stageTimestamp":"\d{4}`)
	received := regexp.MustCompile(`"requestReceivedTimestamp":"\d{4}`)
	lines[3] = stage.ReplaceAll(lines[3], []byte(`"stageTimestamp":"9999`))
	lines[7] = received.ReplaceAll(lines[7], []byte(`"requestReceivedTimestamp":"0001`))
	l, err := ReadAudit(bytes.NewReader(bytes.Join(lines, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	offset := func(k int) int64 { return int64(len(bytes.Join(lines[:k], nil))) }
	if len(l.Diagnostics) != 2 {
		t.Fatalf("diagnostics %v, want 2", l.Diagnostics)
	}
	for k, want := range []struct {
		line  int
		quote string
	}{{3, `stageTimestamp "9999-`}, {7, `requestReceivedTimestamp "0001-`}} {
		d := l.Diagnostics[k]
		if d.Kind != "bad-time" || d.Offset != offset(want.line) || d.Line != want.line+1 || !strings.Contains(d.Msg, want.quote) || !strings.Contains(d.Msg, "1677 to 2262") {
			t.Errorf("diagnostic %d: %+v, want bad-time at offset %d quoting %s", k, d, offset(want.line), want.quote)
		}
	}
	lo, hi := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano(), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for _, q := range l.Requests {
		for _, ns := range []int64{q.Received, q.Started, q.Completed} {
			if ns != 0 && (ns < lo || ns > hi) {
				t.Errorf("request %s line %d: a time wrapped to %v", q.AuditID, q.Line, time.Unix(0, ns).UTC())
			}
		}
	}
	if l.Records != 39 {
		t.Errorf("%d records read, want 39 (one skipped)", l.Records)
	}

	// A real capture with time prefixes, two of its lines' prefixes in
	// years 9999 and 0001: each is a diagnostic at its line quoting it,
	// and the line is read with the time before it.
	capture, err := os.ReadFile("../samples/w3-narrow-label-bookmarks.ts.http")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadAll(bytes.NewReader(capture), Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines = bytes.SplitAfter(capture, []byte("\n"))
	bookmarks := 0
	var bad []int
	for k, ln := range lines {
		if bytes.Contains(ln, []byte(`"type":"BOOKMARK"`)) {
			if bookmarks++; bookmarks == 3 || bookmarks == 7 {
				bad = append(bad, k)
			}
		}
	}
	copy(lines[bad[0]], "9999")
	copy(lines[bad[1]], "0001")
	c, err := ReadAll(bytes.NewReader(bytes.Join(lines, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Events) != len(want.Events) || len(c.Diagnostics) != 2 {
		t.Fatalf("%d events, diagnostics %v; want %d events and 2 diagnostics", len(c.Events), c.Diagnostics, len(want.Events))
	}
	for k, d := range c.Diagnostics {
		quote := fmt.Sprintf("%q", lines[bad[k]][:30])
		if d.Kind != "bad-time" || d.Offset != offset(bad[k]) || d.Line != bad[k]+1 || !strings.Contains(d.Msg, quote) {
			t.Errorf("diagnostic %+v, want bad-time at offset %d quoting %s", d, offset(bad[k]), quote)
		}
	}
	for i, e := range c.Events {
		if e.RV != want.Events[i].RV || e.Arrival < want.Events[0].Arrival || e.Arrival > want.Events[len(want.Events)-1].Arrival {
			t.Errorf("event %d: RV %s arrived %v; want RV %s within the capture's times", i, e.RV, time.Unix(0, e.Arrival).UTC(), want.Events[i].RV)
		}
	}
}
