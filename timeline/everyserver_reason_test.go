package timeline

import (
	"strconv"
	"strings"
	"testing"
)

// TestEveryServerRefusedByTheLastToAnswer: where no one server's 410
// decides a reconnect but every server had answered one, the reason
// says by when: the instant the last of them answered one keeping
// nothing below the floor it names (samples-outage's server c answered
// 24 ms after a and b), not the instant of the error that set the
// floor, the lowest server's.
func TestEveryServerRefusedByTheLastToAnswer(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	a := tl.Analyze(realServer())
	// byAll is when the last server had answered a 410 keeping nothing
	// below y, of the resource.
	byAll := func(resource string, y uint64) int64 {
		first := make([]int64, len(tl.Servers))
		for g := range tl.Sessions {
			s := &tl.Sessions[g]
			if s.Error != nil && s.Error.TooOld && s.Error.Y >= y && s.Server >= 0 && tl.ResourceOf(s.File) == resource &&
				(first[s.Server] == 0 || s.End < first[s.Server]) {
				first[s.Server] = s.End
			}
		}
		last := int64(0)
		for _, f := range first {
			if f == 0 {
				return never
			}
			last = max(last, f)
		}
		return last
	}
	told := map[string]bool{}
	for _, z := range a.Zones {
		why := a.ZoneReason(z)
		_, rest, ok := strings.Cut(why, "calibration: by ")
		if !ok {
			continue
		}
		at, rest, _ := strings.Cut(rest, " each of the")
		_, rest, _ = strings.Cut(rest, "none keeping an RV below ")
		floor, _, _ := strings.Cut(rest, " ")
		y, err := strconv.ParseUint(floor, 10, 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", tl.Files[z.File].Name, why, err)
		}
		if want := a.instant(byAll(tl.ResourceOf(z.File), y)); at != want {
			t.Errorf("%s: the zone from %s says %q; the last server answered at %s", tl.Files[z.File].Name, a.instant(z.From), why, want)
		}
		told[at] = true
	}
	if len(told) < 2 {
		t.Fatalf("zones refused by every server's 410s at %v: want two instants or more", told)
	}
}
