package cli

import (
	"regexp"
	"testing"
	"time"
)

// writtenInstant is an instant as the text and Markdown reports write it,
// with its zone's name.
var writtenInstant = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} ([A-Z]+|[-+]\d\d(:?\d\d)?)`)

// TestAnalyzeTimeZone: --time-zone writes every instant of the text and
// Markdown reports (summary, tables, the --fail-on reason) in the zone
// asked, naming it, at the same instants as the UTC report; the JSON
// report stays UTC, byte for byte; an unknown zone is bad usage.
func TestAnalyzeTimeZone(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatalf("this machine has no zone database: %v", err)
	}
	args := []string{"--resume-at", "+30s", "--fail-on", "410", "samples/w3-then-resume.ts.http", "samples/w4-then-resume.ts.http"}
	for _, format := range []string{"text", "md"} {
		_, utc, utcErr := analyze(t, append([]string{"--format", format}, args...)...)
		_, local, localErr := analyze(t, append([]string{"--format", format, "--time-zone", "Europe/Paris"}, args...)...)
		for _, pair := range [][2]string{{utc, local}, {utcErr, localErr}} {
			want, got := writtenInstant.FindAllStringSubmatch(pair[0], -1), writtenInstant.FindAllStringSubmatch(pair[1], -1)
			if len(want) == 0 || len(got) != len(want) {
				t.Fatalf("%s: %d instants in UTC, %d in Europe/Paris; the test needs some, and as many", format, len(want), len(got))
			}
			for k := range want {
				u, errU := time.Parse("2006-01-02 15:04:05.000 MST", want[k][0])
				p, errP := time.ParseInLocation("2006-01-02 15:04:05.000 MST", got[k][0], paris)
				if errU != nil || errP != nil || !u.Equal(p) || want[k][1] != "UTC" || got[k][1] != "CET" {
					t.Errorf("%s: instant %d is %q in UTC, %q in Europe/Paris: want the same instant, in CET", format, k, want[k][0], got[k][0])
				}
			}
		}
	}
	_, utcJSON, _ := analyze(t, append([]string{"--format", "json"}, args...)...)
	_, parisJSON, _ := analyze(t, append([]string{"--format", "json", "--time-zone", "Europe/Paris"}, args...)...)
	if utcJSON != parisJSON {
		t.Errorf("--time-zone changed the JSON report, which stays UTC")
	}
	if code, _, _ := analyze(t, "--time-zone", "local", "samples/w3-then-resume.ts.http"); code != 0 {
		t.Errorf("--time-zone local: exit %d, want 0", code)
	}
	if code, _, stderr := analyze(t, "--time-zone", "Mars/Olympus", "samples/w3-then-resume.ts.http"); code != 2 || !regexp.MustCompile(`unknown time zone "Mars/Olympus"`).MatchString(stderr) {
		t.Errorf("--time-zone Mars/Olympus: exit %d (%q), want 2 and a message naming it", code, stderr)
	}
}
