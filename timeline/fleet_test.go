package timeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/parser"
)

func buildFleetFiles(t *testing.T, names ...string) *Timeline {
	t.Helper()
	return buildFiles(t, fleetDir, names...)
}

// analyzeFleetCaptures analyses the real fleet's JSON captures (its 40
// clients' and the two broad ones) on one clock, with the real server's
// parameters.
func analyzeFleetCaptures(t *testing.T) *Analysis {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(fleetDir, "c[0-3]*.ts.http"))
	names = append(names, filepath.Join(fleetDir, "broad-a.ts.http"), filepath.Join(fleetDir, "broad-b.ts.http"))
	if len(names) != 42 {
		t.Fatalf("%d captures, want 42", len(names))
	}
	for k := range names {
		names[k] = filepath.Base(names[k])
	}
	return buildFleetFiles(t, names...).Analyze(realServer())
}

var fleetAuditLogs = []string{"audit-a-1.log", "audit-a-2.log", "audit-b-1.log", "audit-b-2.log"}

// checkFleetRelists compares the fleet's relists per client with
// TRUTH.tsv's, their times within tolerance; skip names clients the
// files do not hold.
func checkFleetRelists(t *testing.T, fl *Fleet, tolerance time.Duration, skip func(string) bool) {
	t.Helper()
	if fl == nil {
		t.Fatal("no fleet")
	}
	byName := map[string]*FleetClient{}
	for k := range fl.Clients {
		byName[fl.Clients[k].Name] = &fl.Clients[k]
	}
	total, checked := 0, 0
	for _, row := range readFleetTruth(t) {
		if skip(row.client) {
			continue
		}
		checked++
		c := byName["fleet-"+row.client+"/1.0"]
		if c == nil {
			t.Errorf("no client fleet-%s/1.0", row.client)
			continue
		}
		total += row.relists
		if len(c.Relists) != row.relists {
			t.Errorf("%s: %d relists, TRUTH.tsv says %d", row.client, len(c.Relists), row.relists)
			continue
		}
		for k, r := range c.Relists {
			if d := time.Duration(r.T - instant(t, row.relistT[k])); d < -tolerance || d > tolerance {
				t.Errorf("%s relist %d at %s, TRUTH.tsv says %s", row.client, k, FormatTime(r.T, ClockArrival), row.relistT[k])
			}
			if r.Cause != CauseGone {
				t.Errorf("%s relist %d: cause %v (%s), want the 410 before it", row.client, k, r.Cause, r.Reason)
			}
		}
	}
	if fl.RelistsObserved != total || checked < 40 {
		t.Errorf("%d relists observed over %d clients, TRUTH.tsv says %d", fl.RelistsObserved, checked, total)
	}
	t.Logf("%d clients checked, %d relists; with bookmarks %d, without %d, %d unknown with", checked, total, fl.RelistsWith, fl.RelistsWithout, fl.UnknownWith)
}

// From the four audit logs alone, every client's relists are found,
// attributed to its user agent, at the instants its own recording shows
// (the server logs the LIST's arrival within milliseconds of the
// client's sending it), each caused by a watch that ended at once.
func TestFleetRelistsFromAuditLogs(t *testing.T) {
	tl := buildFleetFiles(t, fleetAuditLogs...)
	a := tl.Analyze(realServer())
	fl := a.Fleet()
	checkFleetRelists(t, fl, 20*time.Millisecond, func(string) bool { return false })
	for _, c := range fl.Clients {
		for _, r := range c.Relists {
			if !r.Inferred {
				t.Errorf("%s: a 410 from an audit log is inferred: %+v", c.Name, r)
			}
		}
	}
	if fl.RelistsWithout != 18 || fl.RelistsWith != 0 {
		t.Errorf("relists without bookmarks %d (the 18 observed), with %d (no client that asked relisted)", fl.RelistsWithout, fl.RelistsWith)
	}
	if len(tl.AuditLogs) != 4 || tl.AuditLogs[2].Records != 1067 {
		t.Errorf("audit logs %+v", tl.AuditLogs)
	}
	// Only watches and LISTs make clients: kubectl and the churn driver
	// only read and write single objects.
	for _, f := range tl.Files {
		if !f.Audit || f.Kind != "ConfigMap" || strings.HasPrefix(f.Name, "kubectl") || strings.HasPrefix(f.Name, "realapi-driver") {
			t.Errorf("file %s: audit %v, kind %q", f.Name, f.Audit, f.Kind)
		}
	}
}

// From the audit logs alone both restarts of the rolling restart are
// found: a's log ends as its watches end (08:41:32-33) and its new
// process's log starts (serving at 08:41:37.00); b's at 08:45:07 and
// 08:45:12.38.
func TestFleetRestartsFromAuditLogs(t *testing.T) {
	a := buildFleetFiles(t, fleetAuditLogs...).Analyze(realServer())
	want := []struct{ ended, served, old, new string }{
		{"2026-12-01T08:41:32.5Z", "2026-12-01T08:41:37.00Z", "audit-a-1.log", "audit-a-2.log"},
		{"2026-12-01T08:45:07.0Z", "2026-12-01T08:45:12.38Z", "audit-b-1.log", "audit-b-2.log"},
	}
	if len(a.Restarts) != len(want) {
		for _, d := range a.Restarts {
			t.Logf("detected: ended %s, served %s, %d watches, logs %v", FormatTime(d.Ended, ClockArrival), FormatTime(d.Served, ClockArrival), len(d.Sessions), d.Logs)
		}
		t.Fatalf("%d restarts detected, want %d", len(a.Restarts), len(want))
	}
	for k, w := range want {
		d := a.Restarts[k]
		t.Logf("restart %d: ended %s, served %s, %d watches, logs %v", k, FormatTime(d.Ended, ClockArrival), FormatTime(d.Served, ClockArrival), len(d.Sessions), d.Logs)
		if diff := d.Ended - instant(t, w.ended); diff < -int64(2*time.Second) || diff > int64(2*time.Second) {
			t.Errorf("restart %d ended %s, want about %s", k, FormatTime(d.Ended, ClockArrival), w.ended)
		}
		if diff := d.Served - instant(t, w.served); diff < -int64(3*time.Second) || diff > int64(3*time.Second) {
			t.Errorf("restart %d served %s, want within 3 s of %s", k, FormatTime(d.Served, ClockArrival), w.served)
		}
		if len(d.Logs) != 2 || d.Logs[0] != w.old || d.Logs[1] != w.new || len(d.Sessions) < 10 {
			t.Errorf("restart %d: logs %v, %d watches", k, d.Logs, len(d.Sessions))
		}
	}
}

// From the JSON captures (the protobuf clients' bodies are not read),
// each client named by its request's User-Agent, the relists per client
// are TRUTH.tsv's, at the instants recorded, each after its 410; with
// the broad captures on the clock the counterfactual is known.
func TestFleetRelistsFromCaptures(t *testing.T) {
	a := analyzeFleetCaptures(t)
	fl := a.Fleet()
	checkFleetRelists(t, fl, time.Millisecond, func(c string) bool { return strings.HasPrefix(c, "c4") })
	// Without bookmarks: the 16 observed, and the relists the models
	// give the clients that asked for bookmarks, had they ignored them.
	if fl.RelistsObserved != 16 || fl.RelistsWithout <= 16 || fl.RelistsWith != 0 || fl.UnknownWith != 0 || fl.SavedPercent != 100 {
		t.Errorf("captures: observed %d, with bookmarks %d, without %d, unknown with %d", fl.RelistsObserved, fl.RelistsWith, fl.RelistsWithout, fl.UnknownWith)
	}
}

// Had every client reconnected as server a ended its watches (the first
// restart), each client whose capture shows a 410 after that restart is
// refused on its side without bookmarks, and no client is refused with
// them: TRUTH.tsv has no relist among the clients that asked.
func TestFleetReconnectAtRestart(t *testing.T) {
	a := analyzeFleetCaptures(t)
	q := ResumeQuery{At: instant(t, "2026-12-01T08:41:32.3Z")}
	fc, ok := a.FleetReconnect(q)
	if !ok {
		t.Fatal("no fleet")
	}
	byName := map[string]*FleetClient{}
	for k := range a.Fleet().Clients {
		c := &a.Fleet().Clients[k]
		byName[strings.TrimSuffix(a.TL.Files[c.File].Name, ".ts.http")] = c
	}
	gone := 0
	for _, row := range readFleetTruth(t) {
		c := byName[row.client]
		if c == nil {
			continue
		}
		for _, e := range row.error410T {
			if d := instant(t, e) - q.At; d < 0 || d > int64(20*time.Second) {
				continue
			}
			gone++
			_, without := a.sides(c)
			for _, v := range a.ResumeAt(c.File, q.At) {
				if v.Kind == without && v.Outcome != Refused {
					t.Errorf("%s got a 410 at %s, but a reconnect without bookmarks at the restart is %s: %s", row.client, e, v.Outcome, v.Reason)
				}
			}
		}
	}
	if gone == 0 {
		t.Fatal("no client of TRUTH.tsv got a 410 after the first restart")
	}
	t.Logf("%d clients got a 410 after the restart; reconnecting then: without bookmarks %+v, with %+v", gone, fc.Without, fc.With)
	if fc.Without.Refused < gone || fc.With.Refused != 0 {
		t.Errorf("refused without bookmarks %d (at least the %d that got a 410), with bookmarks %d", fc.Without.Refused, gone, fc.With.Refused)
	}
	if n := len(a.Fleet().Clients); fc.Without.Accepted+fc.Without.AtRisk+fc.Without.Refused+fc.Without.Unknown != n {
		t.Errorf("without bookmarks %+v does not count the %d clients", fc.Without, n)
	}
}

// From the audit logs alone no model refuses a reconnect to a server not
// known but every server's own restarts: once each server has restarted,
// a cursor older than the newest RV at each one's old process's end is
// refused whichever it reaches. The stampedes are the stretches the most
// clients are refused, else at risk; at the first restart, every client
// that then got a 410 is among those refused or at risk.
func TestFleetStampedesFromAuditLogs(t *testing.T) {
	a := buildFleetFiles(t, fleetAuditLogs...).Analyze(realServer())
	fl := a.Fleet()
	if len(fl.Stampedes) == 0 {
		t.Fatal("no stampede from the audit logs")
	}
	restart := a.Restarts[0].Ended
	var at FleetStep
	for _, s := range fl.Steps {
		if s.T < restart {
			at = s
		}
	}
	gone := map[string]bool{}
	for _, row := range readFleetTruth(t) {
		for _, e := range row.error410T {
			if d := instant(t, e) - restart; d >= 0 && d < int64(20*time.Second) {
				gone[row.client] = true
			}
		}
	}
	t.Logf("%d clients got a 410 after the restart; just before it %+v", len(gone), at)
	if len(gone) == 0 || at.Without+at.AtRiskWithout < len(gone) {
		t.Errorf("just before the restart %d clients refused and %d at risk without bookmarks; %d got a 410 after it", at.Without, at.AtRiskWithout, len(gone))
	}
	for _, s := range fl.Stampedes {
		if s.Without+s.AtRiskWithout < 2 || s.To <= s.From {
			t.Errorf("stampede %+v", s)
		}
		for _, r := range s.Reasons {
			if r.Outcome == Refused && r.Model != ModelEveryServer {
				t.Errorf("stampede from %s: %s refuses %d clients from the audit logs alone", FormatInstant(s.From, time.UTC), r.Model, r.Clients)
			}
		}
	}
}

func TestSpanMinus(t *testing.T) {
	got := spanMinus([][2]int64{{0, 10}, {20, 30}, {40, 50}}, [][2]int64{{2, 4}, {8, 22}, {25, 26}, {50, 60}})
	want := [][2]int64{{0, 2}, {4, 8}, {22, 25}, {26, 30}, {40, 50}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("spanMinus = %v, want %v", got, want)
	}
}

// From the audit logs alone the head estimate is the resourceVersions the
// clients asked for: known from the first answered request on, and never
// ahead of the head the broad captures of the same clock saw a moment
// later (their watches, on either server, hear of a change a little after
// another client has).
func TestHeadFromAuditRequests(t *testing.T) {
	audit := buildFleetFiles(t, fleetAuditLogs...)
	broad := buildFleetFiles(t, "broad-a.ts.http", "broad-b.ts.http")
	known := 0
	for at := broad.Start(); at < broad.End(); at += int64(15 * time.Second) {
		got, ok := audit.Head(at)
		if !ok {
			continue
		}
		known++
		if want, _ := broad.Head(at + int64(2*time.Second)); got > want {
			t.Errorf("at %s the audit logs' head is %d, past the broad captures' %d", FormatTime(at, ClockArrival), got, want)
		}
	}
	if known < 20 {
		t.Errorf("the audit logs' head is known at %d of the instants checked", known)
	}
}

// From the audit logs alone no reconnect of a client that relisted
// without bookmarks can be judged as if it had asked (nothing shows the
// cluster's head then): the summary's fleet line says the savings are
// not known, and what the clients that asked did, rather than claiming
// that bookmarks would have saved every relist.
func TestFleetSummarySaysWhatCannotBeJudged(t *testing.T) {
	a := buildFleetFiles(t, fleetAuditLogs...).Analyze(realServer())
	fl := a.Fleet()
	if fl.UnknownWith == 0 || fl.RelistsObserved == 0 {
		t.Fatalf("every reconnect with bookmarks judged from the audit logs (%d relists with, %d without): the test proves nothing", fl.RelistsWith, fl.RelistsWithout)
	}
	if fl.SavingsKnown || fl.Saved != 0 || fl.SavedPercent != 0 {
		t.Errorf("the audit logs alone say bookmarks save %d (%.1f %%), known %v", fl.Saved, fl.SavedPercent, fl.SavingsKnown)
	}
	asked, relists := 0, 0
	for _, c := range fl.Clients {
		if c.Bookmarks {
			asked, relists = asked+1, relists+len(c.Relists)
		}
	}
	line := summaryTopic(a, "fleet")
	for _, want := range []string{
		"Whether bookmarks would have spared the relists of the clients that did not ask for them is not known",
		fmt.Sprintf("(the %d clients that asked for them relisted %d times)", asked, relists),
	} {
		if !strings.Contains(line, want) {
			t.Errorf("the fleet's summary %q does not say %q", line, want)
		}
	}
	if strings.Contains(line, "bookmarks save") {
		t.Errorf("the fleet's summary gives a saving it cannot know: %q", line)
	}
}

// The fleet's story is the summary's first line: on the fleet recording
// (its captures, or its audit logs alone) 11 clients relisted 18 times
// around the two API servers' restarts, as TRUTH.tsv and timeline.txt say
// (a at 08:40:32 and b at 08:44:07 got SIGTERM; each ended its watches a
// minute later).
func TestFleetStoryFirst(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(fleetDir, "*.ts.http"))
	for k := range names {
		names[k] = filepath.Base(names[k])
	}
	// The captures suggest the restarts; the audit logs show which server
	// restarted, and the instant given is when its old process ended its
	// watches (its SIGTERM came a minute before).
	restarts := map[string]string{"captures": "around the 2 probable API server restarts",
		"audit logs": "around the restarts of API servers a and b, which ended their watches at 2026-12-01 08:41:32.385 UTC and 2026-12-01 08:45:07.141 UTC"}
	for what, files := range map[string][]string{"captures": names, "audit logs": fleetAuditLogs} {
		sum := buildFleetFiles(t, files...).Analyze(realServer()).Summary(nil)
		if len(sum) == 0 || sum[0].Topic != "fleet" || !strings.HasPrefix(sum[0].Text, "11 clients of the ") ||
			!strings.Contains(sum[0].Text, " relisted 18 times") || !strings.Contains(sum[0].Text, restarts[what]) {
			t.Errorf("%s: first line %+v", what, sum)
		}
	}
}

// A client given both as its capture and in the audit logs is one client:
// the logs' requests that a capture holds (by its Audit-Id) are the
// capture's. The fleet recording's 44 captures with its four audit logs
// are 44 clients with 18 relists, as the captures alone; the lab's 207
// with its six logs, 207 with 81. The API servers' own informers are
// not the fleet's clients.
func TestCaptureAndAuditLogAreOneClient(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(fleetDir, "*.ts.http"))
	for k := range names {
		names[k] = filepath.Base(names[k])
	}
	tl := buildFleetFiles(t, append(names, fleetAuditLogs...)...)
	fl := tl.Analyze(realServer()).Fleet()
	if len(fl.Clients) != 44 || fl.RelistsObserved != 18 || tl.AuditCaptured == 0 {
		t.Errorf("fleet: %d clients, %d relists, %d audit requests captured; want 44, 18", len(fl.Clients), fl.RelistsObserved, tl.AuditCaptured)
	}
	lab := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log")
	fl = lab.Analyze(realServer()).Fleet()
	if len(fl.Clients) != 207 || fl.RelistsObserved != 81 {
		t.Errorf("lab: %d clients, %d relists; want 207, 81", len(fl.Clients), fl.RelistsObserved)
	}
	for _, c := range fl.Clients {
		if lab.Files[c.File].Audit {
			t.Errorf("%s: a client of the audit logs whose capture is given", c.Name)
		}
	}
}

// TestFleetClientNamedByBaseName opens a capture without a User-Agent
// (kubectl's JSON lines) by its full path beside one with: the fleet names
// the first by its file's base name, never the path it was opened from.
func TestFleetClientNamedByBaseName(t *testing.T) {
	b := NewBuilder()
	var paths []string
	for _, n := range []string{"kubectl-pods-watch.jsonl", "w4-then-resume.ts.http"} {
		p, err := filepath.Abs(filepath.Join(samplesDir, n))
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(p, f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	tl := b.Build()
	fl := tl.Analyze(realServer()).Fleet()
	if fl == nil {
		t.Fatal("two captures with a watch each make no fleet")
	}
	named := false
	for _, c := range fl.Clients {
		if strings.Contains(c.Name, "/") && c.Name == tl.Files[c.File].Name {
			t.Errorf("client %d is named by its path %q", c.File, c.Name)
		}
		if tl.Files[c.File].Name == paths[0] {
			named = true
			if c.Name != "kubectl-pods-watch.jsonl" {
				t.Errorf("the capture without a User-Agent is named %q, want its base name", c.Name)
			}
		}
	}
	if !named {
		t.Fatalf("the fleet has no client for %s: the test tests nothing", paths[0])
	}
}

// A capture that ends at its 410 holds no relist, but its client must
// make one: samples-real's w4-then-resume stops at the 410 that refused
// its reconnect. The fleet's story says so, and counts that relist on
// the side the client recorded (without bookmarks), not as observed.
// The fleet recording's clients relisted after each of their 410s: none
// ends at one.
func TestFleetCaptureEndsAtGone(t *testing.T) {
	a := buildRecording(t, "samples-real", "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer())
	fl := a.Fleet()
	if fl == nil {
		t.Fatal("no fleet of two captures")
	}
	ended := 0
	for _, c := range fl.Clients {
		if !c.EndsAtGone {
			continue
		}
		ended++
		if name := a.TL.Files[c.File].ShortName(); name != "w4-then-resume.ts.http" || len(c.Relists) != 0 || c.RelistsDue() != 1 || c.RelistsWithout != 1 || c.RelistsWith != 0 {
			t.Errorf("%s: %d relists, %d due, %d without bookmarks, %d with", name, len(c.Relists), c.RelistsDue(), c.RelistsWithout, c.RelistsWith)
		}
	}
	if ended != 1 || fl.RelistsObserved != 0 || fl.RelistsWithout != 1 || fl.Saved != 1 {
		t.Errorf("%d clients end at a 410; %d relists observed, %d without bookmarks, %d saved", ended, fl.RelistsObserved, fl.RelistsWithout, fl.Saved)
	}
	var fleetLine string
	for _, l := range a.Summary(nil) {
		if l.Topic == "fleet" {
			fleetLine = l.Text
		}
	}
	if !strings.HasPrefix(fleetLine, "No relist of the 2 clients is recorded, but w4-then-resume.ts.http's capture ends at a 410 Gone, which sends it to relist.") {
		t.Errorf("fleet line %q", fleetLine)
	}

	fl = analyzeFleetCaptures(t).Fleet()
	afterGone := 0
	for _, c := range fl.Clients {
		if c.EndsAtGone {
			t.Errorf("%s ends at a 410, though it relisted after each", c.Name)
		}
		for _, r := range c.Relists {
			if r.Cause == CauseGone {
				afterGone++
			}
		}
	}
	if afterGone == 0 {
		t.Error("no relist of the fleet's captures follows a 410: the test checks nothing")
	}
}

// The riskiest moment for a client to drop is one still to come: a
// cursor whose reconnect the server already refused (w4-then-resume's RV
// 389, whose capture ends at that 410) has its story in the observed
// line, and the riskiest line names another cursor: its client's
// longest stretch that no refusal ended, non-broad clients first.
func TestRiskiestIsNotAnObservedRefusal(t *testing.T) {
	a := buildRecording(t, "samples-real", "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer())
	said := map[string]string{}
	for _, l := range a.Summary(nil) {
		said[l.Topic] = l.Text
	}
	if !strings.Contains(said["observed"], "w4-then-resume.ts.http's reconnect from RV 389, sent at") {
		t.Fatalf("observed line %q", said["observed"])
	}
	if r := said["riskiest"]; strings.Contains(r, "(RV 389)") || !strings.Contains(r, "w4-then-resume.ts.http's cursor (RV 233) had gone unconfirmed for 21s") {
		t.Errorf("riskiest line %q", r)
	}
}

// A client whose longest stretch ended in a refusal relisted, and its new
// cursor may then go unconfirmed longer than any other client's:
// samples-fleet's c35 watched from RV 1789 from 08:44:05.238 to the end
// of its capture at 08:49:53 with no event (its capture's lines 74 and
// 90), 5m48s, where the riskiest line named c25's 4m27s, leaving out
// every client that had relisted (the SRE review of samples-fleet).
func TestRiskiestCountsTheCursorAfterARelist(t *testing.T) {
	a := buildRecording(t, "samples-fleet", "*.ts.http").Analyze(DefaultParams())
	refused := a.refusedResumes()
	skipped := 0
	for _, g := range a.Ages {
		if g.Kind == BookmarkAware && refused.before(g.File, g.MaxAgeRV, g.MaxAgeAt) {
			skipped++
		}
	}
	if skipped == 0 {
		t.Fatal("no client's longest stretch ends in a refusal: the test checks nothing")
	}
	if line := summaryTopic(a, "riskiest"); !strings.Contains(line, "c35-nobookmarks.ts.http's cursor (RV 1789) had gone unconfirmed for 5m48s") {
		t.Errorf("riskiest line %q, want c35's RV 1789, 5m48s", line)
	}
}

// From the lab's audit logs, a client that asked for bookmarks shows the
// cursor they kept fresh: what it would have had without them is older,
// so the relists without bookmarks are the least they could be, and the
// fleet's line says so. The captures show each client's own cursor.
func TestRelistsWithoutBookmarksAtLeast(t *testing.T) {
	a := buildRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz", "fleet-klog.log").Analyze(realServer())
	fl := a.Fleet()
	asked := 0
	for _, c := range fl.Clients {
		if c.WithoutAtLeast {
			asked++
			if !c.Bookmarks {
				t.Errorf("%s did not ask for bookmarks", c.Name)
			}
		}
	}
	if !fl.WithoutAtLeast || asked != 105 {
		t.Errorf("%d clients' relists without bookmarks the least they could be, want the 105 that asked for them (TRUTH.tsv)", asked)
	}
	var line string
	for _, l := range a.Summary(nil) {
		if l.Topic == "fleet" {
			line = l.Text
		}
	}
	want := fmt.Sprintf("and without bookmarks at least %d: bookmarks save", fl.RelistsWithout)
	if !strings.Contains(line, want) || !strings.Contains(line, "the 105 clients that asked for them would have resumed from older ones") {
		t.Errorf("the fleet's line: %q\nwant %q and why", line, want)
	}
	// The share saved and why it is a least share one pair of
	// parentheses: "(100.0 %) (the audit logs show …)" read as two asides.
	if strings.Contains(line, ") (") || !strings.Contains(line, " %; the audit logs show") {
		t.Errorf("the fleet's line has two asides in a row, or not the share with its why: %q", line)
	}
	// The page shows the worst moment's words alone: they say why too.
	// Its count is no least: the clients that did not ask for bookmarks
	// are counted from their last requests' RVs, which their events may
	// have moved past since.
	if worst := a.WorstWords(); !strings.Contains(worst, "about ") || strings.Contains(worst, "at least") || !strings.Contains(worst, "clients would have relisted without bookmarks") ||
		!strings.Contains(worst, "(an estimate: the audit logs show each client's cursor as of its last request;") {
		t.Errorf("the worst moment, as the page shows it: %q", worst)
	}
	if captured := buildRecording(t, "samples-lab", "*.ts.http").Analyze(realServer()).Fleet(); captured.WithoutAtLeast {
		t.Errorf("the captures show each cursor, yet the relists without bookmarks are a least")
	}
}

// TestNoSavingOfAtLeastNothing: where every client asked for bookmarks
// and the relists without them are a least no larger than those with
// them (clients read from audit logs), the least bookmarks save is none,
// which the fleet's line says as not known, not as "save at least 0".
// (samples-outage's audit logs gave this once; its WatchList clients
// now count each reconnect without bookmarks: TestWatchListsRereadWithoutBookmarks.)
func TestNoSavingOfAtLeastNothing(t *testing.T) {
	fl := &Fleet{Clients: []FleetClient{{Bookmarks: true, WithoutAtLeast: true}}, RelistsWith: 3, RelistsWithout: 3, WithoutAtLeast: true, SavingsKnown: true}
	line := (&summarizer{}).fleetBookmarks(fl)
	want := "Had every client asked for bookmarks, 3 reconnects would have needed a relist, and without bookmarks at least as many: what bookmarks would save is not known (the audit logs show the cursor the bookmarks kept fresh; without them, the 1 client that asked for them would have resumed from older ones, which the logs do not show)."
	if line != want {
		t.Errorf("the fleet's line: %q\nwant %q", line, want)
	}
}

// TestWatchListsRereadWithoutBookmarks: a WatchList's sync ends only
// with a bookmark, so without bookmarks a WatchList client never syncs
// and each reconnect reads its whole selection again. samples-outage's
// 99 clients all list through WatchList and asked for bookmarks: without
// them each of their reconnects is such a read, at least (the retries
// when the wait for the sync runs out come on top), where the fleet
// counted the relists of cursors that ignored bookmarks (88); its worst
// moment is the worst with bookmarks. The samples-watchlist clients that never synced count their requests
// after the first, each such a read, as recorded.
func TestWatchListsRereadWithoutBookmarks(t *testing.T) {
	a := buildRecording(t, "samples-outage", "*.ts.http").Analyze(realServer())
	fl := a.Fleet()
	for _, c := range fl.Clients {
		if !c.WatchList || !c.Bookmarks {
			t.Fatalf("%s: WatchList %v, bookmarks %v; samples-outage's clients all list through WatchList and ask for bookmarks", c.Name, c.WatchList, c.Bookmarks)
		}
	}
	// The reconnects the what-if judged, each once (the summary's "100
	// reconnects recorded"): every one would have read everything again.
	reconnects := a.WhatIf.Reconnects
	if fl.WatchListsAsked != len(fl.Clients) || fl.RelistsWithout != reconnects || !fl.WithoutAtLeast || fl.Saved != reconnects-fl.RelistsWith || fl.RelistsWith != 74 {
		t.Errorf("%d WatchList clients asked of %d; %d relists without bookmarks (a least: %v), want %d, their reconnects; %d with, %d saved",
			fl.WatchListsAsked, len(fl.Clients), fl.RelistsWithout, fl.WithoutAtLeast, reconnects, fl.RelistsWith, fl.Saved)
	}
	line := summaryTopic(a, "fleet")
	// Every client asked: their side with bookmarks is what they did.
	if want := fmt.Sprintf("Every client asked for bookmarks, and 74 reconnects needed a relist; had none asked, at least %d would have: bookmarks save at least %d relists", reconnects, reconnects-74); !strings.Contains(line, want) || !strings.Contains(line, "would never have synced") {
		t.Errorf("the fleet's line %q, want %q and why", line, want)
	}
	// Every client asked: the worst moment is the one with the most
	// refused with bookmarks (77 from 19:12:21.050), not without them (81
	// from 19:11:54.648, where 61 were with them), and its words say that
	// side first.
	most := 0
	for _, st := range fl.Steps {
		most = max(most, st.With)
	}
	if fl.Worst < 0 || fl.Stampedes[fl.Worst].With != most {
		t.Errorf("the worst moment %+v, want one where %d are refused with bookmarks", fl.Stampedes, most)
	} else if words, want := a.WorstWords(), fmt.Sprintf(", %d clients would have relisted with the bookmarks they asked for", most); !strings.Contains(words, want) {
		t.Errorf("the worst moment %q, want %q", words, want)
	}
	// A WatchList client that asked for bookmarks and never synced all
	// the same: bookmarks changed nothing, and save nothing.
	asked := (&capture{}).watch(watchList(true), 0, 10*s).ev(parser.Added, 5, s, "a").
		watch(watchList(true), 11*s, 20*s).ev(parser.Added, 6, 12*s, "a").
		watch(watchList(true), 21*s, 30*s).ev(parser.Added, 7, 22*s, "a")
	other := (&capture{}).watch(watchList(true), 0, 30*s).ev(parser.Added, 5, s, "b").initialEnd(5, 2*s)
	if f := build(asked, other).Analyze(DefaultParams()).Fleet(); f == nil || !f.Clients[0].NeverSynced || f.Clients[0].RelistsWith != 2 || f.Clients[0].RelistsWithout != 2 || f.Saved != 0 {
		t.Errorf("a client that asked for bookmarks and never synced: %+v", f)
	}
	w := buildRecording(t, "samples-watchlist", "c03[2-5]-*.ts.http").Analyze(realServer()).Fleet()
	repeats := 0
	for _, c := range w.Clients {
		repeats += c.Repeats
	}
	if repeats == 0 || w.RelistsWithout != repeats || w.WithoutAtLeast {
		t.Errorf("samples-watchlist's clients that never synced: %d relists without bookmarks (a least: %v), want %d, their requests after the first", w.RelistsWithout, w.WithoutAtLeast, repeats)
	}
}

// TestAtRiskSaysMay: samples-fleet's riskiest moment is at risk by the
// replay of every ConfigMap, whose words for a refusal are certain ("no
// longer reached back to it"); at risk, they say it may no longer have.
func TestAtRiskSaysMay(t *testing.T) {
	a := buildRecording(t, "samples-fleet", "*.ts.http").Analyze(realServer())
	line := summaryTopic(a, "riskiest")
	if !strings.Contains(line, "at risk of a 410: the API server's recent history of ConfigMap changes, replayed from a capture of every ConfigMap, may no longer have reached back to it") {
		t.Errorf("the riskiest line: %q", line)
	}
}

// TestFleetReconnectAsRecorded: a reconnect of every client at an instant
// counted only "had none asked for bookmarks" and "had every client
// asked"; an SRE asks what the clients as they ran would have got (the
// UI review of the page): each client's own cursor, with bookmarks where
// it asked for them, as its verdict at that instant says.
func TestFleetReconnectAsRecorded(t *testing.T) {
	a := buildRecording(t, "samples-fleet", "*.ts.http").Analyze(DefaultParams())
	at := instant(t, "2026-12-01T08:43:00Z")
	fc, _ := a.FleetReconnect(ResumeQuery{At: at})
	var want OutcomeCounts
	for _, c := range a.Fleet().Clients {
		own := BookmarkIgnoring
		if c.Bookmarks {
			own = BookmarkAware
		}
		for _, v := range a.ResumeAt(c.File, at) {
			if v.Kind == own {
				want.add(v.Outcome, judgedOrHeadUnknown)
			}
		}
	}
	if fc.AsRecorded.Refused == 0 || fc.AsRecorded.Refused == fc.Without.Refused && fc.AsRecorded.AtRisk == fc.Without.AtRisk {
		t.Fatalf("as recorded %+v, without bookmarks %+v: the instant does not tell them apart", fc.AsRecorded, fc.Without)
	}
	if fc.AsRecorded.Refused != want.Refused || fc.AsRecorded.AtRisk != want.AtRisk || fc.AsRecorded.Accepted != want.Accepted {
		t.Errorf("as recorded %+v; the clients' own verdicts %+v", fc.AsRecorded, want)
	}
}

// TestDropsAreWatchesTheServersEnded: a client's drops are its watches
// that ended early, not its requests no server answered, nor the last
// watches that most clients closed together as the recording stopped
// (recordingStopped). samples-watchlist's
// captures drop the 165 streams the servers' shutdowns cut (84 + 81, its
// README), not the 99 last watches the clients closed as the fleet
// ended; samples-outage's drop the 100 watches each followed by a
// reconnect, not the 997 requests that reached no server (966 of them
// during the outage).
func TestDropsAreWatchesTheServersEnded(t *testing.T) {
	for _, c := range []struct {
		recording string
		want      func(*Fleet) int
	}{
		{"samples-watchlist", func(*Fleet) int { return 84 + 81 }},
		{"samples-outage", func(fl *Fleet) int {
			n := 0
			for _, c := range fl.Clients {
				n += c.Reconnects
			}
			return n
		}},
	} {
		fl := buildRecording(t, c.recording, "*.ts.http").Analyze(realServer()).Fleet()
		drops := 0
		for _, cl := range fl.Clients {
			drops += cl.Drops
		}
		if want := c.want(fl); drops != want || want == 0 {
			t.Errorf("%s: %d drops, want %d", c.recording, drops, want)
		}
	}
}

// TestResumeAtSaysTheDelayIsNotAdded: with a reconnect delay, an answer
// to an instant asked is of a reconnect then, while the zones and the
// fleet's curves count a drop then and its reconnect the delay later:
// the answer says so, for one capture and for a fleet; without a delay
// it says nothing of it.
func TestResumeAtSaysTheDelayIsNotAdded(t *testing.T) {
	one := loadSamples(t, "w3-then-resume.ts.http")
	fleet := buildRecording(t, "samples-fleet", "*.ts.http")
	for _, tl := range []*Timeline{one, fleet} {
		at := (tl.Files[0].Start + tl.Files[0].End) / 2
		for _, delay := range []time.Duration{0, 5 * time.Second} {
			line := resumeAtLine(tl.Analyze(params(func(p *Params) { p.Delay = delay })), at)
			said := strings.Contains(line, "This is a reconnect at that instant: the zones and the fleet's curves, with the reconnect delay of 5s, count a drop then and its reconnect 5s later.")
			if line == "" || said != (delay > 0) {
				t.Errorf("%d files, delay %s: %q", len(tl.Files), delay, line)
			}
		}
	}
}

// TestStampedesRankTheSideTheFleetRan: where no model refuses any
// reconnect, the stretches are ranked by the clients at risk: with
// bookmarks where every client asked for them, without them otherwise;
// and where none is counted with bookmarks (an audit log shows no
// bookmark), without them whatever the clients asked.
func TestStampedesRankTheSideTheFleetRan(t *testing.T) {
	sec := int64(time.Second)
	steps := []FleetStep{
		{T: 0},
		{T: 10 * sec, AtRiskWithout: 9, AtRiskWith: 2},
		{T: 20 * sec, AtRiskWithout: 3, AtRiskWith: 7},
		{T: 30 * sec},
	}
	for _, c := range []struct {
		asked, rankedWith bool
		from              int64
	}{{true, true, 20 * sec}, {false, false, 10 * sec}} {
		st, worst, with := stampedes(steps, c.asked)
		if worst < 0 || with != c.rankedWith || st[worst].From != c.from {
			t.Errorf("asked %v: worst %d of %+v, ranked with bookmarks %v; want the one from %s, %v", c.asked, worst, st, with, FormatDuration(c.from), c.rankedWith)
		}
	}
	none := []FleetStep{{T: 0}, {T: 10 * sec, AtRiskWithout: 9}, {T: 20 * sec}}
	if st, worst, with := stampedes(none, true); worst < 0 || with || st[worst].AtRiskWithout != 9 {
		t.Errorf("nothing with bookmarks: worst %d of %+v, ranked with bookmarks %v", worst, st, with)
	}
}

// TestWorstMomentWithBookmarksIsSaid: the lab's worst moment, ranked by
// the relists without bookmarks (at 18:20:06, 133), costs none with
// them; but b's new process kept only its 100 newest ConfigMap changes
// (its metrics), and a drop at 18:17:17 would have sent 17 clients with
// fresh bookmarks to relist. The sentence says both, lest "0 with them"
// read as bookmarks keeping every client safe throughout; the fleet
// recording, whose with-bookmarks curve stays at 0, says no more.
func TestWorstMomentWithBookmarksIsSaid(t *testing.T) {
	lab := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	peak := 0
	for _, st := range lab.Fleet().Steps {
		peak = max(peak, st.With)
	}
	if want := fmt.Sprintf(" With bookmarks, the worst moment was from 2026-12-01 18:17:17.000 UTC, when %d clients would have relisted (74 without).", peak); peak != 17 || !strings.HasSuffix(lab.WorstWords(), want) {
		t.Errorf("the lab's worst moment: %q, want it to end %q (the with-bookmarks curve's peak %d)", lab.WorstWords(), want, peak)
	}
	fleet := buildRecording(t, "samples-fleet", "*.ts.http", "audit-*.log").Analyze(realServer())
	if w := fleet.WorstWords(); !strings.HasSuffix(w, "0 with them.") {
		t.Errorf("the fleet recording's worst moment: %q, want nothing after its with-bookmarks count of 0", w)
	}
}
