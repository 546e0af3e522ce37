package timeline

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// labAnyServerRight is how many of the lab's 425 probes a reconnect
// asked at the probe's instant, its server not known, answers as the
// server that took it did, with the captures, the audit logs and the
// metrics; labAuditAnyServerRight the same from the audit logs, the
// metrics and the informers' log alone.
const (
	labAnyServerRight      = 422
	labAuditAnyServerRight = 404
)

// "If my client had come back then, would it have been refused?", asked
// of the lab at each probe's instant with the whole incident's records
// before it: the load balancer picks among the servers serving, and
// where the metrics of every one of them hold the cursor the answer is
// accepted, not at risk. No answer contradicts the server's.
func TestLabResumeAtAnyServer(t *testing.T) {
	tl, files := labWithCaptures(t)
	askProbes(t, tl, files, labAnyServerRight)
}

// labWithCaptures is the lab's captures, audit logs and exports, and the
// file of each client by its name.
func labWithCaptures(t *testing.T) (*Timeline, map[string]int) {
	b := NewBuilder()
	addLab(t, b, nil, "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	tl := b.Build()
	files := map[string]int{}
	for fi, f := range tl.Files {
		files[strings.TrimSuffix(f.Name, ".ts.http")] = fi
	}
	return tl, files
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
			if got == Accepted && a.holds(fi, -1, v.RV, v.Since, at) {
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

// labEarlierRight is how many of the lab's 425 probes a reconnect of
// the same client asked a second before answers as the probe was
// answered.
const labEarlierRight = 406

// A client of the lab asked to come back a second before each probe
// reconnects over the connection it had open then, if any; where that
// connection's server's metrics hold its cursor, the reconnect is
// accepted though another server's evidence would refuse it or leave it
// in doubt (c023 at 18:15:29.9, on a2, was at risk as b's new process
// refused its cursor). No answer contradicts the probe's, a second
// later, from whichever server the load balancer then picked.
func TestLabResumeASecondEarlierOverItsConnection(t *testing.T) {
	tl, files := labWithCaptures(t)
	p := DefaultParams()
	p.EtcdInterval = time.Minute
	a := tl.Analyze(p)
	kinds := map[string]CursorKind{"bookmark-aware": BookmarkAware, "bookmark-ignoring": BookmarkIgnoring}
	want := map[string]Outcome{"ok": Accepted, "410": Refused}
	right, byConnection := 0, 0
	for _, pr := range labTable(t, "probes.tsv") {
		fi := files[pr["client"]]
		at := instant(t, pr["probe_time"]) - int64(time.Second)
		v := verdictsAt(a, fi, at)[kinds[pr["cursor_kind"]]]
		switch got := v.Outcome; {
		case got == want[pr["answer"]]:
			right++
		case got == Accepted || got == Refused:
			t.Errorf("%s's %s reconnect a second before %s, from RV %d: %v, but the probe was answered %s: %s", pr["client"], pr["cursor_kind"], pr["probe_time"], v.RV, got, pr["answer"], v.Reason)
		}
		atRisk := slices.ContainsFunc(v.Models, func(m ModelVerdict) bool { return m.Outcome == AtRisk })
		if s := v.modelServer(ModelServerCache); v.Outcome == Accepted && atRisk && s >= 0 && !a.holds(fi, -1, v.RV, v.Since, at) {
			byConnection++
			if !strings.Contains(a.heldPlain(v), "("+tl.Servers[s].Name+") still held it") {
				t.Errorf("%s at %s, accepted as server %s held it: %q", pr["client"], a.instant(at), tl.Servers[s].Name, a.heldPlain(v))
			}
		}
	}
	t.Logf("the lab's 425 probes, asked a second before: %d answered as the probe was, %d accepted as the server of the client's connection held the cursor where not every server did", right, byConnection)
	if right < labEarlierRight || byConnection == 0 {
		t.Errorf("%d answered right, want at least %d; %d by the connection's server", right, labEarlierRight, byConnection)
	}
}

// holds answers, of every server, by pieces between the instants boundsChanges
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
	// direct asks each server's bounds at the instant itself.
	direct := func(file int, rv uint64, since, at int64) bool {
		if at >= a.heldCut(file, -1, rv, since) {
			return false
		}
		serving := false
		for s := range tl.Servers {
			inc, ok := a.pickable(s, at)
			if !ok {
				continue
			}
			serving = true
			if inc < 0 {
				return false
			}
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
		type value struct {
			rv    uint64
			since int64
		}
		var rvs []value
		for k := 0; k < a.cursor(fi, BookmarkAware).Len(); k += 7 {
			if since, rv := a.cursor(fi, BookmarkAware).Step(k); rv != unsetRV && rv != unknownRV {
				rvs = append(rvs, value{rv, since})
			}
		}
		if len(rvs) == 0 {
			t.Fatalf("%s: no cursor value of %d steps", f.Name, a.cursor(fi, BookmarkAware).Len())
		}
		for k, t0 := range hp.t {
			for _, at := range []int64{t0 - 1, t0, t0 + 1, t0 + 333_333} {
				v := rvs[k%len(rvs)]
				asked++
				got := a.holds(fi, -1, v.rv, v.since, at)
				if got {
					heldAt++
				}
				if got != direct(fi, v.rv, v.since, at) {
					t.Fatalf("%s, RV %d at %s: by pieces %v, by the bounds then %v", f.Name, v.rv, a.instant(at), got, !got)
				}
			}
		}
	}
	t.Logf("held at %d of %d instants asked", heldAt, asked)
	if heldAt == 0 || heldAt == asked {
		t.Errorf("held at %d of %d instants asked: the comparison misses one answer", heldAt, asked)
	}
}

// A risk zone that begins once the servers that could answer stop
// holding the cursor by their metrics says so, and a reconnect from a
// drop just before it is accepted, one at its start at risk; so does a
// drop's horizon. Reconnects come at once and three seconds after their
// drops.
func TestRiskAfterEveryServerHeldSaysSo(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "c010-bookmarks.ts.http", "c104-nobookmarks.ts.http", "broad-a.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	tl := b.Build()
	for _, delay := range []time.Duration{0, 3 * time.Second} {
		p := DefaultParams()
		p.Delay = delay
		a := tl.Analyze(p)
		// The servers that held it: every one that could answer, or the
		// one the client's connection reached.
		holders := map[string]int{}
		says := func(why string, rv uint64) bool {
			for _, who := range []string{"every API server that could answer", "the API server its connection reached ("} {
				if k := strings.Index(why, who); k >= 0 && strings.Contains(why[k:], " held RV "+FormatRV(rv)+" by its metrics") {
					holders[who]++
					return true
				}
			}
			return false
		}
		zones := 0
		for _, z := range a.RiskZones {
			if !z.heldBefore {
				continue
			}
			zones++
			name := a.TL.Files[z.File].Name
			if why := a.ZoneReason(z); !says(why, z.FromRV) {
				t.Errorf("%s's risk zone from %s: %q", name, a.instant(z.From), why)
			}
			before, at := a.Verdict(z.File, z.Kind, z.From-1, delay), a.Verdict(z.File, z.Kind, z.From, delay)
			if before.Outcome != Accepted || at.Outcome != AtRisk {
				t.Errorf("delay %v: %s's %v risk zone from %s: a drop just before it %v (%s), one at it %v", delay, name, z.Kind, a.instant(z.From), before.Outcome, before.Reason, at.Outcome)
			}
		}
		horizons := 0
		for _, h := range a.Horizons {
			if !h.riskHeld {
				continue
			}
			horizons++
			name := a.TL.Files[h.File].Name
			if risk, _ := a.HorizonReasons(h); !says(risk, h.RV) {
				t.Errorf("%s's horizon of its drop at %s: %q", name, a.instant(h.Drop), risk)
			}
			// The client away since the drop: its cursor as it left it.
			after := func(t int64) Outcome { return a.Verdict(h.File, h.Kind, h.Drop, time.Duration(t-h.Drop)).Outcome }
			before, at := after(h.RiskFrom-1), after(h.RiskFrom)
			if before != Accepted || at != AtRisk {
				t.Errorf("%s's horizon of its drop at %s: at risk from %s, but a reconnect just before it %v, one then %v", name, a.instant(h.Drop), a.instant(h.RiskFrom), before, at)
			}
		}
		if zones == 0 || horizons == 0 || len(holders) < 2 {
			t.Fatalf("delay %v: %d risk zones and %d horizons begin after their cursor was held, by %v", delay, zones, horizons, holders)
		}
		t.Logf("delay %v: %d risk zones and %d horizons begin after their cursor was held, by %v", delay, zones, horizons, holders)
	}
}

// TestHorizonSaysWhenTheRiskLifts: a horizon is the first instant at
// which a reconnect after the drop is at risk, and where every server
// the load balancer can pick holds the cursor again a moment later (c104
// dropped as c restarts, a and b holding), its reason says from when
// until when, and the verdicts there agree: accepted from then, at risk
// just before and again at its end.
func TestHorizonSaysWhenTheRiskLifts(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "c010-bookmarks.ts.http", "c104-nobookmarks.ts.http", "broad-a.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	a := b.Build().Analyze(DefaultParams())
	lifts := 0
	for _, h := range a.Horizons {
		if h.RiskFrom == never || h.riskRefused {
			continue
		}
		from, until, ok := h.RiskLifts()
		if !ok {
			continue
		}
		lifts++
		name := a.TL.Files[h.File].Name
		if risk, _ := a.HorizonReasons(h); !strings.Contains(risk, "from "+a.instant(from)) || !strings.Contains(risk, "the risk lifts ") {
			t.Errorf("%s's horizon of its drop at %s: %q", name, a.instant(h.Drop), risk)
		}
		after := func(t int64) Outcome { return a.Verdict(h.File, h.Kind, h.Drop, time.Duration(t-h.Drop)).Outcome }
		if got := [3]Outcome{after(h.RiskFrom), after(from - 1), after(from)}; got != [3]Outcome{AtRisk, AtRisk, Accepted} {
			t.Errorf("%s's horizon of its drop at %s: at risk from %s, lifting at %s: a reconnect then, just before the lift and at it %v",
				name, a.instant(h.Drop), a.instant(h.RiskFrom), a.instant(from), got)
		}
		if until != never && until < h.RefusedFrom {
			if got := [2]Outcome{after(until - 1), after(until)}; got != [2]Outcome{Accepted, AtRisk} {
				t.Errorf("%s's horizon of its drop at %s: the risk lifting from %s until %s, a reconnect just before and at its end %v",
					name, a.instant(h.Drop), a.instant(from), a.instant(until), got)
			}
		}
	}
	if lifts == 0 {
		t.Fatal("no horizon's risk lifts before its refusal")
	}
	t.Logf("%d horizons' risks lift before their refusal", lifts)
}
