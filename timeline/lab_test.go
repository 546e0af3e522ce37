package timeline

import (
	"fmt"
	"testing"
	"time"

	"watchlens/internal/testsample"
)

// labResumesRight is how many of the lab's 425 recorded resumes the
// postmortem predicts as the server answered: 378 before the servers
// were told apart, 380 with each server's own 410s, 421 with each
// server's metrics; the issue asks for 415.
const labResumesRight = 421

// The postmortem of the lab's rolling restart of three servers: every
// capture whole, every audit log and Prometheus export, the compaction
// interval the servers ran with. Each recorded resume (probes.tsv) is predicted for the
// server that answered it, from the evidence before it: none is
// contradicted, as a 410 of one server applied to all of them did.
func TestLabPostmortem(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	tl := b.Build()
	p := DefaultParams()
	p.EtcdInterval = time.Minute
	a := tl.Analyze(p)
	type key struct {
		file  string
		start int64
	}
	resumes := map[key]Resume{}
	for _, r := range a.Resumes {
		s := &tl.Sessions[r.Session]
		resumes[key{tl.Files[s.File].Name, s.Start}] = r
	}
	outcome := map[string]Outcome{"ok": Accepted, "410": Refused}
	counts := map[string]int{}
	for _, pr := range labTable(t, "probes.tsv") {
		r, ok := resumes[key{pr["client"] + ".ts.http", instant(t, pr["probe_time"])}]
		if !ok {
			t.Errorf("%s's resume at %s (line %s) is not one of the analysis's", pr["client"], pr["probe_time"], pr["line"])
			continue
		}
		what := fmt.Sprintf("%s's resume from RV %s at %s", pr["client"], r.RV, pr["probe_time"])
		if got := serverOf(tl, r.Session); got != pr["incarnation"] {
			t.Errorf("%s: answered by %s, want %s", what, got, pr["incarnation"])
		}
		if want := outcome[pr["answer"]]; r.Observed != want {
			t.Errorf("%s: observed %v, the server answered %s", what, r.Observed, pr["answer"])
		}
		switch {
		case r.Contradicts():
			counts["wrong"]++
			t.Errorf("%s: predicted %v, the server answered %s: %s", what, r.Predicted.Outcome, pr["answer"], r.Predicted.Reason)
		case r.Predicted.Outcome == r.Observed:
			counts["right"]++
		default:
			counts[r.Predicted.Outcome.String()]++
			t.Logf("%s on %s, answered %s: %v, %s; %s", what, pr["incarnation"], pr["answer"], r.Predicted.Outcome, r.Predicted.Reason, modelReason(r.Predicted, ModelServerCache))
		}
	}
	t.Logf("the lab's 425 resumes: %v", counts)
	if counts["right"] < labResumesRight {
		t.Errorf("%d resumes predicted right, want at least %d: %v", counts["right"], labResumesRight, counts)
	}
}

// From the lab's audit logs and its Prometheus exports alone, every
// client's relists equal TRUTH.tsv's, and every reconnect is judged: the
// exports show each server's head where no capture does.
func TestLabAuditLogsAndMetricsJudgeEveryReconnect(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz")
	truth := testsample.ReadTruth(t, testsample.Recording(t, "samples-lab"))
	fl := tl.Analyze(realServer()).Fleet()
	if len(fl.Clients) != len(truth) {
		t.Errorf("%d clients, TRUTH.tsv has %d", len(fl.Clients), len(truth))
	}
	for _, c := range fl.Clients {
		key, named := auditTruthKey(tl, c.File)
		if !named {
			t.Errorf("%s: no TRUTH.tsv client", c.Name)
			continue
		}
		if want := truth.Int(t, key, "relists"); len(c.Relists) != want {
			t.Errorf("%s: %d relists, TRUTH.tsv %d", key, len(c.Relists), want)
		}
	}
	if fl.UnknownWith+fl.UnknownWithout != 0 || fl.RelistsObserved != 81 {
		t.Errorf("%d relists; %d reconnects with bookmarks and %d without could not be judged", fl.RelistsObserved, fl.UnknownWith, fl.UnknownWithout)
	}
}

// The lab's metrics name the servers as its audit logs do; renamed, the
// audit logs' servers are matched to the metrics' by their restarts, and
// with no audit log the servers are the metrics' own, each restarted
// once.
func TestLabMetricServersMatchAuditServers(t *testing.T) {
	for _, c := range []struct {
		what   string
		rename map[string]string
		audit  bool
		want   map[string]string
	}{
		{"by name", nil, true, map[string]string{"a": "a", "b": "b", "c": "c"}},
		{"by restarts", map[string]string{"audit-a-1.log": "audit-x-1.log", "audit-a-2.log": "audit-x-2.log", "audit-b-1.log": "audit-y-1.log",
			"audit-b-2.log": "audit-y-2.log", "audit-c-1.log": "audit-z-1.log", "audit-c-2.log": "audit-z-2.log"}, true, map[string]string{"x": "a", "y": "b", "z": "c"}},
		{"metrics alone", nil, false, map[string]string{"a": "a", "b": "b", "c": "c"}},
	} {
		b := NewBuilder()
		patterns := []string{"prometheus/query_range/*.json.gz"}
		if c.audit {
			patterns = append(patterns, "audit-*.log")
		}
		addLab(t, b, c.rename, patterns...)
		tl := b.Build()
		got := map[string]string{}
		for _, s := range tl.Servers {
			got[s.Name] = s.Metrics
			if len(s.Incarnations) != 2 {
				t.Errorf("%s: server %s has %d processes, want 2", c.what, s.Name, len(s.Incarnations))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: servers %v, want %v", c.what, got, c.want)
		}
	}
}

// modelReason is model m's reason in verdict v, "" when it had none.
func modelReason(v Verdict, m Model) string {
	for _, mv := range v.Models {
		if mv.Model == m {
			return mv.Reason
		}
	}
	return ""
}
