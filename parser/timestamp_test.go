package parser

import (
	"bytes"
	"os"
	"reflect"
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
	for i, e := range timed.Events {
		if !known[e.Arrival] {
			t.Fatalf("event %d arrival %v is no time the clock gave", i, time.Unix(0, e.Arrival).UTC())
		}
		e.Arrival, e.Offset, e.Length, e.Identity = 0, plain.Events[i].Offset, plain.Events[i].Length, plain.Events[i].Identity
		if !reflect.DeepEqual(e, plain.Events[i]) {
			t.Fatalf("event %d: %+v, want %+v", i, e, plain.Events[i])
		}
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
