package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

var (
	// A time of day, as any surface may write one.
	clockTime = regexp.MustCompile(`\d\d:\d\d(:\d\d(\.\d+)?)?`)
	// The JSON contract's form of an instant, for its time fields only.
	contractTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$`)
	// Durations in another style than FormatDuration's: "0.816 s",
	// "1m36.427s", "1.333s".
	otherDuration = regexp.MustCompile(`\b\d+(\.\d+)? s\b|\b\d+\.\d{2,}s\b`)
	// The summary's "at a reconnect at T its cursor was D old".
	summaryAge = regexp.MustCompile(`reconnect at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC) its cursor was (\S+) old`)
)

// TestOneTimeForm renders every surface of the CLI (text, Markdown, the
// JSON's sentences, the --fail-on reason on stderr) for real captures and
// holds them to one form: every instant with its zone, every duration in
// one style, and one value written as one string wherever it appears (the
// summary's cursor age and the --resume-at table's, for the same cursor
// and instant).
func TestOneTimeForm(t *testing.T) {
	// The built-in samples: samples-real's recordings.
	files := []string{"samples/w3-then-resume.ts.http", "samples/w1-broad-configmaps-bookmarks.ts.http", "samples/w4-then-resume.ts.http"}
	args := append([]string{"--resume-at", "+30s", "--fail-on", "risk"}, files...)
	surfaces := map[string]string{}
	code, text, stderr := analyze(t, args...)
	if code != 1 {
		t.Fatalf("--fail-on risk over w4's refused resume: exit %d, want 1 (%s)", code, stderr)
	}
	surfaces["text"] = text
	// --fail-on names the first refused reconnect, with its time.
	_, _, surfaces["stderr"] = analyze(t, "--fail-on", "410", "samples/w4-then-resume.ts.http")
	_, surfaces["markdown"], _ = analyze(t, append([]string{"--format", "md"}, args...)...)
	_, js, _ := analyze(t, append([]string{"--format", "json"}, args...)...)
	var rep any
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	var sentences []string
	jsonStrings(rep, func(s string) {
		if !contractTime.MatchString(s) {
			sentences = append(sentences, s)
		}
	})
	surfaces["JSON sentences"] = strings.Join(sentences, "\n")

	for name, out := range surfaces {
		times := 0
		for _, loc := range clockTime.FindAllStringIndex(out, -1) {
			times++
			if !strings.HasPrefix(out[loc[1]:], " UTC") {
				t.Errorf("%s: the time %q has no zone: %q", name, out[loc[0]:loc[1]], around(out, loc))
			}
		}
		if times == 0 {
			t.Errorf("%s: no time at all; the test tests nothing", name)
		}
		for _, loc := range otherDuration.FindAllStringIndex(out, -1) {
			t.Errorf("%s: a duration in another style: %q", name, around(out, loc))
		}
	}
	// The summary reads the same on every surface.
	var summary []struct{ Text string }
	if err := json.Unmarshal([]byte(js), &struct{ Summary *[]struct{ Text string } }{&summary}); err != nil || len(summary) == 0 {
		t.Fatalf("the JSON's summary: %v", err)
	}
	for _, l := range summary {
		for _, name := range []string{"text", "markdown"} {
			if !strings.Contains(surfaces[name], l.Text) {
				t.Errorf("%s lacks the summary's line %q", name, l.Text)
			}
		}
	}
	// The cursor age the summary gives for a reconnect is the string the
	// --resume-at table gives for that reconnect and cursor.
	pairs := 0
	for _, m := range summaryAge.FindAllStringSubmatch(text, -1) {
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, m[1]) && strings.Contains(line, " bookmark-aware ") {
				pairs++
				if !strings.Contains(line, "last current "+m[2]+" ") {
					t.Errorf("the summary's cursor was %s old at %s; the --resume-at table says %q", m[2], m[1], line)
				}
			}
		}
	}
	if pairs == 0 {
		t.Errorf("no reconnect is both in the summary and the --resume-at table; the test tests nothing:\n%s", text)
	}
}

// jsonStrings calls f with every string of a decoded JSON value.
func jsonStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []any:
		for _, e := range v {
			jsonStrings(e, f)
		}
	case map[string]any:
		for _, e := range v {
			jsonStrings(e, f)
		}
	}
}

func around(s string, loc []int) string {
	return s[max(loc[0]-60, 0):min(loc[1]+30, len(s))]
}
