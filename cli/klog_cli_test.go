package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"watchlens/report"
)

// TestAnalyzeKlog: a client-go log given alone is read as its clients'
// lists and watches, in the year --log-date (or its alias --log-year)
// names, or else the clock's, which the report then says it assumed.
func TestAnalyzeKlog(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		year     string
		diagnose bool
	}{
		{[]string{"--log-year", "2019"}, "2019-12-01T18:09:28.95011", false},
		{[]string{"--log-date", "2019"}, "2019-12-01T18:09:28.95011", false},
		{[]string{"--log-date", "2019-03-04"}, "2019-12-01T18:09:28.95011", false},
		{[]string{"--log-date", "2019-03-04", "--log-year", "2019"}, "2019-12-01T18:09:28.95011", false},
		{nil, "-12-01T18:09:28.95011", true},
	} {
		code, out, errOut := analyze(t, append(append([]string{"--format", "json"}, tc.args...), "parser/testdata/klog-legacy.log")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		var rep report.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Files) != 3 || !strings.Contains(rep.Files[0].Start, tc.year) {
			t.Errorf("%v: files %+v, want 3 clients from %s", tc.args, rep.Files, tc.year)
		}
		noYear := false
		for _, d := range rep.Diagnostics {
			noYear = noYear || d.Kind == "no-year"
		}
		if noYear != tc.diagnose {
			t.Errorf("%v: a no-year diagnostic %v, want %v: %+v", tc.args, noYear, tc.diagnose, rep.Diagnostics)
		}
	}
	for _, args := range [][]string{{"--log-year", "-1"}, {"--log-date", "19"}, {"--log-year", "2018", "--log-date", "2019"}} {
		if code, _, _ := analyze(t, append(args, "parser/testdata/klog-legacy.log")...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestAnalyzeLogDate: a fabric8 log in logback's default pattern (a time
// of day, no date) is read on the date --log-date names, and a client-go
// log given with it in that date's year: one flag serves both; a date
// that does not read is refused.
func TestAnalyzeLogDate(t *testing.T) {
	b, err := os.ReadFile("parser/testdata/fabric8-informer.log")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "fabric8-tod.log")
	if err := os.WriteFile(p, regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d `).ReplaceAll(b, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := analyze(t, "--format", "json", "--log-date", "2019-03-04", p, "parser/testdata/klog-legacy.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	fabric8, klog := false, false
	for _, f := range rep.Files {
		fabric8 = fabric8 || strings.HasSuffix(f.Name, "fabric8-tod.log)") && strings.HasPrefix(f.Start, "2019-03-04T18:09:29")
		klog = klog || strings.HasSuffix(f.Name, "klog-legacy.log)") && strings.HasPrefix(f.Start, "2019-12-01T18:09:28.95011")
	}
	if !fabric8 || !klog {
		t.Errorf("files %+v, want the fabric8 informers from 2019-03-04T18:09:29 and the client-go clients from 2019-12-01T18:09:28.95011", rep.Files)
	}
	if code, _, _ := analyze(t, "--log-date", "4 March", p); code != 2 {
		t.Errorf("--log-date \"4 March\": exit %d, want 2", code)
	}
}
