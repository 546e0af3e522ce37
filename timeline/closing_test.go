package timeline

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// TestClosingFromScrapesAndServerLogs: in samples-lab each old process
// stopped taking new requests at its SIGTERM (timeline.txt: 18:12:28.94,
// 18:13:58.33, 18:15:27.82), which its scrapes bound within two seconds,
// a minute before it ended its watches and exited; its audit log's
// instant, within those bounds, is its closing, and no request of the
// fleet reached it from then on (attribution.tsv: each
// request's server and process by its Audit-Id); the new processes ran
// to the end of the exports. samples-watchlist's
// servers log it ("NotAcceptingNewRequest"). samples-outage's exports do
// not show it: their scrapes failed under load to their end, which came
// before the processes'. (Audit logs: TestClosingFromAuditLogs.)
func TestClosingFromScrapesAndServerLogs(t *testing.T) {
	lab := buildRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz")
	sigterm := map[string]string{"a": "2026-12-01T18:12:28.94Z", "b": "2026-12-01T18:13:58.33Z", "c": "2026-12-01T18:15:27.82Z"}
	late := map[string]int{}
	for _, rq := range labTable(t, "attribution.tsv") {
		for _, srv := range lab.Servers {
			if old := srv.Incarnations[0]; rq["audit_incarnation"] == srv.Name+"1" && old.Closing != 0 && instant(t, rq["request_time"]) >= old.Closing {
				late[srv.Name]++
			}
		}
	}
	for _, srv := range lab.Servers {
		if len(srv.Incarnations) != 2 {
			t.Fatalf("server %s: %d processes, want 2", srv.Name, len(srv.Incarnations))
		}
		old, term := srv.Incarnations[0], instant(t, sigterm[srv.Name])
		after, by := lab.Metrics.scrapesBoundClosing(srv.Metrics, old.From, old.To)
		if after >= term || by < term || by-after > int64(2*time.Second) || old.To-by < int64(50*time.Second) {
			t.Errorf("server %s's old process: its scrapes bound its closing between %s and %s, ended at %s; SIGTERM at %s", srv.Name, FormatInstant(after, time.UTC), FormatInstant(by, time.UTC), FormatInstant(old.To, time.UTC), sigterm[srv.Name])
		}
		// Its audit log's instant, within the bounds, is the closer.
		if old.ClosingSource != ClosingAudited || old.Closing <= after || old.Closing > by || late[srv.Name] > 0 {
			t.Errorf("server %s's old process: closing at %s (%v), %d requests after it; its scrapes bound it between %s and %s", srv.Name, FormatInstant(old.Closing, time.UTC), old.ClosingSource, late[srv.Name], FormatInstant(after, time.UTC), FormatInstant(by, time.UTC))
		}
		// Stopped after the exports' last scrape: only its audit log
		// shows its end.
		if inc := srv.Incarnations[1]; inc.Closing != 0 && inc.ClosingSource != ClosingExited {
			t.Errorf("server %s's new process closing at %s, from its %v; its scrapes ran to the end", srv.Name, FormatInstant(inc.Closing, time.UTC), inc.ClosingSource)
		}
	}
	for _, srv := range buildRecording(t, "samples-outage", "audit-*.log", "prometheus/query_range/*.json.gz").Servers {
		if inc := srv.Incarnations[0]; inc.ClosingSource == ClosingScraped {
			t.Errorf("samples-outage's exports: server %s closing at %s", srv.Name, FormatInstant(inc.Closing, time.UTC))
		}
	}

	wl := buildRecording(t, "samples-watchlist", "audit-*.log", "apiserver-*.log")
	logged := map[string]string{"a": "2026-12-01T18:45:46.413352Z", "b": "2026-12-01T18:47:16.706853Z", "c": "2026-12-01T18:48:46.712617Z"}
	for _, srv := range wl.Servers {
		if got := srv.Incarnations[0]; got.Closing != instant(t, logged[srv.Name]) || got.ClosingBy != got.Closing {
			t.Errorf("server %s's old process closing between %s and %s, its log says %s", srv.Name, FormatInstant(got.Closing, time.UTC), FormatInstant(got.ClosingBy, time.UTC), logged[srv.Name])
		}
	}
}

// TestClosingFromAuditLogs: from audit logs alone, each process of
// samples-lab, -fleet and -watchlist stopped taking new requests when
// its own informers' watches ended, which its log shows, with no request
// received after: each old process a minute before it ended the watches
// it still served, each last one, stopped after the fleet with no
// client's watch open, as it exited. Each closing is within 150 ms after
// the process's SIGTERM (timeline.txt), and no request of the lab's
// fleet reached an old process from its closing on (attribution.tsv).
func TestClosingFromAuditLogs(t *testing.T) {
	for _, c := range []struct {
		recording string
		sigterms  map[string][2]string // per server, its processes' SIGTERMs
	}{
		{"samples-lab", map[string][2]string{
			"a": {"2026-12-01T18:12:28.936939300Z", "2026-12-01T18:22:35.289057801Z"},
			"b": {"2026-12-01T18:13:58.326711240Z", "2026-12-01T18:22:36.813510468Z"},
			"c": {"2026-12-01T18:15:27.818159848Z", "2026-12-01T18:22:38.328488143Z"}}},
		{"samples-fleet", map[string][2]string{
			"a": {"2026-12-01T08:40:32.35Z", "2026-12-01T08:49:55.344813182Z"},
			"b": {"2026-12-01T08:44:07.07Z", "2026-12-01T08:49:57.445832347Z"}}},
		{"samples-watchlist", map[string][2]string{
			"a": {"2026-12-01T18:45:46.391443513Z", "2026-12-01T18:54:24.520994595Z"},
			"b": {"2026-12-01T18:47:16.647734528Z", "2026-12-01T18:54:26.456740399Z"},
			"c": {"2026-12-01T18:48:46.704708575Z", "2026-12-01T18:54:28.199115062Z"}}},
	} {
		tl := buildRecording(t, c.recording, "audit-*.log")
		if len(tl.Servers) != len(c.sigterms) {
			t.Fatalf("%s: %d servers, want %d", c.recording, len(tl.Servers), len(c.sigterms))
		}
		for _, srv := range tl.Servers {
			if len(srv.Incarnations) != 2 {
				t.Fatalf("%s: server %s has %d processes, want 2", c.recording, srv.Name, len(srv.Incarnations))
			}
			for k, inc := range srv.Incarnations {
				term, how := instant(t, c.sigterms[srv.Name][k]), []ClosingSource{ClosingAudited, ClosingExited}[k]
				if inc.ClosingSource != how || inc.Closing != inc.ClosingBy || inc.Closing < term || inc.Closing > term+int64(150*time.Millisecond) {
					t.Errorf("%s: server %s's process %d closing at %s (%v), SIGTERM at %s", c.recording, srv.Name, k+1, FormatInstant(inc.Closing, time.UTC), inc.ClosingSource, c.sigterms[srv.Name][k])
				}
			}
			if c.recording != "samples-lab" {
				continue
			}
			old := srv.Incarnations[0]
			for _, rq := range labTable(t, "attribution.tsv") {
				if rq["audit_incarnation"] == srv.Name+"1" && instant(t, rq["request_time"]) >= old.Closing {
					t.Errorf("server %s's old process took %s at %s, after its closing", srv.Name, rq["request_uri"], rq["request_time"])
				}
			}
		}
	}
}

// TestReconnectWhileServerShutsDown: each of samples-lab's 425 resumes
// (probes.tsv), asked a second before it was sent: most came as an old
// process ended its watches, a minute after its SIGTERM, when no
// request reached it (TestClosingFromScrapesAndServerLogs), so none is
// said to go to a server shutting down then, whatever its client's
// connection was; and a reconnect is refused where every other server refuses it:
// the 410s the servers answered come out refused, none answered ok
// does. The restart line says when each old process stopped taking
// requests, and how the records show it.
func TestReconnectWhileServerShutsDown(t *testing.T) {
	a := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	files := map[string]int{}
	for k, f := range a.TL.Files {
		files[f.Name] = k
	}
	counts := map[string]int{}
	for _, pr := range labTable(t, "probes.tsv") {
		file, ok := files[pr["client"]+".ts.http"]
		if !ok {
			t.Fatalf("no capture of %s", pr["client"])
		}
		kind := map[string]CursorKind{"bookmark-aware": BookmarkAware, "bookmark-ignoring": BookmarkIgnoring}[pr["cursor_kind"]]
		at := instant(t, pr["probe_time"]) - int64(time.Second)
		per, likely := a.ResumeAtServers(file, kind, at)
		for _, sv := range per {
			if a.shuttingDown(sv.Server, at) {
				counts["during a shutdown"]++
				if sv.Server == likely || sv.Outcome != Unknown {
					t.Errorf("%s at %s: server %s, shutting down, is judged %v and likely %v", pr["client"], FormatInstant(at, time.UTC), a.TL.Servers[sv.Server].Name, sv.Outcome, sv.Server == likely)
				}
			}
		}
		var v Verdict
		for _, x := range a.ResumeAt(file, at) {
			if x.Kind == kind {
				v = x
			}
		}
		counts[fmt.Sprintf("%s %v", pr["answer"], v.Outcome)]++
	}
	t.Logf("the lab's resumes asked a second before: %v", counts)
	if counts["during a shutdown"] < 300 || counts["410 refused"] < 75 || counts["ok refused"] > 0 {
		t.Errorf("%v: want most asked while a server shut down, at least 75 of the 81 410s refused, none answered ok refused", counts)
	}
	want := "the old processes stopped taking new requests (a at 2026-12-01 18:12:28.955 UTC, b at 2026-12-01 18:13:58.337 UTC and c at 2026-12-01 18:15:27.911 UTC, as their audit logs show: their own informers' watches ended then, a minute before each ended the watches it still served: a reconnect from then on went to another server) and ended their watches"
	if line := summaryTopic(a, "restart"); !strings.Contains(line, want) {
		t.Errorf("the restart line %q does not say %q", line, want)
	}
}

// TestMetricsAloneCannotTellAShutdownFromARestart: from samples-lab's
// exports alone a server's process ends at its last answered scrape, a
// minute before it ended its watches, and its new process's start comes
// from its boot time: between the two, server a's answer at 18:12:59
// says it took no new request, shutting down or restarting, with the
// instants its metrics give, not that no process of it served (its
// watches streamed on to 18:13:28.955); its scrapes failing then, the
// load balancer cannot pick it, and the verdict's reason leaves it out
// of the servers that could answer. Server c's old process, whose last
// point is its new one's first (its boot time a second late), ends at
// its last answered scrape too: at 18:16:00 it is not picked either.
func TestMetricsAloneCannotTellAShutdownFromARestart(t *testing.T) {
	a := buildRecording(t, "samples-lab", "c100-nobookmarks.ts.http", "prometheus/query_range/*.json.gz").Analyze(realServer())
	per, _ := a.ResumeAtServers(0, BookmarkIgnoring, instant(t, "2026-12-01T18:12:59Z"))
	want := regexp.MustCompile(`^server a answered no scrape after 2026-12-01 18:12:29.000 UTC, its old process's last, until its new process started about 2026-12-01 18:13:3\d UTC: shutting down or restarting`)
	if len(per) != 3 || per[0].Incarnation >= 0 || !want.MatchString(per[0].Reason) {
		t.Errorf("server a at 18:12:59: %+v, want %s", per, want)
	}
	if per, _ := a.ResumeAtServers(0, BookmarkIgnoring, instant(t, "2026-12-01T18:16:00Z")); len(per) != 3 || per[2].Incarnation >= 0 {
		t.Errorf("server c at 18:16:00: %+v, want it taking no request", per)
	}
	for _, v := range a.ResumeAt(0, instant(t, "2026-12-01T18:12:59Z")) {
		switch {
		case v.Kind == HadBookmarks && (v.Outcome != Accepted || !strings.HasPrefix(v.Reason, "b and c, the API servers that could answer (a restarting), each holds")):
			t.Errorf("%v at 18:12:59: %v, %s", v.Kind, v.Outcome, v.Reason)
		case v.Kind != HadBookmarks && (v.Outcome != Refused || !strings.HasPrefix(v.Reason, "every API server that could answer: the evidence of each of b and c refuses")):
			t.Errorf("%v at 18:12:59: %v, %s", v.Kind, v.Outcome, v.Reason)
		}
	}
}

// TestNoAnswerOnceEveryServerShutDown: samples-outage's recording ends
// with its three servers stopped one after another (timeline.txt:
// SIGTERM to a at 19:14:50.21, b at 19:14:51.78, c at 19:14:53.30, each
// logged as it stopped taking new requests), and none starting again: a
// reconnect after c's closing finds no server to answer it, whatever its
// cursor, while one just before it reaches c. With a fourth server
// assumed (-servers 4), one the records do not show may still answer.
func TestNoAnswerOnceEveryServerShutDown(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log", "apiserver-*.log")
	p := realServer()
	p.Servers = 4
	if from := tl.Analyze(p).noneTakingFrom(); from != never {
		t.Errorf("with 4 servers assumed, no server takes requests from %s", FormatInstant(from, time.UTC))
	}
	a := tl.Analyze(realServer())
	last := a.noneTakingFrom()
	if want := instant(t, "2026-12-01T19:14:53.30Z"); last < want || last > want+int64(10*time.Millisecond) {
		t.Fatalf("no server takes requests from %s, want c's logged closing after its SIGTERM at 19:14:53.30", FormatInstant(last, time.UTC))
	}
	judged := func(at int64) (answered, unanswered int) {
		for fi := range a.TL.Files {
			for _, v := range a.ResumeAt(fi, at) {
				switch {
				case !v.HasCursor:
				case v.Outcome != Unknown:
					answered++
				case strings.Contains(v.Reason, "no API server took new requests") && strings.HasPrefix(a.Words(v), "not answered"):
					unanswered++
				default:
					t.Errorf("%s at %s: unknown, %q", a.TL.Files[fi].Name, FormatInstant(at, time.UTC), v.Reason)
				}
			}
		}
		return answered, unanswered
	}
	if answered, unanswered := judged(last - int64(time.Millisecond)); answered == 0 || unanswered > 0 {
		t.Errorf("just before c's closing: %d cursors judged, %d not answered; want every one judged (c took requests)", answered, unanswered)
	}
	if answered, unanswered := judged(last + int64(time.Second)); answered > 0 || unanswered == 0 {
		t.Errorf("a second after c's closing: %d cursors judged, %d not answered; want none judged", answered, unanswered)
	}
	fc, _ := a.FleetReconnect(ResumeQuery{Relative: true, After: time.Minute})
	if o := fc.With; o.NoServer == 0 || o.NoServer != o.Unknown-o.NoCursor || o.noHead() != 0 {
		t.Errorf("the fleet a minute after each recording's end, with bookmarks: %+v; want every client with a cursor unanswered", o)
	}
}

// TestNoClosingWithoutTheServersOwnInformers: samples-fleet's audit logs
// with every request of the servers' own loopback user left out, as an
// audit policy may: no informer's watch of a process shows when it was
// told to stop, and none is dated from the logs, though its clients'
// watches still end together a minute after each old process's SIGTERM.
func TestNoClosingWithoutTheServersOwnInformers(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-fleet"), "audit-*.log"))
	b := NewBuilder()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, line := range strings.Split(string(data), "\n") {
			if !strings.Contains(line, `"username":"`+apiserverUser+`"`) {
				kept = append(kept, line)
			}
		}
		if len(kept) == strings.Count(string(data), "\n")+1 {
			t.Fatalf("%s: no request of %s to leave out", p, apiserverUser)
		}
		if err := b.AddReader(filepath.Base(p), strings.NewReader(strings.Join(kept, "\n")), parser.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	tl := b.Build()
	if len(tl.Servers) != 2 {
		t.Fatalf("%d servers, want 2", len(tl.Servers))
	}
	for _, srv := range tl.Servers {
		for k, inc := range srv.Incarnations {
			if inc.Closing != 0 {
				t.Errorf("server %s's process %d closing at %s (%v), with no informer's watch to date it", srv.Name, k+1, FormatInstant(inc.Closing, time.UTC), inc.ClosingSource)
			}
		}
	}
}

// TestClosingWordsSayTheirRecord: each record says a closing its own
// way: its own log and its audit log at an instant, its scrapes between
// the last it answered and the first that failed.
func TestClosingWordsSayTheirRecord(t *testing.T) {
	at := func(t int64) string { return FormatClock(t, time.UTC) }
	t0 := instant(t, "2026-12-01T18:12:28.5Z")
	for _, c := range []struct {
		inc  Incarnation
		want string
	}{
		{Incarnation{Closing: t0, ClosingBy: t0, ClosingSource: ClosingLogged}, "at 18:12:28.500 UTC, as its own log shows"},
		{Incarnation{Closing: t0, ClosingBy: t0 + int64(2*time.Second), ClosingSource: ClosingScraped}, "between 18:12:28.499 UTC and 18:12:30.500 UTC, as its scrapes bound it"},
		{Incarnation{Closing: t0, ClosingBy: t0, ClosingSource: ClosingAudited}, "at 18:12:28.500 UTC, as its audit log shows: its own informers' watches ended then, a minute before it ended the watches it still served"},
		{Incarnation{Closing: t0, ClosingBy: t0, ClosingSource: ClosingExited}, "at 18:12:28.500 UTC, as its audit log shows: its own informers' watches ended then, together, as it exited with no client's watch open"},
		{Incarnation{}, ""},
	} {
		if got := c.inc.ClosingWords(at); got != c.want {
			t.Errorf("%v: %q, want %q", c.inc.ClosingSource, got, c.want)
		}
	}
}

// TestOneServersLogAloneLeavesOthersAnswering: samples-lab's captures
// with the audit log of a's first process alone. Its log dates its
// shutdown, and it is the one server the records show, yet the captures'
// requests were answered after it (by b and c): a reconnect then is not
// "not answered".
func TestOneServersLogAloneLeavesOthersAnswering(t *testing.T) {
	a := buildRecording(t, "samples-lab", "audit-a-1.log", "broad-a.ts.http", "c000-bookmarks.ts.http", "c101-nobookmarks.ts.http").Analyze(DefaultParams())
	if len(a.TL.Servers) != 1 || a.TL.Servers[0].Incarnations[0].ClosingSource != ClosingAudited {
		t.Fatalf("servers %+v: want a, its one process's closing from its audit log", a.TL.Servers)
	}
	if from := a.noneTakingFrom(); from != never {
		t.Errorf("no server takes a request from %s, but the captures' requests were answered after", FormatInstant(from, time.UTC))
	}
}
