package engine_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"watchlens/app/engine"
	"watchlens/app/engine/enginetest"
	"watchlens/cli"
	"watchlens/internal/testsample"
	"watchlens/report"
	"watchlens/timeline"
)

// analyze is what `watchlens analyze` writes of the files at paths with
// args before them.
func analyze(t *testing.T, paths []string, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if code := cli.Main(append(append([]string{"analyze"}, args...), paths...), &out, &errs); code != 0 && code != 1 {
		t.Fatalf("watchlens analyze %v exited %d: %s", args, code, errs.String())
	}
	return out.String()
}

// TestReportIsTheCommandLines: every report the page exports is what
// `watchlens analyze` writes of the same files in the same zone: one
// capture whose verdict is a 410, and the fleet recording (captures and
// audit logs); the JSON report stays UTC in another zone; the summary to
// paste ends with the view's link.
func TestReportIsTheCommandLines(t *testing.T) {
	for _, c := range []struct {
		name  string
		paths []string
		zone  string
	}{
		{"w4-then-resume", []string{testsample.Sample(t, "w4-then-resume.ts.http")}, "Europe/Paris"},
		{"the fleet", testsample.FleetRecords(t), "UTC"},
	} {
		t.Run(c.name, func(t *testing.T) {
			params := timeline.DefaultParams()
			loc, err := timeline.ParseZone(c.zone)
			if err != nil {
				t.Fatal(err)
			}
			if loc != time.UTC {
				params.Zone = loc
			}
			e, _ := enginetest.Open(t, params, testsample.AsGiven, c.paths...)
			for _, f := range []struct {
				format engine.ReportFormat
				cli    string
			}{{engine.ReportMarkdown, "markdown"}, {engine.ReportJSON, "json"}, {engine.ReportPerfetto, "perfetto"}} {
				got, err := e.Report(f.format, "")
				if err != nil {
					t.Fatal(err)
				}
				want := analyze(t, c.paths, "--format", f.cli, "--time-zone", c.zone)
				if got != want || len(got) < 200 {
					t.Errorf("the %s report (%d bytes) is not what watchlens analyze --format %s --time-zone %s writes (%d bytes):\n%.600s\n---\n%.600s",
						f.format, len(got), f.cli, c.zone, len(want), got, want)
				}
			}
			if loc != time.UTC {
				md, _ := e.Report(engine.ReportMarkdown, "")
				utc := analyze(t, c.paths, "--format", "markdown")
				if md == utc {
					t.Errorf("the Markdown report in %s is the one in UTC: the zone proves nothing", c.zone)
				}
				js, _ := e.Report(engine.ReportJSON, "")
				if js != analyze(t, c.paths, "--format", "json") {
					t.Errorf("the JSON report in %s is not the one in UTC", c.zone)
				}
			}
			var rep report.Report
			js, _ := e.Report(engine.ReportJSON, "")
			if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Files) != len(e.Timeline().Files) {
				t.Errorf("the JSON report reads back with %d files of %d: %v", len(rep.Files), len(e.Timeline().Files), err)
			}

			const link = "https://watchlens.example/?sample=w4"
			paste, err := e.Report(engine.ReportPaste, link)
			if err != nil {
				t.Fatal(err)
			}
			verdict := 0
			for _, ln := range strings.Split(paste, "\n") {
				if strings.HasPrefix(ln, "- ") {
					verdict++
				}
			}
			if !strings.HasPrefix(paste, "**watchlens** on `"+e.Timeline().Files[0].Name+"`") || !strings.HasSuffix(paste, "("+link+")\n") || verdict != len(rep.Summary) {
				t.Errorf("the summary to paste does not name the files, the %d lines of the verdict (it has %d) and the link:\n%s", len(rep.Summary), verdict, paste)
			}
		})
	}
	e, _ := enginetest.Open(t, timeline.DefaultParams(), testsample.AsGiven, testsample.Sample(t, "w4-then-resume.ts.http"))
	if _, err := e.Report("html", ""); err == nil {
		t.Error("a report in a format there is none of was written")
	}
}
