package timeline

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestEveryServerRefusesOutage: on samples-outage (three API servers,
// audit logs, their own logs, metrics), a reconnect of every client at
// 19:10:00, inside the outage, is answered at its end (19:11:43.874),
// and without bookmarks each server's own evidence refuses the same 79
// clients then. A reconnect goes to one of the servers: refused by
// every one, it is refused, not only put at risk; by some, it is at
// risk. The verdicts, the fleet's counts, its steps and the summary say
// the same, each server's count beside the fleet's.
func TestEveryServerRefusesOutage(t *testing.T) {
	a := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log", "apiserver-*.log", "prometheus/query_range/*.json.gz").Analyze(DefaultParams())
	at := time.Date(2026, 12, 1, 19, 10, 0, 0, time.UTC).UnixNano()
	fl := a.Fleet()
	if fl == nil || len(a.TL.Servers) != 3 {
		t.Fatalf("fleet %v, %d servers, want a fleet on 3", fl != nil, len(a.TL.Servers))
	}
	byAll, bySome, refusedBy := checkEveryServer(t, a, at)
	for s := range refusedBy {
		sort.Strings(refusedBy[s])
		if strings.Join(refusedBy[s], " ") != strings.Join(refusedBy[0], " ") {
			t.Errorf("server %s refuses %d clients, a %d: not the same", a.TL.Servers[s].Name, len(refusedBy[s]), len(refusedBy[0]))
		}
	}
	if byAll != 79 || bySome != 0 {
		t.Errorf("without bookmarks, every server refuses %d clients and some %d, want 79 and 0", byAll, bySome)
	}
	// Around the outage, every 10 s up to the end of the shared clock
	// (where the zones, and so the fleet's steps, end; the captures end
	// before it, after which the fleet counts no client): the same
	// agreement.
	for when := at - int64(2*time.Minute); when < a.end; when += int64(10 * time.Second) {
		checkEveryServer(t, a, when)
	}

	var line string
	for _, l := range a.Summary([]ResumeQuery{{At: at}}) {
		if l.Topic == "resume-at" {
			line = l.Text
		}
	}
	if strings.Contains(line, "none would have been refused by all") || !strings.Contains(line, "without bookmarks, 79 of the 97 clients judged would have been refused") {
		t.Errorf("the summary says %q, want 79 refused without bookmarks", line)
	}
	if !strings.Contains(line, "a 79, b 79, c 79") {
		t.Errorf("the summary says %q, want each server's count", line)
	}
}

// checkEveryServer checks, for a reconnect of every client of a's fleet
// at instant at, that a verdict is refused where every serving server
// refuses it and at least at risk where one does, and that the fleet's
// counts and its step then say the same; it returns how many clients
// without bookmarks every server refuses, how many some do, and the
// names of those each server refuses.
func checkEveryServer(t *testing.T, a *Analysis, at int64) (byAll, bySome int, refusedBy [][]string) {
	t.Helper()
	fl := a.Fleet()
	when := FormatInstant(at, time.UTC)
	refusedBy = make([][]string, len(a.TL.Servers))
	var counted [2]OutcomeCounts // with bookmarks, without them
	for k := range fl.Clients {
		c := &fl.Clients[k]
		with, without := a.sides(c)
		for side, kind := range [2]CursorKind{with, without} {
			var v Verdict
			for _, r := range a.ResumeAt(c.File, at) {
				if r.Kind == kind {
					v = r
				}
			}
			got, why := a.resumeOutcomeWhy(c.File, kind, a.reconnectReach(c.File, at, at), at)
			if a.TL.Files[c.File].EndsBefore(at) {
				// Judged as it was left, but not counted: nothing shows
				// it still watching then.
				counted[side].add(Unknown, afterRecording)
			} else {
				counted[side].add(v.Outcome, why)
			}
			if got != v.Outcome {
				t.Errorf("%s: %s %s: resumeOutcome %s, ResumeAt %s", when, c.Name, kind, got, v.Outcome)
			}
			per, _ := a.ResumeAtServers(c.File, kind, at)
			refusingServers, serving := refusedOn(per)
			refusing := len(refusingServers)
			for _, sv := range refusingServers {
				if side == 1 {
					refusedBy[sv] = append(refusedBy[sv], c.Name)
				}
			}
			for _, m := range v.Models {
				if m.Model != ModelEveryServer {
					continue
				}
				if m.Outcome == Refused && refusing < serving || m.Outcome == AtRisk && refusing == 0 {
					t.Errorf("%s: %s %s RV %d: every-server says %s, the servers %s: %s", when, c.Name, kind, v.RV, m.Outcome, a.ServerWords(per), a.ModelReason(v, m.Model))
				}
			}
			switch {
			case refusing > 0 && refusing == serving:
				if side == 1 {
					byAll++
				}
				if v.Outcome != Refused {
					t.Errorf("%s: %s %s RV %d: every server refuses it (%s), the verdict is %s: %s", when, c.Name, kind, v.RV, a.ServerWords(per), v.Outcome, v.Reason)
				}
			case refusing > 0:
				if side == 1 {
					bySome++
				}
				if v.Outcome != Refused && v.Outcome != AtRisk {
					t.Errorf("%s: %s %s RV %d: %s, the verdict is %s: %s", when, c.Name, kind, v.RV, a.ServerWords(per), v.Outcome, v.Reason)
				}
			}
		}
	}
	fc, _ := a.FleetReconnect(ResumeQuery{At: at})
	if fc.Without != counted[1] || fc.With != counted[0] {
		t.Errorf("%s: FleetReconnect %+v/%+v, the verdicts count %+v/%+v", when, fc.Without, fc.With, counted[1], counted[0])
	}
	k := sort.Search(len(fl.Steps), func(i int) bool { return fl.Steps[i].T > at }) - 1
	var st FleetStep
	if k >= 0 {
		st = fl.Steps[k]
	}
	if st.Without != fc.Without.Refused || st.AtRiskWithout != fc.Without.AtRisk || st.With != fc.With.Refused || st.AtRiskWith != fc.With.AtRisk {
		t.Errorf("%s: the fleet's step %+v, its reconnect then %+v/%+v", when, st, fc.Without, fc.With)
	}
	return byAll, bySome, refusedBy
}

// fileNamed is the index of the file whose short name is name.
func fileNamed(t *testing.T, tl *Timeline, name string) int {
	t.Helper()
	for fi := range tl.Files {
		if tl.Files[fi].ShortName() == name {
			return fi
		}
	}
	t.Fatalf("no file %s", name)
	return -1
}

// TestEveryServerZoneReasonsNameTheirServers: an every-server zone's
// reason gives the own evidence of each server that decides it, as
// judged at the zone's first instant, that instant included: a red zone
// names every server (each refuses, or is restarting), a risk zone the
// ones that refuse. A zone that a server's own 410 starts was explained
// without that 410: the red zone of samples-lab at 18:13:29.032, started
// by server c's 410 then, named only a and b, and samples-fleet's risk
// zones from server b's 410 at 08:40:38.029 read "the evidence of
// refuses RV 286, that of a and b does not".
func TestEveryServerZoneReasonsNameTheirServers(t *testing.T) {
	for _, rec := range recordings {
		if rec.name == "samples-watchlist" {
			continue // no 410 in it: no zone to explain
		}
		t.Run(rec.name, func(t *testing.T) {
			a := buildRecording(t, rec.name, rec.patterns...).Analyze(DefaultParams())
			named := func(reason string) (n int) {
				for _, s := range a.TL.Servers {
					if strings.Contains(reason, "server "+s.Name+"'s ") {
						n++
					}
				}
				return n
			}
			red, risky, wrong := 0, 0, 0
			for _, z := range a.Zones {
				if z.Model != ModelEveryServer {
					continue
				}
				red++
				if n := named(a.ZoneReason(z)); n != len(a.TL.Servers) {
					if wrong++; wrong <= 3 {
						t.Errorf("the red zone of %s from %s names %d of the %d servers: %s", a.TL.Files[z.File].Name, FormatInstant(z.From, time.UTC), n, len(a.TL.Servers), a.ZoneReason(z))
					}
				}
			}
			for _, z := range a.RiskZones {
				if z.Model != ModelEveryServer {
					continue
				}
				risky++
				if n := named(a.ZoneReason(z)); n == 0 || n == len(a.TL.Servers) {
					if wrong++; wrong <= 3 {
						t.Errorf("the risk zone of %s from %s names %d of the %d servers: %s", a.TL.Files[z.File].Name, FormatInstant(z.From, time.UTC), n, len(a.TL.Servers), a.ZoneReason(z))
					}
				}
			}
			if red == 0 || risky == 0 {
				t.Fatalf("%d red and %d risk zones of every-server: the check misses one kind", red, risky)
			}
			if wrong > 0 {
				t.Errorf("%d of %d every-server zones do not name the servers that decide them", wrong, red+risky)
			}
		})
	}
}

// TestReconnectInAnOutageSaysSo: asked for a reconnect of every client
// inside the outage's stretch, the fleet's answer says that no request
// reached a server then; outside it, it does not.
func TestReconnectInAnOutageSaysSo(t *testing.T) {
	a := buildRecording(t, "samples-outage", "*.ts.http").Analyze(realServer())
	os := a.TL.Outages()
	if len(os) == 0 {
		t.Fatal("the outage recording shows no outage")
	}
	o := os[0]
	for at, want := range map[int64]bool{(o.From + o.To) / 2: true, o.To + int64(time.Minute): false} {
		line := ""
		for _, l := range a.Summary([]ResumeQuery{{At: at}}) {
			if l.Topic == "resume-at" {
				line = l.Text
			}
		}
		if got := strings.Contains(line, "No client's request reached an API server from "+a.instant(o.From)); got != want {
			t.Errorf("at %s the fleet's answer says the outage %v, want %v: %q", a.instant(at), got, want, line)
		}
	}
}

// TestEveryServerReasonGivesEachServersBounds: at 18:13:28.967 every
// server of samples-lab that could answer (b and c; a was shutting down)
// refuses c145's cursor 336 by its metrics. The
// answer's reason gave each server's bounds as they first refused it
// (b's "all received after 18:10:13, when its RV was 621") beside the
// server's own answer with its bounds then ("after 18:10:49, when its RV
// was 793"): two figures for one server in one answer. It gives the
// bounds at the instant, as each server's answer does.
func TestEveryServerReasonGivesEachServersBounds(t *testing.T) {
	a := buildRecording(t, "samples-lab", "c145-nobookmarks.ts.http", "broad-a.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	at := instant(t, "2026-12-01T18:13:28.967510773Z")
	v := a.ResumeAt(0, at)[0]
	if v.Outcome != Refused || !strings.HasPrefix(v.Reason, "every API server") {
		t.Fatalf("%s: %v, %s", a.TL.Files[0].ShortName(), v.Outcome, v.Reason)
	}
	per, _ := a.ResumeAtServers(0, BookmarkAware, at)
	compared := 0
	for _, sv := range per {
		bounds, _, ok := strings.Cut(sv.Reason, " (metrics)")
		if !ok || sv.Outcome != Refused {
			continue
		}
		compared++
		if !strings.Contains(v.Reason, bounds+" (metrics)") {
			t.Errorf("server %s's answer %q is not in the reason %q", a.TL.Servers[sv.Server].Name, bounds, v.Reason)
		}
	}
	if compared < 2 {
		t.Errorf("%d servers refuse by their metrics, want at least 2 to compare", compared)
	}
}

// TestFleetRefusedByAllOrByItsConnection: had every client of
// samples-lab reconnected at 18:15:15 or at 18:17:30, a client is
// counted refused where every server that answers then refuses it, or
// the one its open connection was to does (by its own 410s at 18:15:15,
// by its metrics at 18:17:30), and only there; the summary says how many
// are the latter, beside the counts per server, which are otherwise
// lower than the refused (at 18:15:15 c refuses 54 of the 56). In
// samples-watchlist at 18:48:20.965 the connection's server refuses by
// its restart: a new process refuses the cursor the client would have
// had without bookmarks. Where some client's connection is to a server
// that takes it while another refuses it, the summary says how many
// would have been refused had each reached a server that refuses it,
// without bookmarks and with them: at 18:15:15 b's new process, a
// quarter of a minute old, refuses 85 clients' bookmarked cursors, which
// their connections to a and c take.
func TestFleetRefusedByAllOrByItsConnection(t *testing.T) {
	lab := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	watchList := buildRecording(t, "samples-watchlist", "*.ts.http", "audit-*.log").Analyze(realServer())
	worstSaid := 0
	for _, asked := range []struct {
		a    *Analysis
		when string
	}{{lab, "2026-12-01T18:15:15Z"}, {lab, "2026-12-01T18:17:30Z"}, {watchList, "2026-12-01T18:48:20.965Z"}} {
		a, when := asked.a, asked.when
		at := instant(t, when)
		fc, _ := a.FleetReconnect(ResumeQuery{At: at})
		counted, byConn, some := 0, 0, 0
		// With bookmarks: the clients some server refuses, and those
		// counted refused (by all, or by their connection's).
		someWith, countedWith := 0, 0
		for _, c := range a.Fleet().Clients {
			withKind, without := a.sides(&c)
			perWith, likelyWith := a.ResumeAtServers(c.File, withKind, at)
			if r, answering := refusedOn(perWith); len(r) > 0 {
				someWith++
				if len(r) == answering || likelyWith >= 0 && perWith[likelyWith].Outcome == Refused {
					countedWith++
				}
			}
			o, _ := a.resumeOutcomeWhy(c.File, without, a.reconnectReach(c.File, at, at), at)
			per, likely := a.ResumeAtServers(c.File, without, at)
			refusing, answering := refusedOn(per)
			n := len(refusing)
			all, conn := answering > 0 && n == answering, likely >= 0 && per[likely].Outcome == Refused
			if (o == Refused) != (all || conn) {
				t.Errorf("at %s %s: %v, where %d of the %d servers answering refuse it, and its connection's (%d) %v", when, a.TL.Files[c.File].Name, o, n, answering, likely, conn)
			}
			if n > 0 {
				some++
			}
			if o != Refused {
				continue
			}
			counted++
			if !all {
				byConn++
			}
		}
		if byConn == 0 || counted != fc.Without.Refused {
			t.Fatalf("at %s %d refused without bookmarks, %d found so, %d by their connection's", when, fc.Without.Refused, counted, byConn)
		}
		want := fmt.Sprintf(" %d of them are counted refused above: a reconnect goes over the client's open connection", byConn)
		if line := resumeAtLine(a, at); !strings.Contains(line, want) {
			t.Errorf("at %s the summary says %q, want %q", when, line, want)
		}
		// The clients whose connection's server takes them and another
		// refuses: a roll may send them to the latter, on either side.
		worst := fmt.Sprintf(" These counts take each client over its open connection; had each reached a server that refuses it, as a client whose server goes away does, %d would have been refused without bookmarks and %d with them.", some, someWith)
		// None refused with bookmarks, where some server would refuse
		// some, is said of all the servers, not of the fleet.
		if line := resumeAtLine(a, at); someWith > 0 && countedWith == 0 && !strings.Contains(line, "with bookmarks, none would have been refused by all") {
			t.Errorf("at %s the summary says %q, where %d clients' bookmarked cursors some server refuses", when, line, someWith)
		}
		switch line := resumeAtLine(a, at); {
		case (some > counted || someWith > countedWith) && !strings.Contains(line, worst):
			t.Errorf("at %s the summary says %q, want %q", when, line, worst)
		case some > counted || someWith > countedWith:
			worstSaid++
		case strings.Contains(line, "had each reached a server that refuses it"):
			t.Errorf("at %s the summary says %q, where every client some server refuses is counted refused", when, line)
		}
	}
	if worstSaid == 0 {
		t.Error("no instant where a server other than the connection's refuses more")
	}
}

// refusedOn lists the servers of per that refuse, among the serving
// ones it counts (a restarting one, with no process, answers none).
func refusedOn(per []ServerVerdict) (refusing []int, serving int) {
	for _, sv := range per {
		if sv.Incarnation < 0 {
			continue
		}
		serving++
		if sv.Outcome == Refused {
			refusing = append(refusing, sv.Server)
		}
	}
	return refusing, serving
}
