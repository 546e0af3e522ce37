package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// labReport reports the lab's postmortem: every capture and audit log,
// the servers' compaction interval.
func labReport(t *testing.T) (*Report, string) {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.ts.http"))
	logs, _ := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	b := timeline.NewBuilder()
	for _, path := range append(paths, logs...) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(filepath.Base(path), f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	p := timeline.DefaultParams()
	p.EtcdInterval = time.Minute
	return New(b.Build().Analyze(p), nil), dir
}

// labRows reads one of the lab's tables by column name.
func labRows(t *testing.T, dir, name string) []map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(testsample.Read(t, filepath.Join(dir, name)))), "\n")
	head := strings.Split(lines[0], "\t")
	var out []map[string]string
	for _, ln := range lines[1:] {
		row := map[string]string{}
		for i, c := range strings.Split(ln, "\t") {
			row[head[i]] = c
		}
		out = append(out, row)
	}
	return out
}

// The lab's report names the server that answered each resume and
// session, and the servers each client went through, as the recording's
// tables do; the text report says them too.
func TestLabReportNamesServers(t *testing.T) {
	r, dir := labReport(t)
	if len(r.Servers) != 3 {
		t.Fatalf("servers %+v, want a, b and c", r.Servers)
	}
	for _, s := range r.Servers {
		if len(s.Incarnations) != 2 || s.Incarnations[1].Logs[0] != "audit-"+s.Name+"-2.log" {
			t.Errorf("server %s: %+v, want its two processes' logs", s.Name, s.Incarnations)
		}
	}
	type key struct{ file, time string }
	resumes := map[key]ResumeReport{}
	for _, rs := range r.Resumes {
		resumes[key{rs.File, rs.Time}] = rs
	}
	probes := labRows(t, dir, "probes.tsv")
	for _, pr := range probes {
		rs, ok := resumes[key{pr["client"] + ".ts.http", pr["probe_time"]}]
		if !ok {
			t.Errorf("%s's resume at %s is not in the report", pr["client"], pr["probe_time"])
			continue
		}
		if got := fmt.Sprintf("%s%d", rs.Server, rs.Incarnation); got != pr["incarnation"] || rs.Contradicts {
			t.Errorf("%s's resume at %s: server %s, contradicts %v (%s); want %s, not contradicted", pr["client"], pr["probe_time"], got, rs.Contradicts, rs.Reason, pr["incarnation"])
		}
	}
	for _, s := range r.Sessions {
		if s.Request != nil && s.Server == "" {
			t.Errorf("%s session %d: no server", s.File, s.Index)
		}
	}
	truth := testsample.ReadTruth(t, dir)
	rows := 0
	for _, c := range r.Fleet.Rows {
		client, ok := strings.CutSuffix(c.File, ".ts.http")
		if !ok {
			continue
		}
		rows++
		var want []string
		for _, s := range strings.Split(truth[client]["servers"], ">") {
			if s = s[:len(s)-1] + "#" + s[len(s)-1:]; len(want) == 0 || want[len(want)-1] != s {
				want = append(want, s)
			}
		}
		if strings.Join(c.Servers, ">") != strings.Join(want, ">") {
			t.Errorf("%s went through %q, want %q (TRUTH.tsv %s)", client, c.Servers, want, truth[client]["servers"])
		}
	}
	if rows != 207 {
		t.Errorf("%d of the fleet's rows are captures, want 207", rows)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"API servers (from their audit logs)", "a#2     2026-12-01 18:13:31.728 UTC", "a#1 → b#1 → c#1 → a#2"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report does not say %q", want)
		}
	}
	// The Markdown names the path with the same arrows: a ">" between
	// the processes would be written as "&gt;" in the file pasted.
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if want := "a#1 → b#1 → c#1 → a#2"; !strings.Contains(md.String(), want) || strings.Contains(md.String(), "&gt;") {
		t.Errorf("the Markdown report does not say %q, or says &gt;", want)
	}
	if !strings.Contains(text.String(), "  server  observed  predicted") {
		t.Errorf("the text report's resumes have no server column")
	}
}

// TestServersOfMetricsAlone: the lab's Prometheus exports alone name the
// three servers and their processes; the section says they come from
// the metrics, not "from their audit logs", which none were given.
func TestServersOfMetricsAlone(t *testing.T) {
	r := New(loadRecording(t, "samples-lab", "prometheus/query_range/*.json.gz").Analyze(realServer()), nil)
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if len(r.Servers) != 3 || !strings.Contains(text.String(), "API servers (from their metrics)") || strings.Contains(text.String(), "from their audit logs") {
		t.Errorf("%d servers; the text report:\n%.600s", len(r.Servers), text.String())
	}
}
