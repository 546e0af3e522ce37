package timeline

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// labAnyServerRight is how many of the lab's 425 probes a reconnect
// asked at the probe's instant, its server not known, answers as the
// server that took it did: 389 while an estimate of the cache's time
// window put a reconnect at risk that every server serving then held by
// its metrics. labAuditAnyServerRight is the same from the audit logs,
// the metrics and the informers' log alone (289 then).
const (
	labAnyServerRight      = 400
	labAuditAnyServerRight = 346
)

// "If my client had come back then, would it have been refused?", asked
// of the lab at each probe's instant with the whole incident's records
// before it: the load balancer picks among the servers serving, and
// where the metrics of every one of them hold the cursor the answer is
// accepted, not at risk. No answer contradicts the server's.
func TestLabResumeAtAnyServer(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	tl := b.Build()
	files := map[string]int{}
	for fi, f := range tl.Files {
		files[strings.TrimSuffix(f.Name, ".ts.http")] = fi
	}
	askProbes(t, tl, files, labAnyServerRight)
}

// The same question, as most incidents leave it: no capture, only the
// servers' audit logs, their metrics and the informers' own log.
func TestLabResumeAtAnyServerFromAuditLogs(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "audit-*.log", "prometheus/query_range/*.json.gz", "fleet-klog.log")
	tl := b.Build()
	files := map[string]int{}
	for fi := range tl.Files {
		if client, ok := auditTruthKey(tl, fi); ok {
			files[client] = fi
		}
	}
	askProbes(t, tl, files, labAuditAnyServerRight)
}

// askProbes asks, of each probe of the lab, a reconnect of its client
// (files: the file of each) at its instant, whose server is not known,
// and checks that none contradicts the server's answer and at least
// right are that answer, some of them accepted as every server serving
// then held the cursor.
func askProbes(t *testing.T, tl *Timeline, files map[string]int, right int) {
	p := DefaultParams()
	p.EtcdInterval = time.Minute
	a := tl.Analyze(p)
	kinds := map[string]CursorKind{"bookmark-aware": BookmarkAware, "bookmark-ignoring": BookmarkIgnoring}
	want := map[string]Outcome{"ok": Accepted, "410": Refused}
	counts := map[string]int{}
	held := 0
	for _, pr := range labTable(t, "probes.tsv") {
		fi, ok := files[pr["client"]]
		if !ok {
			t.Fatalf("no file of %s", pr["client"])
		}
		at := instant(t, pr["probe_time"])
		v := verdictsAt(a, fi, at)[kinds[pr["cursor_kind"]]]
		what := fmt.Sprintf("%s's %s reconnect at %s from RV %d, answered %s", pr["client"], pr["cursor_kind"], pr["probe_time"], v.RV, pr["answer"])
		switch got := v.Outcome; {
		case got == want[pr["answer"]]:
			counts["right"]++
			if got == Accepted && a.everyServerHolds(fi, v.RV, at) {
				held++
			}
		case got == Accepted || got == Refused:
			counts["wrong"]++
			t.Errorf("%s: %v, %s", what, got, v.Reason)
		default:
			counts[got.String()]++
			per, _ := a.ResumeAtServers(fi, v.Kind, at)
			t.Logf("%s on %s: %v (%s), %s", what, pr["incarnation"], got, a.ServerWords(per), v.Reason)
		}
	}
	t.Logf("the lab's 425 probes, asked of any server: %v; %d accepted as every serving server held them", counts, held)
	if counts["right"] < right || held == 0 {
		t.Errorf("%d probes answered right, want at least %d; %d by every server holding: %v", counts["right"], right, held, counts)
	}
}

// everyServerHolds answers by pieces between the instants boundsChanges
// lists; at any instant it must say what the servers' bounds at that
// very instant say, or the zones and a verdict would not agree with a
// server's own verdict (ResumeAtServers).
func TestEveryServerHoldsAsTheBoundsAtTheInstant(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "c104-nobookmarks.ts.http", "s030-secret-nobookmarks.ts.http", "broad-a.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	tl := b.Build()
	a := tl.Analyze(DefaultParams())
	if !a.everyServer() {
		t.Fatal("the lab's servers are not all known")
	}
	direct := func(file int, rv uint64, at int64) bool {
		if at >= a.refusedByAnyFrom(file, rv) {
			return false
		}
		serving := false
		for s := range tl.Servers {
			inc := tl.Servers[s].serving(at)
			if inc < 0 {
				continue
			}
			serving = true
			b := a.boundCache(tl.Files[file].Kind, a.resourceOf(file), serverRef{s, inc}, at)
			if !b.held || rv < b.heldFrom || rv < b.refusedBelow {
				return false
			}
		}
		return serving
	}
	asked, heldAt := 0, 0
	for fi, f := range tl.Files {
		if f.Name != "c104-nobookmarks.ts.http" && f.Name != "s030-secret-nobookmarks.ts.http" {
			continue
		}
		hp := a.heldPiecesOf(fi)
		// Each piece's first instant, the one before it, and one inside,
		// for the cursor's values over the capture.
		var rvs []uint64
		for k := 0; k < a.cursor(fi, BookmarkAware).Len(); k += 7 {
			if _, rv := a.cursor(fi, BookmarkAware).Step(k); rv != unsetRV && rv != unknownRV {
				rvs = append(rvs, rv)
			}
		}
		if len(rvs) == 0 {
			t.Fatalf("%s: no cursor value of %d steps", f.Name, a.cursor(fi, BookmarkAware).Len())
		}
		for k, t0 := range hp.t {
			for _, at := range []int64{t0 - 1, t0, t0 + 1, t0 + 333_333} {
				for _, rv := range rvs[k%len(rvs):][:1] {
					asked++
					got := a.everyServerHolds(fi, rv, at)
					if got {
						heldAt++
					}
					if got != direct(fi, rv, at) {
						t.Fatalf("%s, RV %d at %s: by pieces %v, by the bounds then %v", f.Name, rv, a.instant(at), got, !got)
					}
				}
			}
		}
	}
	t.Logf("held at %d of %d instants asked", heldAt, asked)
	if heldAt == 0 || heldAt == asked {
		t.Errorf("held at %d of %d instants asked: the comparison misses one answer", heldAt, asked)
	}
}

// A risk zone that begins once every server serving stops holding the
// cursor by its metrics says so, and a reconnect from a drop just before
// it is accepted, one at its start at risk.
func TestRiskAfterEveryServerHeldSaysSo(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "c010-bookmarks.ts.http", "c104-nobookmarks.ts.http", "broad-a.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	a := b.Build().Analyze(DefaultParams())
	checked := 0
	for _, z := range a.RiskZones {
		if !z.heldBefore {
			continue
		}
		checked++
		if why := a.ZoneReason(z); !strings.Contains(why, "every API server serving held RV "+FormatRV(z.FromRV)+" by its metrics") {
			t.Errorf("%s's risk zone from %s: %q", a.TL.Files[z.File].Name, a.instant(z.From), why)
		}
		before, at := a.Verdict(z.File, z.Kind, z.From-1, a.Params.Delay), a.Verdict(z.File, z.Kind, z.From, a.Params.Delay)
		if before.Outcome != Accepted || at.Outcome != AtRisk {
			t.Errorf("%s's %v risk zone from %s: a drop just before it %v (%s), one at it %v", a.TL.Files[z.File].Name, z.Kind, a.instant(z.From), before.Outcome, before.Reason, at.Outcome)
		}
	}
	if checked == 0 {
		t.Fatal("no risk zone begins after every server held its cursor")
	}
	t.Logf("%d risk zones begin after every server held their cursor", checked)
}
