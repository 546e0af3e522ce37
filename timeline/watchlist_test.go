package timeline

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// buildRecording builds one timeline of the files of a shared recording
// that match the patterns (e.g. "*.ts.http", "audit-*.log").
func buildRecording(t testing.TB, name string, patterns ...string) *Timeline {
	t.Helper()
	dir := testsample.Recording(t, name)
	var paths []string
	for _, pattern := range patterns {
		ps, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil || len(ps) == 0 {
			t.Fatalf("%s: no file matches %s (%v)", dir, pattern, err)
		}
		paths = append(paths, ps...)
	}
	names := make([]string, len(paths))
	for k, p := range paths {
		names[k], _ = filepath.Rel(dir, p)
	}
	return buildFiles(t, dir, names...)
}

// captureClient is the TRUTH.tsv client a capture file records.
func captureClient(file string) string { return strings.TrimSuffix(file, ".ts.http") }

// watchListCounts counts, per file, its WatchList requests, those that
// synced, its repeats of a first sync and its relists by kind.
type watchListCounts struct {
	watchLists, synced, retries, relists, watchListRelists int
}

func countWatchLists(tl *Timeline) map[int]*watchListCounts {
	out := map[int]*watchListCounts{}
	get := func(f int) *watchListCounts {
		if out[f] == nil {
			out[f] = &watchListCounts{}
		}
		return out[f]
	}
	for _, w := range tl.WatchLists {
		c := get(w.File)
		c.watchLists++
		if w.Sync == SyncDone {
			c.synced++
		}
		if w.Retry {
			c.retries++
		}
	}
	for _, r := range tl.Relists {
		c := get(r.File)
		c.relists++
		if r.Kind == RelistWatchList {
			c.watchListRelists++
		}
	}
	return out
}

// TestWatchListCapturesMatchTruth: every client's WatchList requests,
// their syncs, repeats and relists, read from its own capture, equal
// what the recording's TRUTH.tsv counted from the traffic; on the
// outage, the 74 relists are WatchLists and none is a resume.
func TestWatchListCapturesMatchTruth(t *testing.T) {
	for _, rec := range []struct {
		name                         string
		relists, retries, watchLists int
		unsynced                     int
	}{
		{"samples-watchlist", 0, 90, 189, 48},
		{"samples-outage", 74, 0, 173, 0},
	} {
		t.Run(rec.name, func(t *testing.T) {
			truth := testsample.ReadTruth(t, testsample.Recording(t, rec.name))
			tl := buildRecording(t, rec.name, "*.ts.http")
			counts := countWatchLists(tl)
			var relists, retries, watchLists int
			for fi, f := range tl.Files {
				client := captureClient(f.Name)
				if _, ok := truth[client]; !ok {
					t.Fatalf("%s is not in TRUTH.tsv", f.Name)
				}
				c := counts[fi]
				if c == nil {
					c = &watchListCounts{}
				}
				for col, got := range map[string]int{"watchlists": c.watchLists, "watchlist_synced": c.synced,
					"watchlist_retries": c.retries, "relists": c.relists} {
					if want := truth.Int(t, client, col); got != want {
						t.Errorf("%s: %s %d, TRUTH.tsv %d", client, col, got, want)
					}
				}
				if c.watchListRelists != c.relists {
					t.Errorf("%s: %d of %d relists are WatchLists; every relist of this recording is", client, c.watchListRelists, c.relists)
				}
				relists += c.relists
				retries += c.retries
				watchLists += c.watchLists
			}
			if len(tl.Files) != len(truth) || relists != rec.relists || retries != rec.retries || watchLists != rec.watchLists {
				t.Errorf("%d clients, %d relists, %d repeats, %d WatchLists; want %d, %d, %d, %d",
					len(tl.Files), relists, retries, watchLists, len(truth), rec.relists, rec.retries, rec.watchLists)
			}
			if got := len(tl.UnsyncedClients()); got != rec.unsynced {
				t.Errorf("%d clients never synced, want %d", got, rec.unsynced)
			}
			a := tl.Analyze(realServer())
			for _, r := range a.Resumes {
				if tl.Sessions[r.Session].IsWatchList() {
					t.Errorf("%s: the WatchList at %s is taken for a resume", tl.Files[tl.Sessions[r.Session].File].Name, FormatTime(tl.Sessions[r.Session].Start, ClockArrival))
				}
			}
		})
	}
}

// auditTruthKey names the TRUTH.tsv client an audit-log client is: its
// user agent says it ("fleet-c013-bookmarks/1.0"), except for the
// clients that send client-go's default one, which only what they watch
// tells apart: those are keyed by resource, selector and asking.
func auditTruthKey(tl *Timeline, file int) (key string, named bool) {
	f := &tl.Files[file]
	if name, ok := strings.CutPrefix(f.Client, "fleet-"); ok && strings.HasSuffix(name, "/1.0") {
		return strings.TrimSuffix(name, "/1.0"), true
	}
	s := &tl.Sessions[f.Sessions[0]]
	seg := strings.Split(s.Request.Path, "/")
	sel := s.Request.LabelSelector
	if sel == "" {
		sel = "-"
	}
	asked := false
	for _, g := range f.Sessions {
		if r := tl.Sessions[g].Request; r.Watch {
			asked = r.AllowWatchBookmarks
		}
	}
	return fmt.Sprintf("%s %s %v", seg[len(seg)-1], sel, asked), false
}

// TestWatchListAuditMatchesTruth: from the audit logs alone, every
// client's relists, WatchList requests and repeats equal TRUTH.tsv's
// (clients the log cannot tell apart as a group: the same counts among
// them), no relist has an unseen cause on the outage, and a WatchList
// that asked for bookmarks is presumed synced, one that did not never.
func TestWatchListAuditMatchesTruth(t *testing.T) {
	for _, name := range []string{"samples-watchlist", "samples-outage"} {
		t.Run(name, func(t *testing.T) {
			truth := testsample.ReadTruth(t, testsample.Recording(t, name))
			tl := buildRecording(t, name, "audit-*.log")
			counts := countWatchLists(tl)
			cols := []string{"relists", "watchlists", "watchlist_retries"}
			got, want := map[string][]string{}, map[string][]string{}
			row := func(c *watchListCounts) string {
				if c == nil {
					c = &watchListCounts{}
				}
				return fmt.Sprint(c.relists, c.watchLists, c.retries)
			}
			fleetClients := 0
			for fi, f := range tl.Files {
				if !strings.HasPrefix(f.Client, "fleet") {
					continue // the servers' own loopback clients and the rig's driver
				}
				fleetClients++
				key, named := auditTruthKey(tl, fi)
				if named {
					if _, ok := truth[key]; !ok {
						t.Fatalf("%s: no client %q in TRUTH.tsv", f.Name, key)
					}
				}
				got[key] = append(got[key], row(counts[fi]))
			}
			for client, r := range truth {
				key := client
				if strings.HasSuffix(client, "-defua") {
					key = fmt.Sprintf("%s %s %v", r["resource"], r["selector"], r["mode"] == "bookmarks")
				}
				var vals []any
				for _, col := range cols {
					vals = append(vals, truth.Int(t, client, col))
				}
				want[key] = append(want[key], fmt.Sprint(vals...))
			}
			if fleetClients != len(truth) {
				t.Errorf("%d fleet clients in the audit logs, TRUTH.tsv has %d", fleetClients, len(truth))
			}
			for key, w := range want {
				sort.Strings(w)
				g := got[key]
				sort.Strings(g)
				if strings.Join(g, "; ") != strings.Join(w, "; ") {
					t.Errorf("%s: %s %v, TRUTH.tsv %v", key, strings.Join(cols, ","), g, w)
				}
			}
			for _, r := range tl.Relists {
				if strings.HasPrefix(tl.Files[r.File].Client, "fleet") && r.Cause != CauseGone {
					t.Errorf("%s: the relist at %s has no 410 before it (%s)", tl.Files[r.File].Name, FormatTime(r.T, ClockArrival), r.Reason)
				}
			}
			for _, w := range tl.WatchLists {
				s := &tl.Sessions[w.Session]
				if wantSync := map[bool]SyncState{true: SyncPresumed, false: SyncNever}[s.Request.AllowWatchBookmarks]; w.Sync != wantSync {
					t.Errorf("%s at %s: sync %s, want %s", tl.Files[w.File].Name, FormatTime(w.T, ClockArrival), w.Sync, wantSync)
				}
			}
		})
	}
}

// TestOutageResumesAreAnswered: the attempts that reached no server while
// the load balancer was down are neither resumes nor reconnects of their
// own: the resumes are the answered ones of probes.tsv.
func TestOutageResumesAreAnswered(t *testing.T) {
	dir := testsample.Recording(t, "samples-outage")
	probes := testsample.Read(t, filepath.Join(dir, "probes.tsv"))
	want := map[Outcome]int{}
	for _, ln := range strings.Split(strings.TrimSpace(string(probes)), "\n")[1:] {
		switch {
		case strings.Contains(ln, "\tok\t"):
			want[Accepted]++
		case strings.Contains(ln, "\t410\t"):
			want[Refused]++
		}
	}
	tl := buildRecording(t, "samples-outage", "[csp]*.ts.http") // the narrow clients, as probes.tsv
	a := tl.Analyze(realServer())
	got := map[Outcome]int{}
	for _, r := range a.Resumes {
		if tl.Sessions[r.Session].Unanswered() {
			t.Errorf("%s: an attempt that reached no server is taken for a resume", tl.Files[tl.Sessions[r.Session].File].Name)
		}
		got[r.Observed]++
	}
	if got[Accepted] != want[Accepted] || got[Refused] != want[Refused] || want[Refused] == 0 {
		t.Errorf("resumes accepted %d, refused %d; probes.tsv %d, %d", got[Accepted], got[Refused], want[Accepted], want[Refused])
	}
	for _, p := range a.WhatIf.Points {
		if s := &tl.Sessions[p.Session]; s.Unanswered() {
			t.Errorf("%s: a reconnect from an attempt that reached no server", tl.Files[s.File].Name)
		}
	}
}

// TestSummaryTellsUnsyncedAndOutage: the 48 informers that never synced
// are the summary's first finding on samples-watchlist, and the fleet's
// relists are counted among the other 51; on samples-outage
// the summary's first line is the fleet's, and its first sentence tells
// the stampede, from the captures and from the client log alone.
func TestSummaryTellsUnsyncedAndOutage(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "*.ts.http").Analyze(realServer())
	lines := a.Summary(nil)
	if len(lines) == 0 || lines[0].Topic != "unsynced" || !strings.HasPrefix(lines[0].Text, "48 clients") ||
		!strings.Contains(lines[0].Text, "did not ask for bookmarks") || !strings.Contains(lines[0].Text, "138 requests, 90 of them repeats") {
		t.Errorf("samples-watchlist's first line: %+v", lines)
	}
	// Those 48 had nothing to list again: the fleet's line counts the
	// relists of the 51 that synced.
	if f := a.Fleet(); f == nil || f.Synced() != 51 || len(f.Clients) != 99 {
		t.Errorf("fleet %v: want 51 of 99 clients synced", f != nil)
	}
	for _, l := range lines {
		if l.Topic == "fleet" && !strings.HasPrefix(l.Text, "None of the 51 clients that synced relisted across the 3 probable API server restarts") {
			t.Errorf("samples-watchlist's fleet line: %q", l.Text)
		}
	}
	tl := buildRecording(t, "samples-outage", "*.ts.http")
	os := tl.OutageReturns()
	if len(os) != 1 {
		t.Fatalf("outages %+v, want the load balancer's one", os)
	}
	o := os[0]
	// The load balancer closed at 19:09:13.55 and listened again at
	// 19:11:43.65 (lb-conns.tsv); the last attempt it refused was at
	// 19:11:43.62, the first answer came at 19:11:43.87.
	if d := time.Duration(o.To - o.From); o.Attempts != 966 || o.Clients != 99 || d < 150*time.Second || d > 151*time.Second ||
		o.Relists != 74 || o.RelistClients != 74 || o.First < int64(7*time.Second) || o.Last > int64(77*time.Second) {
		t.Errorf("outage %+v (%s)", o, d)
	}
	story, span := outageStory(t)
	for name, tl := range map[string]*Timeline{"the captures": tl, "fleet-klog.log": buildRecording(t, "samples-outage", "fleet-klog.log")} {
		lines := tl.Analyze(realServer()).Summary(nil)
		if len(lines) == 0 || lines[0].Topic != "fleet" {
			t.Errorf("%s: the summary does not begin with the fleet: %+v", name, lines)
			continue
		}
		// The first sentence counts the relists; why they came and the
		// records of the cut follow it.
		first, _, _ := strings.Cut(lines[0].Text, ". ")
		if !strings.HasPrefix(first, story) || !strings.Contains(lines[0].Text, "966 attempts by 99 clients") ||
			name == "the captures" && !strings.Contains(first, span) {
			t.Errorf("%s: the fleet's first sentence %q, want it to begin %q, the relists %s", name, first, story, span)
		}
	}
}

// TestSummaryWhenNoClientSynced: four of samples-watchlist's informers
// that never synced, alone. Each request again read the whole selection,
// none resumed a cursor: the summary says no client that synced
// reconnected, and none could relist, not that the captures hold no
// reconnect or that none relisted; and how many times they read their
// selections again, which bookmarks would have saved.
func TestSummaryWhenNoClientSynced(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "c03[2-5]-*.ts.http").Analyze(realServer())
	if n := len(a.TL.UnsyncedClients()); n != 4 || len(a.TL.Files) != 4 {
		t.Fatalf("%d clients never synced of %d files, want 4 of 4", n, len(a.TL.Files))
	}
	said := map[string]string{}
	for _, l := range a.Summary(nil) {
		said[l.Topic] = l.Text
	}
	if said["observed"] != "No 410 was observed, and no client that synced reconnected." || !strings.HasPrefix(said["fleet"], "None of the 4 clients synced, so none could relist, but each request after a client's first read its whole selection again, 6 times in all. Had every client asked for bookmarks, 0 reconnects would have needed a relist, and without bookmarks 6: bookmarks save 6 relists (100.0 %).") {
		t.Errorf("observed %q, fleet %q", said["observed"], said["fleet"])
	}
}

// outageStory is the stampede as samples-outage's own tables tell it:
// the clients that relisted (TRUTH.tsv), each after a 410 (the README's
// 74 410 ERROR events), between how many whole seconds
// after the load balancer listened again (lb-conns.tsv's outage-end)
// and, as its span, when.
func outageStory(t *testing.T) (story, span string) {
	t.Helper()
	dir := testsample.Recording(t, "samples-outage")
	var end int64
	for _, ln := range strings.Split(string(testsample.Read(t, filepath.Join(dir, "lb-conns.tsv"))), "\n") {
		if c := strings.Split(ln, "\t"); len(c) > 1 && c[1] == "outage-end" {
			end = instant(t, c[0])
		}
	}
	var first, last int64
	clients := 0
	for _, row := range testsample.ReadTruth(t, dir) {
		times := splitTimes(row["relist_times"])
		if len(times) > 0 {
			clients++
		}
		for _, s := range times {
			at := instant(t, s)
			if first == 0 || at < first {
				first = at
			}
			last = max(last, at)
		}
	}
	if end == 0 || clients == 0 {
		t.Fatalf("lb-conns.tsv's outage end %d, %d clients relisting in TRUTH.tsv", end, clients)
	}
	// 74 clients, 8.0 and 76.6 s.
	return fmt.Sprintf("%d clients got 410 Gone and relisted between %.0f and %.0f s after the outage ended (", clients, float64(first-end)/1e9, float64(last-end)/1e9),
		fmt.Sprintf("(from %s to %s)", FormatInstant(first, time.UTC), FormatInstant(last, time.UTC))
}

// TestRelistCost: where the fleet's relists were served and what they
// read. samples-lab's 81 relists are LISTs at the expired cursor, served
// by the watch cache; samples-outage's 74 are WatchLists, also from the
// cache. Each relist's objects are its list's items as the capture holds
// them.
func TestRelistCost(t *testing.T) {
	for _, rec := range []struct {
		name    string
		kind    RelistKind
		relists int
	}{{"samples-lab", RelistList, 81}, {"samples-outage", RelistWatchList, 74}} {
		t.Run(rec.name, func(t *testing.T) {
			tl := buildRecording(t, rec.name, "*.ts.http")
			fl := tl.Analyze(realServer()).Fleet()
			c := fl.Cost
			if c.BySource[SourceCache].Relists != rec.relists || c.BySource[SourceEtcd].Relists != 0 || c.BySource[SourceUnknown].Relists != 0 {
				t.Errorf("relists by source %+v, want %d from the watch cache", c.BySource, rec.relists)
			}
			binned := 0
			for _, b := range c.Bins {
				binned += b.BySource[SourceCache].Relists
			}
			if binned != rec.relists {
				t.Errorf("%d relists over the bins, want %d", binned, rec.relists)
			}
			objects := 0
			for _, r := range tl.Relists {
				s := &tl.Sessions[r.Session]
				want := s.InitialEvents
				if r.Kind == RelistList {
					want = s.Events // the lab's lists come in one page
				}
				if r.Kind != rec.kind || r.Objects != want || r.Bytes <= 0 && r.Objects > 0 {
					t.Errorf("%s at %s: %s of %d objects, %d bytes; want a %s of %d", tl.Files[r.File].Name, FormatTime(r.T, ClockArrival), r.Kind, r.Objects, r.Bytes, rec.kind, want)
				}
				objects += r.Objects
			}
			if objects == 0 || c.BySource[SourceCache].Objects != objects {
				t.Errorf("%d objects relisted, the fleet's cost says %d", objects, c.BySource[SourceCache].Objects)
			}
		})
	}
}

// TestClientProfiles: the 20 clients of samples-watchlist that send
// client-go's default User-Agent are client-go, in the program "fleet",
// whose unstamped build says v0.0.0 (so whether WatchList is its default
// is unknown); the others set their own, which names no library, and are
// client-go all the same, told by their watches' timeout parameter. The
// never-synced clients come first in the fleet.
func TestClientProfiles(t *testing.T) {
	tl := buildRecording(t, "samples-watchlist", "*.ts.http")
	fl := tl.Analyze(realServer()).Fleet()
	clientGo := 0
	for k, c := range fl.Clients {
		name := captureClient(tl.Files[c.File].Name)
		p := c.Profile
		if strings.HasSuffix(name, "-defua") {
			clientGo++
			if p.Library != LibraryClientGo || p.Program != "fleet" || p.Version != "v0.0.0" || p.WatchList != WatchListUnknown || !p.AsksBookmarks {
				t.Errorf("%s: profile %+v", name, p)
			}
			if strings.Contains(name, "nobookmarks") != (len(c.ProfileDifferences) == 1) {
				t.Errorf("%s: differences %q", name, c.ProfileDifferences)
			}
		} else if p.Library != LibraryClientGo || p.Version != "" || p.WatchList != WatchListUnknown || !strings.Contains(p.RecognisedBy, "timeout=") {
			t.Errorf("%s: profile %+v from %q, want client-go told by its watches' timeout", name, p, c.Name)
		}
		if c.NeverSynced != (k < 48) {
			t.Errorf("row %d, %s: never synced %v; the 48 that never synced come first", k, name, c.NeverSynced)
		}
	}
	if clientGo != 20 {
		t.Errorf("%d clients with client-go's default User-Agent, want 20", clientGo)
	}
	for ua, want := range map[string]string{
		"kube-apiserver/v0.0.0 (linux/amd64) kubernetes/$Format":     "client-go, version not stamped (in kube-apiserver)",
		"kubectl/v1.31.2 (linux/amd64) kubernetes/5864a46":           "client-go v1.31.2 (in kubectl)",
		"manager/v0.0.0 (linux/arm64) kubernetes/$Format":            "client-go, version not stamped (in manager)",
		"fabric8-kubernetes-client/6.13.4":                           "fabric8 6.13.4",
		"OpenAPI-Generator/31.0.0/python":                            "python 31.0.0",
		"fleet-c000-bookmarks/1.0":                                   "an unknown client library",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML)": "an unknown client library",
	} {
		if got := ProfileOf(ua).Words(); got != want {
			t.Errorf("ProfileOf(%q) = %q, want %q", ua, got, want)
		}
	}
	if p := ProfileOf("kubectl/v1.31.2 (linux/amd64) kubernetes/5864a46"); p.WatchList != WatchListOff || p.Minor != 31 {
		t.Errorf("kubectl 1.31: %+v; WatchList is client-go's default from 1.35", p)
	}
	if p := ProfileOf("kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abc"); p.WatchList != WatchListOn {
		t.Errorf("kube-controller-manager 1.37: %+v", p)
	}
}

// recordings are the shared recordings of several API servers, each with
// the files of its evidence that the agreement tests read.
var recordings = []struct {
	name     string
	patterns []string
}{
	{"samples-lab", []string{"*.ts.http", "audit-*.log", "prometheus/metrics-*.txt.gz"}},
	{"samples-fleet", []string{"*.ts.http", "audit-*.log"}},
	{"samples-watchlist", []string{"*.ts.http", "audit-*.log", "apiserver-*.log", "prometheus/query_range/*.json.gz"}},
	{"samples-outage", []string{"*.ts.http", "audit-*.log", "apiserver-*.log"}},
}

// TestUnsyncedStateIsTheLeadingAdded: a WatchList stream that never got
// the bookmark ending its initial events runs on into live changes; its
// events are all of the burst (the client takes none for its state),
// but the state it streamed is its leading ADDED events, not the
// MODIFIED ones after (samples-watchlist's 48 never-synced clients read
// one object a request, not every live change).
func TestUnsyncedStateIsTheLeadingAdded(t *testing.T) {
	r := narrow("", false)
	r.SendInitialEvents = true
	c := (&capture{}).watch(r, 0, 60*s).
		ev(parser.Added, 10, 1*s, "a").ev(parser.Added, 11, 1*s, "b").
		ev(parser.Modified, 12, 20*s, "a").ev(parser.Modified, 13, 40*s, "b").ev(parser.Added, 14, 50*s, "c")
	c.watch(r, 61*s, 120*s).ev(parser.Added, 14, 61*s, "a").ev(parser.Modified, 15, 90*s, "a")
	tl := build(c)
	us := tl.UnsyncedClients()
	if len(us) != 1 || us[0].Requests != 2 || us[0].Objects != 3 {
		t.Fatalf("unsynced clients %+v: want one, of 2 requests streaming 3 objects (2 and 1)", us)
	}
	for g := range tl.Sessions {
		for i := tl.Sessions[g].firstEv; i <= tl.Sessions[g].lastEv; i++ {
			if tl.tab.flags.at(i)&flagInitial == 0 {
				t.Errorf("session %d's event %d is not of the initial burst", g, i)
			}
		}
	}
}

// TestSummaryTallies410sByServer: samples-outage's 74 410s came from
// its three API servers, 27, 24 and 23 of them, as its own tables tell:
// each client's 410 (TRUTH.tsv) answered its last request before it,
// which attribution.tsv says which server served. The summary's line of
// the 410s says the same.
func TestSummaryTallies410sByServer(t *testing.T) {
	dir := testsample.Recording(t, "samples-outage")
	type request struct {
		at     int64
		server string
	}
	requests := map[string][]request{}
	lines := strings.Split(strings.TrimSpace(string(testsample.Read(t, filepath.Join(dir, "attribution.tsv")))), "\n")
	head := strings.Split(lines[0], "\t")
	col := func(name string) int { return slices.Index(head, name) }
	for _, ln := range lines[1:] {
		c := strings.Split(ln, "\t")
		server := c[col("audit_server")]
		if server == "-" {
			server = c[col("lb_server")]
		}
		requests[c[col("client")]] = append(requests[c[col("client")]], request{instant(t, c[col("request_time")]), server})
	}
	byServer, all := map[string]int{}, 0
	for _, row := range testsample.ReadTruth(t, dir) {
		for _, s := range splitTimes(row["error410_times"]) {
			at, server := instant(t, s), ""
			for _, r := range requests[row["client"]] {
				if r.at <= at {
					server = r.server
				}
			}
			byServer[server]++
			all++
		}
	}
	// No server restarted: each has one process.
	processes := map[string][]int{}
	for name, n := range byServer {
		processes[name] = []int{n}
	}
	want := fmt.Sprintf("%d in all, from API servers %s.", all, serverTally(processes))
	a := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log").Analyze(realServer())
	if got := summaryTopic(a, "observed"); all != 74 || !strings.Contains(got, "410s: "+want) {
		t.Errorf("the tables tell %d 410s: want the summary's line of them to say %q; it reads %q", all, want, got)
	}
}

// TestSummaryTallies410sByProcess: samples-lab's servers each restarted
// once, and its probes.tsv names the process that answered each probe.
// The summary's line of the 410s tells each server's apart, before its
// restart and after, as the probes count them (a's 39 all from its new
// process, which had never held the clients' cursors).
func TestSummaryTallies410sByProcess(t *testing.T) {
	byServer := map[string][]int{}
	all := 0
	for _, pr := range labTable(t, "probes.tsv") {
		if pr["answer"] != "410" {
			continue
		}
		inc, err := strconv.Atoi(strings.TrimPrefix(pr["incarnation"], pr["server"]))
		if err != nil || inc < 1 || inc > 2 {
			t.Fatalf("probe %v: incarnation %q", pr, pr["incarnation"])
		}
		if byServer[pr["server"]] == nil {
			byServer[pr["server"]] = make([]int, 2) // each restarted once
		}
		byServer[pr["server"]][inc-1]++
		all++
	}
	want := fmt.Sprintf("%d in all, from API servers %s.", all, serverTally(byServer))
	a := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log").Analyze(realServer())
	if got := summaryTopic(a, "observed"); all != 81 || !strings.Contains(got, "410s: "+want) || !strings.Contains(want, "after its restart") {
		t.Errorf("the probes tell %d 410s: want the summary's line of them to say %q; it reads %q", all, want, got)
	}
}

// TestNeverSyncedAnswersTheBookmarkQuestion: samples-watchlist's p03
// WatchLists asked for no bookmarks and never synced. Asking would have
// ended the sync, which its unsynced line says; the bookmarks line,
// which asked whether a reconnect as its recording ends would have
// worked, is left out for it.
func TestNeverSyncedAnswersTheBookmarkQuestion(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "p03-proto-secret-nobookmarks.ts.http").Analyze(realServer())
	if us := a.TL.UnsyncedClients(); len(us) != 1 || !us[0].NoBookmarks {
		t.Fatalf("p03: %+v, want one client that never synced for want of bookmarks", us)
	}
	if got := summaryTopic(a, "unsynced"); !strings.Contains(got, "did not ask for bookmarks, so the bookmark that ends the initial list never came (asking for them would have ended the sync)") {
		t.Errorf("the unsynced line: %q", got)
	}
	if got := summaryTopic(a, "bookmarks"); got != "" {
		t.Errorf("the bookmarks line: %q", got)
	}
}

// TestWatchListWithoutBookmarksNeverSyncs: w6's client synced by a
// WatchList, whose initial list ends with a bookmark; the bookmarks line
// said "without them it would have been 231ms old and accepted", where
// without them it would never have synced, as samples-watchlist's 48
// clients that did not ask never did. A plain watch's line (w3) keeps
// its cursor without them.
func TestWatchListWithoutBookmarksNeverSyncs(t *testing.T) {
	line := func(name string) string {
		for _, l := range loadSamples(t, name).Analyze(DefaultParams()).Summary(nil) {
			if l.Topic == "bookmarks" {
				return l.Text
			}
		}
		t.Fatalf("%s has no bookmarks line", name)
		return ""
	}
	if got := line("w6-sendinitialevents-rig-a.ts.http"); !strings.Contains(got, "Without them its WatchList would never have synced") || strings.Contains(got, "; without them it would have been") {
		t.Errorf("w6's bookmarks line: %q", got)
	}
	if got := line("w3-then-resume.ts.http"); !strings.Contains(got, "; without them it would have been") || strings.Contains(got, "WatchList") {
		t.Errorf("w3's bookmarks line: %q", got)
	}
}
