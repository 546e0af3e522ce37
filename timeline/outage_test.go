package timeline

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOutageServersUp: samples-outage's load balancer stopped listening
// for 150 s while the three API servers stayed up (README: the servers
// are not restarted). Given the captures with the servers' audit logs,
// their own logs, or both (and the clients' klog and Prometheus exports),
// the outage names the servers shown up meanwhile, the 99 watches that
// the cut ended at once are no probable restart, and the summary says the
// clients' way to the servers was cut. Before, the audit logs' requests
// answered during the outage (loopback clients) ended it in the model, so
// that the summary told an API server restart beside the servers' logs
// saying there was none.
func TestOutageServersUp(t *testing.T) {
	const refused = "dial tcp 127.0.0.1:17600: connect: connection refused"
	for _, c := range []struct {
		name     string
		patterns []string
		up       []string
		answered bool // the audit logs show lists and watches answered
		logged   bool // the servers' own logs cover the outage
		says     string
	}{
		// Server a's loopback clients listed and watched meanwhile;
		// a's and b's logs show writes (the rig's churn, sent straight
		// to them), c's none, but one process of c from before to after.
		{"audit logs", []string{"*.ts.http", "audit-*.log"}, []string{"a", "b", "c"}, true, false, "API servers a, b and c were up meanwhile (the audit logs show 3 lists and watches and 314 other requests answered; the audit log of c shows one process from before to after, with no request reaching it)"},
		{"server logs", []string{"*.ts.http", "apiserver-*.log"}, []string{"a", "b", "c"}, false, true, "API servers a, b and c were up meanwhile"},
		{"every record", []string{"*.ts.http", "audit-*.log", "apiserver-*.log", "fleet-klog.log", "prometheus/query_range/*.json.gz"},
			[]string{"a", "b", "c"}, true, true, "API servers a, b and c were up meanwhile"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := buildRecording(t, "samples-outage", c.patterns...).Analyze(realServer())
			os := a.TL.Outages()
			if len(os) != 1 {
				t.Fatalf("outages %+v, want the load balancer's one", os)
			}
			o := os[0]
			if o.Attempts != 966 || o.Clients != 99 || !slices.Equal(o.Up, c.up) || (o.Answered > 0) != c.answered || o.Logged != c.logged {
				t.Errorf("outage %+v: want 966 attempts by 99 clients, servers %v up, answered %v, logged %v", o, c.up, c.answered, c.logged)
			}
			if o.Error != refused || o.ErrorAttempts != o.Attempts {
				t.Errorf("the attempts failed with %q (%d of %d), want each with %q", o.Error, o.ErrorAttempts, o.Attempts, refused)
			}
			for _, d := range a.Restarts {
				if d.Ended >= o.From-restartCluster && d.Ended <= o.LastAttempt {
					t.Errorf("probable restart %+v at the outage's start", d)
				}
			}
			lines := a.Summary(nil)
			if len(lines) == 0 || !strings.Contains(lines[0].Text, c.says) || !strings.Contains(lines[0].Text, "the clients' way to") {
				t.Errorf("the summary's first line does not tell the servers up: %+v", lines)
			}
			// The lists and watches apart from the other requests (the
			// rig's writes: 72 patches in b's log, 241 writes in a's).
			if c.answered && len(lines) > 0 && (o.Others < 300 || !strings.Contains(lines[0].Text, fmt.Sprintf("the audit logs show %d lists and watches and %d other requests answered", o.Answered, o.Others))) {
				t.Errorf("the summary's first line does not count the %d lists and watches and %d other requests answered: %q", o.Answered, o.Others, lines[0].Text)
			}
			for _, l := range lines {
				if l.Topic == "restart" {
					t.Errorf("the summary tells a restart: %q", l.Text)
				}
			}
		})
	}
}

// TestOutageRestartUndecided: from samples-outage's captures alone, the
// watches that ended at once and the reconnects that reached no server
// for 150 s may be every server restarting or the way to them cut. The
// probable restart says both, and that the servers answered again at the
// outage's first answer, not at the first refused attempt (which reached
// no server).
func TestOutageRestartUndecided(t *testing.T) {
	a := buildRecording(t, "samples-outage", "*.ts.http").Analyze(realServer())
	os := a.TL.Outages()
	if len(os) != 1 || len(a.Restarts) != 1 {
		t.Fatalf("outages %+v, probable restarts %+v: want one each", os, a.Restarts)
	}
	d, o := a.Restarts[0], os[0]
	if !d.Unreachable || d.Served != o.To || len(d.Sessions) != 99 {
		t.Errorf("probable restart %+v: want 99 watches, unreachable until the outage's first answer %d", d, o.To)
	}
	told := false
	for _, l := range a.Summary(nil) {
		told = told || l.Topic == "restart" && strings.Contains(l.Text, "every API server restarting, or the way to them cut")
	}
	if !told {
		t.Errorf("the summary does not say the restart is undecided: %+v", a.Summary(nil))
	}
}

// TestSilentOutage: from samples-outage's audit logs alone, the load
// balancer's outage shows as 99 clients with no request open together,
// from their watches' ends (within half a second) to the first of them
// asking again, where the captures put it (the first refused attempt and
// the first answer after it); the summary tells the stampede after it.
// The audit logs of samples-lab, samples-watchlist and samples-fleet,
// whose servers rolled with the way to them intact, show none.
func TestSilentOutage(t *testing.T) {
	captured := buildRecording(t, "samples-outage", "*.ts.http").Outages()
	if len(captured) != 1 {
		t.Fatalf("the captures show outages %+v, want one", captured)
	}
	want := captured[0]
	for _, c := range []struct {
		name     string
		patterns []string
		up       []string
	}{
		{"audit logs", []string{"audit-*.log"}, []string{"a", "b", "c"}},
		{"audit and server logs", []string{"audit-*.log", "apiserver-*.log"}, []string{"a", "b", "c"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := buildRecording(t, "samples-outage", c.patterns...).Analyze(realServer())
			os := a.TL.OutageReturns()
			if len(os) != 1 {
				t.Fatalf("outages %+v, want the load balancer's one", os)
			}
			o := os[0]
			if !o.Silent || o.Clients != 99 || o.Attempts != 0 || !slices.Equal(o.Up, c.up) {
				t.Errorf("outage %+v: want a silence of 99 clients, servers %v up", o.Outage, c.up)
			}
			if d := o.From - want.From; d < -50e6 || d > 50e6 {
				t.Errorf("the silence begins %v from the captures' first refused attempt", time.Duration(d))
			}
			if d := o.To - want.To; d < -100e6 || d > 100e6 {
				t.Errorf("the silence ends %v from the captures' first answer", time.Duration(d))
			}
			if o.LastEnded < o.From || o.LastEnded-o.From > 1e9 {
				t.Errorf("the clients' requests ended over %v, want within a second", time.Duration(o.LastEnded-o.From))
			}
			if o.Relists != 74 || o.RelistClients != 74 {
				t.Errorf("%d relists by %d clients after it, want samples-outage's 74 WatchList relists", o.Relists, o.RelistClients)
			}
			lines := a.Summary(nil)
			if len(lines) == 0 || !strings.Contains(lines[0].Text, "74 clients got 410 Gone and relisted between") || !strings.Contains(lines[0].Text, "the audit logs show no request of 99 clients") {
				t.Errorf("the summary's first line does not tell the silence: %+v", lines)
			}
		})
	}
	for _, c := range []struct{ name, pattern string }{
		{"samples-lab", "audit-*.log"}, {"samples-watchlist", "audit-*.log"}, {"samples-fleet", "audit-*.log"},
	} {
		tl := buildRecording(t, c.name, c.pattern)
		if os := tl.Outages(); len(os) != 0 {
			t.Errorf("%s: outages %+v in servers rolling with the way to them intact", c.name, os)
		}
		if n := len(tl.Files); n < 50 {
			t.Errorf("%s: %d files, want the fleet's clients", c.name, n)
		}
	}
}

// TestOutageComeBack: as samples-outage's clients came back, 30 attempts
// failed with "net/http: TLS handshake timeout" and one with "unexpected
// EOF", and every client's first answered request came by 19:12:26.15
// (README, "The return"): the outage says so, and the summary tells it.
func TestOutageComeBack(t *testing.T) {
	a := buildRecording(t, "samples-outage", "*.ts.http").Analyze(realServer())
	os := a.TL.Outages()
	if len(os) != 1 {
		t.Fatalf("outages %+v, want the load balancer's one", os)
	}
	o := os[0]
	back := time.Date(2026, 12, 1, 19, 12, 26, 150e6, time.UTC).UnixNano()
	if o.BackFailed != 31 || o.BackError != "net/http: TLS handshake timeout" || o.BackErrorAttempts != 30 || o.Back < back || o.Back > back+10e6 {
		t.Errorf("coming back: %d failed (%d with %q), all back at %s; want 31 (30 TLS handshake timeouts), all back at 19:12:26.15",
			o.BackFailed, o.BackErrorAttempts, o.BackError, time.Unix(0, o.Back).UTC())
	}
	lines := a.Summary(nil)
	if len(lines) == 0 || !strings.Contains(lines[0].Text, `as they came back, 31 more attempts failed (30 with "net/http: TLS handshake timeout"), and the last of them sent the request that got its first answer at`) {
		t.Errorf("the summary's first line does not tell the clients coming back: %+v", lines)
	}
	if first := o.FirstAnsweredWords(func(int64) string { return "T" }); first != "the first request answered was sent at T" {
		t.Errorf("the captures' first answer: %q", first)
	}
}

// From the informers' klog alone, the same outage's return is told at
// the lines that tell each request's end: c028's last first answer, the
// 410 of its watch sent at 19:12:26.153 (probes.tsv), is its line at
// 19:12:30.963, and the summary calls no such instant a send: neither
// the return nor the refusals it tells (c048's, a retry refused at once).
func TestOutageComeBackLogged(t *testing.T) {
	a := buildRecording(t, "samples-outage", "fleet-klog.log").Analyze(realServer())
	os := a.TL.Outages()
	if len(os) != 1 || !os[0].ToLogged || !os[0].BackLogged {
		t.Fatalf("outages %+v, want the load balancer's one, told by the clients' logs", os)
	}
	text := ""
	for _, l := range a.Summary(nil) {
		text += l.Text
	}
	if !strings.Contains(text, "the first request answered, as the clients' logs date it, was at 2026-12-01 19:11:43.903 UTC") ||
		!strings.Contains(text, "the last of them got its first answer at 2026-12-01 19:12:30.963 UTC as its log dates it (a client's log dates a retry by its outcome, not its send)") ||
		!strings.Contains(text, "answered at 2026-12-01 19:11:43.903 UTC, as its client's log tells it (it does not date the send)") ||
		strings.Contains(text, "sent at") || strings.Contains(text, "sent the request") {
		t.Errorf("the summary: %s", text)
	}
}

// The 410s the clients met as the load balancer came back are told at
// the server's instant: broad-a sent its reconnect from RV 779 at
// 19:12:00.701, and server b received it 20 s later (audit-b-1.log,
// auditID 104325ea), when b no longer held RV 779. At 19:12:00.708 b had
// accepted c056's reconnect from the same RV (probes.tsv), so "at
// 19:12:00.701 b refused it" contradicted the recording. The summary
// tells the first two refusals in the order the servers made them.
func TestRefusalToldAtTheServersInstant(t *testing.T) {
	sent := instant(t, "2026-12-01T19:12:00.701Z")
	refusal := func(a *Analysis) (at, from int64) {
		for _, rs := range a.Resumes {
			if rs.Observed == Refused && a.TL.Files[a.TL.Sessions[rs.Session].File].Name == "broad-a.ts.http" && rs.RV == "779" {
				return a.TL.ServerReceived(rs.Session)
			}
		}
		t.Fatal("no refusal of broad-a's reconnect from RV 779")
		return 0, 0
	}
	a := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log").Analyze(realServer())
	if at, from := refusal(a); from/1e6 != sent/1e6 || FormatInstant(at, time.UTC) != "2026-12-01 19:12:20.750 UTC" {
		t.Errorf("broad-a's reconnect sent at %s, refused at %s; want sent at 19:12:00.701, received by b at 19:12:20.750", FormatInstant(from, time.UTC), FormatInstant(at, time.UTC))
	}
	// A capture alone shows only when the client sent it.
	if at, from := refusal(buildRecording(t, "samples-outage", "broad-a.ts.http").Analyze(realServer())); at != from || from/1e6 != sent/1e6 {
		t.Errorf("broad-a alone: refused at %s, sent at %s", FormatInstant(at, time.UTC), FormatInstant(from, time.UTC))
	}
	var observed string
	for _, l := range a.Summary(nil) {
		if l.Topic == "observed" {
			observed = l.Text
		}
	}
	type told410 struct {
		at, sent int64
		server   string
	}
	var first []told410
	for _, rs := range a.Resumes {
		if rs.Observed == Refused {
			at, sent := a.TL.ServerReceived(rs.Session)
			first = append(first, told410{at, sent, a.TL.ServerName(rs.Session)})
		}
	}
	slices.SortStableFunc(first, func(x, y told410) int { return cmp.Compare(x.at, y.at) })
	// Each is told by the instant it was sent, and the server's where it
	// received it later (c012's, the second: 4.4 s later).
	told := func(r told410) string {
		if r.at != r.sent {
			return fmt.Sprintf("sent at %s, reached API server %s at %s and was refused", FormatInstant(r.sent, time.UTC), r.server, FormatInstant(r.at, time.UTC))
		}
		return fmt.Sprintf("sent at %s, was refused by API server %s", FormatInstant(r.sent, time.UTC), r.server)
	}
	if len(first) < 2 || first[1].at == first[1].sent {
		t.Fatalf("the first two refusals %+v, want the second received seconds after it was sent", first[:min(2, len(first))])
	}
	if i, j := strings.Index(observed, told(first[0])), strings.Index(observed, told(first[1])); i < 0 || j < i {
		t.Errorf("the 410s observed: %q\nwant the first two refusals, in the servers' order: %q, then %q", observed, told(first[0]), told(first[1]))
	}
}

// TestResumeWithinAnOutageWaitsForItsEnd: during samples-outage's outage
// no attempt reached a server (probes.tsv: each from 19:09:13.56 to
// 19:11:43.62 failed with "connection refused"), and each client's
// reconnect was answered only once the load balancer listened again,
// 74 of them with 410 Gone (TRUTH.tsv, errors410). Asked at 19:10:00,
// each client's cursor is judged at the outage's end, as the fleet's
// counts take it: none whose reconnect got a 410 is accepted, where the
// instant's own evidence accepted every one.
func TestResumeWithinAnOutageWaitsForItsEnd(t *testing.T) {
	a := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log", "apiserver-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	os := a.TL.Outages()
	if len(os) != 1 {
		t.Fatalf("outages %+v, want the load balancer's one", os)
	}
	gone := map[string]bool{}
	for _, row := range recordingTable(t, "samples-outage", "TRUTH.tsv") {
		gone[row["client"]] = row["errors410"] != "0"
	}
	at := instant(t, "2026-12-01T19:10:00Z")
	clients, refused := 0, 0
	for fi, f := range a.TL.Files {
		name, _, _ := strings.Cut(path.Base(f.Name), ".")
		g, ok := gone[name]
		if !ok {
			continue
		}
		clients++
		for _, v := range a.ResumeAt(fi, at) {
			if v.Kind != BookmarkAware {
				continue
			}
			if v.At != os[0].To || v.Asked() != at || !strings.HasPrefix(v.Reason, "answered only at") || !strings.HasPrefix(a.Words(v), "answered only at") {
				t.Errorf("%s: judged at %s, asked at %s: %q; want judged at the outage's end %s", name, FormatInstant(v.At, time.UTC), FormatInstant(v.Asked(), time.UTC), v.Reason, FormatInstant(os[0].To, time.UTC))
			}
			switch {
			case g && v.Outcome == Accepted:
				t.Errorf("%s: accepted, but its reconnect after the outage got 410 Gone", name)
			case g && v.Outcome == Refused:
				refused++
			}
		}
	}
	if fc, _ := a.FleetReconnect(ResumeQuery{At: at}); clients != 99 || refused < 60 || fc.AsRecorded.Refused != refused {
		t.Errorf("%d clients, %d refused of those that got a 410, the fleet's count %d refused; want 99 clients, at least 60 refused, the same count", clients, refused, fc.AsRecorded.Refused)
	}
}

// TestHorizonsWaitForTheOutagesEnd: a drop inside samples-outage's
// outage (each attempt that reached no server ends one) reconnects only
// once a request reached a server again: its horizon is the drop itself
// where the reconnect at that instant is refused or at risk, saying it
// waited, and after the outage's end where it is accepted, as ResumeAt
// answers it; with a fourth server assumed too, where every server's
// answer does not apply and a server's own refusal over a client's
// connection would have refused it at the drop.
func TestHorizonsWaitForTheOutagesEnd(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log", "apiserver-*.log", "prometheus/query_range/*.json.gz")
	four := realServer()
	four.Servers = 4
	for _, p := range []Params{realServer(), four} {
		a := tl.Analyze(p)
		o := a.TL.Outages()[0]
		checked, waited := 0, 0
		for _, h := range a.Horizons {
			if !h.HasCursor || h.Drop < o.From || h.Drop >= o.To || a.TL.Files[h.File].Loopback {
				continue // the servers' own informers bypass the load balancer
			}
			var v Verdict
			for _, r := range a.ResumeAt(h.File, h.Drop) {
				if r.Kind == h.Kind {
					v = r
				}
			}
			checked++
			risk, refused := a.HorizonReasons(h)
			name := fmt.Sprintf("%d servers: %s %v dropped at %s", a.ServerCount(), a.TL.Files[h.File].Name, h.Kind, a.instant(h.Drop))
			switch {
			case v.Outcome == Refused && (h.RefusedFrom != h.Drop || !strings.HasPrefix(refused, "answered only at")):
				t.Errorf("%s: refused then (%s), the horizon refuses from %s: %q", name, v.Reason, a.instant(h.RefusedFrom), refused)
			case v.Outcome == AtRisk && (h.RiskFrom != h.Drop || h.RefusedFrom == h.Drop || !strings.HasPrefix(risk, "answered only at")):
				t.Errorf("%s: at risk then (%s), the horizon's risk from %s, refusal from %s: %q", name, v.Reason, a.instant(h.RiskFrom), a.instant(h.RefusedFrom), risk)
			case v.Outcome == Accepted && h.RiskFrom < o.To:
				t.Errorf("%s: accepted then, the horizon's risk from %s, inside the outage", name, a.instant(h.RiskFrom))
			}
			if v.Outcome == Refused || v.Outcome == AtRisk {
				waited++
			}
		}
		if checked < 100 || waited == 0 {
			t.Errorf("%d servers: %d horizons of drops inside the outage, %d refused or at risk: the check misses them", a.ServerCount(), checked, waited)
		}
	}
}
