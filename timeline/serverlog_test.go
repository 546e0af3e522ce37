package timeline

import (
	"strings"
	"testing"
	"time"
)

// TestServerLogs: the API servers' own logs of samples-outage show each
// server running one process, and four watch caches that ended their
// watches with no restart (a's rolebindings twice and its runtimeclasses,
// c's pods), as the recording's README says; samples-watchlist's show
// each server restarted once, SIGTERM 90 s apart, at the instants of its
// timeline.txt.
func TestServerLogs(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "apiserver-*.log")
	if len(tl.ServerLogs) != 3 || len(tl.ServerLogRestarts()) != 0 {
		t.Fatalf("%d server logs, %d restarts; want 3, none", len(tl.ServerLogs), len(tl.ServerLogRestarts()))
	}
	var got []string
	for _, r := range tl.CacheReinits() {
		got = append(got, r.Server+" "+r.Resource+" "+time.Unix(0, r.T).UTC().Format("15:04:05"))
	}
	want := []string{"c pods 19:07:28", "a runtimeclasses.node.k8s.io 19:10:48", "a rolebindings.rbac.authorization.k8s.io 19:10:48", "a rolebindings.rbac.authorization.k8s.io 19:14:16"}
	if len(got) != len(want) {
		t.Fatalf("re-initialisations %q, want %q", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("re-initialisation %d: %q, want %q", k, got[k], want[k])
		}
	}
	for _, l := range tl.ServerLogs {
		if len(l.Starts) != 1 || len(l.Shutdowns) != 1 || l.Server == "" {
			t.Errorf("%s: server %q, %d starts, %d SIGTERMs; want one each", l.Name, l.Server, len(l.Starts), len(l.Shutdowns))
		}
	}

	tl = buildRecording(t, "samples-watchlist", "apiserver-*.log")
	rs := tl.ServerLogRestarts()
	wantTerm := map[string]string{"a": "18:45:46", "b": "18:47:16", "c": "18:48:46"}
	if len(rs) != 3 {
		t.Fatalf("restarts %+v, want one per server", rs)
	}
	for _, r := range rs {
		if term := time.Unix(0, r.SIGTERM).UTC().Format("15:04:05"); term != wantTerm[r.Server] || r.NewStart <= r.SIGTERM {
			t.Errorf("server %s: SIGTERM at %s, new process at %s; timeline.txt says SIGTERM at %s", r.Server, term, FormatTime(r.NewStart, ClockArrival), wantTerm[r.Server])
		}
	}
	if n := len(tl.CacheReinits()); n != 0 {
		t.Errorf("%d re-initialisations; every cache ended its watches at its server's shutdown", n)
	}
}

// TestServerLogRestartsNamed: on samples-watchlist's captures with its
// API servers' own logs (no audit log), the restarts those logs show
// are restarts found, each named for its server: the fleet's story and
// the restart line name a, b and c's, each when its watches ended, a
// minute after its SIGTERM (18:45:46, 18:47:16, 18:48:46 in timeline.txt).
func TestServerLogRestartsNamed(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "*.ts.http", "apiserver-*.log").Analyze(realServer())
	servers := map[string]bool{}
	for _, r := range a.Restarts {
		servers[r.Server] = true
	}
	if len(servers) != 3 || !servers["a"] || !servers["b"] || !servers["c"] {
		t.Fatalf("restarts %+v; want one of each of a, b and c", a.Restarts)
	}
	// The servers' own logs are evidence of three servers, as audit logs
	// or metrics would be (the report's "servers" and the models').
	if n := a.ServerCount(); n != 3 {
		t.Errorf("the logs of servers a, b and c count %d servers", n)
	}
	lines := map[string]string{}
	for _, l := range a.Summary(nil) {
		lines[l.Topic] = l.Text
	}
	for _, server := range []string{"a at 2026-12-01 18:46", "b at 2026-12-01 18:48", "c at 2026-12-01 18:49"} {
		if !strings.Contains(lines["restart"], server) {
			t.Errorf("the restart line %q does not name %q", lines["restart"], server)
		}
	}
	if want := "the restarts of API servers a, b and c, which ended their watches at 2026-12-01 18:46"; !strings.Contains(lines["fleet"], want) {
		t.Errorf("the fleet line %q does not say %q", lines["fleet"], want)
	}
	if !strings.Contains(lines["restart"], "own logs") {
		t.Errorf("the restart line %q does not say the servers' own logs show the restarts", lines["restart"])
	}
}

// TestCacheReinitRefuses: samples-outage's server c re-initialised its
// cache of pods at 19:07:28 with no restart (its own log). No client of
// the recording watches pods, so the test asks the per-server cache
// model directly what c's pods cache refused, as a resume of a pods
// client to c would: from the re-init on it refuses every RV below the
// head at the re-init (its new list's RV is at least that), above the
// bound its metrics alone give (their counts reach back before it), and
// a cursor from the head up is not refused; where the metrics decide
// nothing (no scrape around 19:07:33) the log alone refuses, and before
// the re-init it changes nothing.
func TestCacheReinitRefuses(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "c000-*.ts.http", "audit-*.log", "apiserver-*.log", "prometheus/query_range/*.json.gz")
	a := tl.Analyze(realServer())
	r := tl.CacheReinits()[0]
	if r.Server != "c" || r.Resource != "pods" {
		t.Fatalf("first re-initialisation %+v, want c's pods", r)
	}
	head, ok := tl.Head(r.T)
	if !ok {
		t.Fatalf("no head known at %s", FormatInstant(r.T, time.UTC))
	}
	bounds := func(after time.Duration) (metrics, both cacheBounds) {
		at := r.T + int64(after)
		metrics = tl.Metrics.cacheBounds("c", "pods", -1, 0, at, nil, nil)
		both = metrics
		a.reinitialised(&both, "c", "pods", at)
		return metrics, both
	}
	metrics, both := bounds(20 * time.Second)
	if metrics.doubt != "" || metrics.refusedBelow >= head {
		t.Fatalf("at +20 s the metrics say %+v: refused below %d, the head at the re-init is %d; the test proves nothing", metrics, metrics.refusedBelow, head)
	}
	if both.refusedBelow != head || both.reinitAt != r.T {
		t.Errorf("with the log, c's pods cache refuses below RV %d (re-init at %d), want the head %d at %s", both.refusedBelow, both.reinitAt, head, FormatInstant(r.T, time.UTC))
	}
	if both.held && both.heldFrom < head {
		t.Errorf("held from RV %d, below the refusal at %d", both.heldFrom, head)
	}
	metrics, both = bounds(5 * time.Second)
	if metrics.doubt == "" {
		t.Fatalf("at +5 s the metrics decide %+v; the test wants where they do not", metrics)
	}
	if both.doubt != "" || both.refusedBelow != head || both.held {
		t.Errorf("at +5 s with the log: %+v; want refused below %d, nothing held", both, head)
	}
	if _, both = bounds(-5 * time.Second); both.reinitAt != 0 {
		t.Errorf("before the re-init the log changed the bounds: %+v", both)
	}
}

// TestServerLogsLineTellsWhatTheClientsWatched: samples-outage's servers
// rebuilt four watch caches with open watches, ending them ("Terminating
// all watchers"), with no restart (pods, runtimeclasses and rolebindings
// twice; 14 more, with no watch open, logged their new list alone), none
// of a resource its clients watched
// (ConfigMaps and Secrets): the summary's line counts them apart, not
// as an ending of the clients' watches.
func TestServerLogsLineTellsWhatTheClientsWatched(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "*.ts.http", "apiserver-*.log")
	if n := len(tl.CacheReinits()); n != 4 {
		t.Fatalf("%d caches rebuilt, want samples-outage's 4", n)
	}
	line := ""
	for _, l := range tl.Analyze(realServer()).Summary(nil) {
		if l.Topic == "server-logs" {
			line = l.Text
		}
	}
	if line != "The API servers' own logs show no restart; 4 watch caches of other resources rebuilt, ending their watches (pods, rolebindings twice and runtimeclasses), which these clients did not watch." {
		t.Errorf("server-logs line %q", line)
	}
}

// TestShutdownCutsAreNoDeadline: samples-watchlist's streams ended 84
// times at a server's shutdown among the resumed clients and 81 among
// those without bookmarks, 7 and 9 times at the clients' own timeouts
// (README, "Resumes" and "Clients without bookmarks"). c035's first
// stream ended at 18:49:46.767, 1.66 s before its timeoutSeconds, as c's
// first process ended every watch: the server's timer starts once it
// serves the watch, so no deadline ends one early.
func TestShutdownCutsAreNoDeadline(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "*.ts.http", "audit-*.log", "apiserver-*.log").Analyze(realServer())
	cut := 0
	for _, r := range a.Restarts {
		cut += len(r.Sessions)
	}
	deadline := 0
	for _, s := range a.TL.Sessions {
		if s.EndReason == EndDeadline && strings.HasSuffix(a.TL.Files[s.File].Name, ".ts.http") {
			deadline++
		}
	}
	if cut != 84+81 || deadline != 7+9 {
		t.Errorf("%d streams cut by the servers' shutdowns, %d ended at their deadline; want 165 and 16", cut, deadline)
	}
}
