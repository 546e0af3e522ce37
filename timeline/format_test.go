package timeline

import (
	"math/rand/v2"
	"testing"
	"time"
	_ "time/tzdata" // the zones below, under node too
)

// FormatTime, FormatInstant and FormatClock write what time.Format
// writes with their layouts, in zones east and west of UTC, with
// half-hour and quarter-hour offsets and summer times, from before 1970
// to past 9999 (which Format writes itself).
func TestFormatsAreTimeFormats(t *testing.T) {
	var zones []*time.Location
	for _, name := range []string{"UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "America/Sao_Paulo"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		zones = append(zones, loc)
	}
	zones = append(zones, time.FixedZone("", 3*3600+1800), nil)
	rng := rand.New(rand.NewPCG(1, 2))
	instants := []int64{0, -1, 1, 999_999_999, -999_999_999, 1796149278_123456789, time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC).UnixNano()}
	for range 20000 {
		instants = append(instants, rng.Int64N(1<<62)-1<<61)
	}
	for _, ns := range instants {
		u := time.Unix(0, ns).UTC()
		if got, want := FormatTime(ns, ClockArrival), u.Format(timeLayout); got != want {
			t.Fatalf("FormatTime(%d) = %s, Format: %s", ns, got, want)
		}
		for _, loc := range zones {
			z := time.Unix(0, ns).In(zoneOr(loc))
			if got, want := FormatInstant(ns, loc), z.Format("2006-01-02 15:04:05.000 MST"); got != want {
				t.Fatalf("FormatInstant(%d, %v) = %s, Format: %s", ns, loc, got, want)
			}
			if got, want := FormatClock(ns, loc), z.Format("15:04:05.000 MST"); got != want {
				t.Fatalf("FormatClock(%d, %v) = %s, Format: %s", ns, loc, got, want)
			}
		}
	}
}

// TestFormatSecond: the lab's server a restarted, by its metrics'
// process_start_time_seconds, at 18:13:29.140, which a whole second of
// boot time makes good to about a second: said to the second, rounded.
func TestFormatSecond(t *testing.T) {
	at := time.Date(2026, 12, 1, 18, 13, 29, 140e6, time.UTC).UnixNano()
	if got := FormatSecond(at, nil); got != "2026-12-01 18:13:29 UTC" {
		t.Errorf("%q", got)
	}
	if got := FormatSecond(at+400e6, nil); got != "2026-12-01 18:13:30 UTC" {
		t.Errorf("half a second on: %q", got)
	}
}
