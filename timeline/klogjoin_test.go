package timeline

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
)

// TestKlogJoinsAuditLogs: given a recording's audit logs and its
// fleet-klog.log, without captures, each informer is one client: its
// audit-log client, joined with its client of the log (found by the
// instants its requests ended, the RVs of its 410s and the URLs its
// failed requests name, and by its User-Agent where that names it: 20
// clients of samples-outage send client-go's default one, two of them
// on each selector). Its 410s are the log's, not inferred, and its 410s
// and relists are its TRUTH.tsv's, at the instants TRUTH.tsv gives.
func TestKlogJoinsAuditLogs(t *testing.T) {
	for _, name := range []string{"samples-lab", "samples-outage"} {
		t.Run(name, func(t *testing.T) {
			dir := testsample.Recording(t, name)
			truth := testsample.ReadTruth(t, dir)
			audits, _ := filepath.Glob(filepath.Join(dir, "audit-*.log"))
			names := []string{"fleet-klog.log"} // the log first: joining waits for Build
			for _, p := range audits {
				names = append(names, filepath.Base(p))
			}
			tl := buildFiles(t, dir, names...)
			relists := map[int][]Relist{}
			for _, r := range tl.Relists {
				relists[r.File] = append(relists[r.File], r)
			}
			joined, gone := map[string]int{}, 0
			for fi, f := range tl.Files {
				if f.Log == "fleet-klog.log" {
					t.Errorf("%s: a client of the log alone, not joined with its audit-log client", f.Name)
					continue
				}
				if f.Loopback {
					continue // the API servers' own informers
				}
				client := f.LogClient
				row, ok := truth[client]
				if f.LogJoined != "fleet-klog.log" || !ok {
					t.Errorf("%s: joined with %q, client %q of the log", f.Name, f.LogJoined, client)
					continue
				}
				joined[client]++
				if ua := strings.TrimSuffix(strings.TrimPrefix(f.Client, "fleet-"), "/1.0"); ua != f.Client && ua != client {
					t.Errorf("%s: joined with the log's %s", f.Name, client)
				}
				first := tl.Sessions[f.Sessions[0]].Request
				q, _ := url.ParseQuery(first.Query)
				if sel := orWord(q.Get("labelSelector"), "-"); sel != row["selector"] || resourceOfPath(first.Path) != row["resource"] {
					t.Errorf("%s (%s): %s %s, TRUTH.tsv says %s %s", f.Name, client, resourceOfPath(first.Path), sel, row["resource"], row["selector"])
				}
				var goneAt []int64
				for _, g := range f.Sessions {
					if s := &tl.Sessions[g]; s.Error != nil && s.Error.Code == 410 {
						if s.inferredGone || !strings.Contains(s.Error.Message, "too old resource version") {
							t.Errorf("%s (%s): its 410 is not the log's: %s", f.Name, client, s.Error.Message)
						}
						goneAt = append(goneAt, s.End)
					}
				}
				gone += len(goneAt)
				checkTimes(t, client+" 410s", goneAt, splitTimes(row["error410_times"]))
				var relistAt []int64
				for _, r := range relists[fi] {
					relistAt = append(relistAt, r.T)
				}
				checkTimes(t, client+" relists", relistAt, splitTimes(row["relist_times"]))
				// The servers of its first and last answered requests are
				// its capture's, but where neither the audit log nor the
				// log could tell two clients of one selector and
				// User-Agent apart, and the client says its requests may
				// be the other's from some point on (one pair of
				// samples-outage's clients with client-go's default
				// User-Agent).
				unsure := f.MayMix()
				if got, want := fileServers(tl, fi), row["servers"]; !unsure && got != want[:strings.Index(want, ">")]+want[strings.LastIndex(want, ">"):] {
					t.Errorf("%s (%s): servers %s, TRUTH.tsv says %s", f.Name, client, got, row["servers"])
				}
			}
			for client := range truth {
				if joined[client] != 1 {
					t.Errorf("%s: %d audit-log clients joined with it, want 1", client, joined[client])
				}
			}
			t.Logf("%d clients joined of %d in TRUTH.tsv; %d 410s from the log, %d relists", len(joined), len(truth), gone, len(tl.Relists))
		})
	}
}

// fileServers names the servers that answered a file's first and last
// answered requests as TRUTH.tsv does (which names the server of each
// connection between them too): "c1>a1" (server, incarnation).
func fileServers(tl *Timeline, fi int) string {
	var names []string
	for _, g := range tl.Files[fi].Sessions {
		if s := &tl.Sessions[g]; s.Server >= 0 && s.HTTPStatus != 0 {
			names = append(names, fmt.Sprintf("%s%d", tl.Servers[s.Server].Name, s.Incarnation+1))
		}
	}
	if len(names) == 0 {
		return "-"
	}
	return names[0] + ">" + names[len(names)-1]
}

// auditLag bounds how far from the instant a client sent a request, or
// got its answer, the API server's audit log says it received it, or
// completed it: up to 13 s on the loaded machine of samples-outage
// (s000's relist, sent at 19:12:12.46, received at 19:12:21.05; s021's
// refused watch, completed at 19:12:08.14, its 410 read at 19:12:21.00).
const auditLag = 15 * time.Second

// checkTimes says whether got are the instants want lists (RFC 3339,
// as TRUTH.tsv writes them, from a capture's clock), each within
// auditLag: an audit log's times are the servers'.
func checkTimes(t *testing.T, what string, got []int64, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d, TRUTH.tsv says %d", what, len(got), len(want))
		return
	}
	for k, w := range want {
		at, err := time.Parse(time.RFC3339Nano, w)
		if err != nil || time.Duration(got[k]-at.UnixNano()).Abs() > auditLag {
			t.Errorf("%s: %s, TRUTH.tsv says %s", what, FormatInstant(got[k], time.UTC), w)
		}
	}
}

// TestKlogJoinsNoOtherDaysAudit: the lab's log given with the outage's
// audit logs, recorded 40 minutes later by clients of the same names and
// User-Agents, joins none of them.
func TestKlogJoinsNoOtherDaysAudit(t *testing.T) {
	outage := testsample.Recording(t, "samples-outage")
	paths, _ := filepath.Glob(filepath.Join(outage, "audit-*.log"))
	b := NewBuilder()
	addFiles(t, b, append(paths, filepath.Join(testsample.Recording(t, "samples-lab"), "fleet-klog.log"))...)
	tl := b.Build()
	alone := 0
	for i, f := range tl.Files {
		if f.LogJoined != "" {
			t.Errorf("%s: joined with %s's %s", f.Name, f.LogJoined, f.LogClient)
		}
		if f.Log == "fleet-klog.log" {
			alone++
			// The lab's informers ran with KUBE_FEATURE_WatchListClient=false,
			// which their log says; their version (v0.0.0) says nothing.
			if p := tl.FileProfile(i); p.WatchList != WatchListOff || p.WatchListSaidBy == "" {
				t.Errorf("%s: WatchList by default %s (%q), want off, from the log's feature gate", f.Name, p.WatchList, p.WatchListSaidBy)
			}
		}
	}
	if want := len(testsample.ReadTruth(t, testsample.Recording(t, "samples-lab"))); alone != want {
		t.Errorf("%d clients of the log alone, want %d", alone, want)
	}
}

// TestKlogJoinsWatchList: samples-watchlist's log and audit logs, where
// 20 clients send client-go's default User-Agent, two on each selector
// (one asking for bookmarks, one not), and most of their requests ended
// at the servers' restarts, within 50 ms of each other's: the instants
// alone tie them, the order in which each server ended their watches
// (and started their responses) tells them apart. Every client of the
// log is joined with one audit-log client, whose requests are all that
// client's by attribution.tsv (each request's Audit-ID followed to the
// capture that sent it), and none is left alone or said to be
// ambiguous.
func TestKlogJoinsWatchList(t *testing.T) {
	dir := testsample.Recording(t, "samples-watchlist")
	truth := testsample.ReadTruth(t, dir)
	sent := sentBy(t, dir)
	audits, _ := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	names := []string{"fleet-klog.log"}
	for _, p := range audits {
		names = append(names, filepath.Base(p))
	}
	tl := buildFiles(t, dir, names...)
	joined := map[string]int{}
	for i := range tl.Files {
		f := &tl.Files[i]
		for _, d := range f.Diagnostics {
			if d.Kind == DiagAmbiguousJoin {
				t.Errorf("%s: %s", f.Name, d.Msg)
			}
		}
		switch {
		case f.Loopback:
		case f.Log == "fleet-klog.log":
			t.Errorf("%s: a client of the log alone", f.Name)
		case f.LogJoined == "":
			t.Errorf("%s: joined with no client of the log", f.Name)
		default:
			if _, ok := truth[f.LogClient]; !ok {
				t.Errorf("%s: joined with %q, not a client of TRUTH.tsv", f.Name, f.LogClient)
				continue
			}
			joined[f.LogClient]++
			// The log says the feature gate is on by default; 20 of the
			// clients' User-Agents give client-go v0.0.0, which does not.
			if p := tl.FileProfile(i); p.WatchList != WatchListOn || p.WatchListSaidBy == "" {
				t.Errorf("%s: WatchList by default %s (%q), want on, from the log's feature gate", f.Name, p.WatchList, p.WatchListSaidBy)
			}
			for _, g := range f.Sessions {
				r := tl.Sessions[g].Request
				if c := sent[r.Path+"?"+r.Query]; len(c) != 1 || c[0] != f.LogClient {
					t.Errorf("%s: joined with %s, its request %s?%s is %v's", f.Name, f.LogClient, r.Path, r.Query, c)
				}
			}
		}
	}
	for client := range truth {
		if joined[client] != 1 {
			t.Errorf("%s: joined %d times, want 1", client, joined[client])
		}
	}
	t.Logf("%d clients joined of %d in TRUTH.tsv", len(joined), len(truth))
}

// TestKlogJoinsSplitOfOneUserAgent: samples-outage's clients with
// client-go's default User-Agent, two on each selector, whose watches
// the outage cut together and which came back minutes later: the audit
// logs alone cannot tell which of the two sent each request after the
// outage. Every audit-log client whose requests are of two clients (by
// attribution.tsv, which follows each request's Audit-ID to the capture
// that sent it) says where it may be the other's; given with the
// fleet's log, the log decides the pairs it can (each client's sync
// after one response started and not the other, its 410's RV), fewer
// stay said, and every client joined and not said to be unsure holds
// that client's requests only; with the log no informer mixes two
// clients' requests (samples-outage's shard=s31 pair, whose first
// WatchLists ended 68 ms apart at the servers and 2 ms apart in the
// other order at the clients, is told by the instants the two synced,
// 33 and 20 ms after their responses started). samples-watchlist's
// pairs differ in asking for bookmarks: none is mixed or said to be
// unsure.
func TestKlogJoinsSplitOfOneUserAgent(t *testing.T) {
	for _, name := range []string{"samples-outage", "samples-watchlist"} {
		t.Run(name, func(t *testing.T) {
			dir := testsample.Recording(t, name)
			sent := sentBy(t, dir)
			audits, _ := filepath.Glob(filepath.Join(dir, "audit-*.log"))
			var names []string
			for _, p := range audits {
				names = append(names, filepath.Base(p))
			}
			said := map[bool]int{}
			for _, withLog := range []bool{false, true} {
				files := names
				if withLog {
					files = append([]string{"fleet-klog.log"}, names...)
				}
				tl := buildFiles(t, dir, files...)
				mixed := 0
				for i := range tl.Files {
					f := &tl.Files[i]
					if !f.Audit || f.Log != "" || f.Loopback {
						continue
					}
					unsure := f.MayMix()
					if unsure {
						said[withLog]++
					}
					clients := sendersOf(t, tl, f, sent)
					if len(clients) > 1 {
						mixed++
						if !unsure {
							t.Errorf("with the log %v: %s: requests of %v, and not said to be unsure", withLog, f.Name, clients)
						}
					}
					if withLog && f.LogJoined != "" && !unsure && (len(clients) != 1 || clients[0] != f.LogClient) {
						t.Errorf("%s: joined with %s, its requests are %v's", f.Name, f.LogClient, clients)
					}
				}
				t.Logf("with the log %v: %d audit-log clients mix two clients' requests, %d say they may", withLog, mixed, said[withLog])
				if withLog && mixed > 0 {
					t.Errorf("with the log: %d audit-log clients mix two clients' requests", mixed)
				}
			}
			if name == "samples-outage" && said[true] >= said[false] {
				t.Errorf("the log decided no pair: %d said to be unsure with it, %d without", said[true], said[false])
			}
			if name == "samples-watchlist" && said[false]+said[true] > 0 {
				t.Errorf("%d and %d said to be unsure", said[false], said[true])
			}
		})
	}
}

// sentBy reads a recording's attribution.tsv: which clients sent a
// request URI that an audit log holds (one client may send one twice).
func sentBy(t *testing.T, dir string) map[string][]string {
	t.Helper()
	raw := string(testsample.Read(t, filepath.Join(dir, "attribution.tsv")))
	lines := strings.Split(strings.TrimSpace(raw), "\n")
	col := map[string]int{}
	for k, h := range strings.Split(lines[0], "\t") {
		col[h] = k
	}
	out := map[string][]string{}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		uri, client := f[col["request_uri"]], f[col["client"]]
		if f[col["audit_id"]] != "-" && !slices.Contains(out[uri], client) {
			out[uri] = append(out[uri], client)
		}
	}
	return out
}

// sendersOf is the clients that sent f's requests, by attribution.tsv
// (sent: each request's path and query to its senders), one entry per
// run of requests of one client, in f's order.
func sendersOf(t *testing.T, tl *Timeline, f *File, sent map[string][]string) []string {
	t.Helper()
	var clients []string
	for _, g := range f.Sessions {
		r := tl.Sessions[g].Request
		c := sent[r.Path+"?"+r.Query]
		if len(c) != 1 {
			t.Fatalf("%s: %d clients in attribution.tsv sent %s?%s", f.Name, len(c), r.Path, r.Query)
		}
		if len(clients) == 0 || clients[len(clients)-1] != c[0] {
			clients = append(clients, c[0])
		}
	}
	return clients
}

// TestClientLogCursorNotKnown: samples-lab's client log alone names a
// resourceVersion only in a refused watch's message, so at 18:14:58.430
// the cursors of 149 of its 207 clients are not known. The reconnect
// asked then said of them "no cursor to resume from, a WatchList that
// never synced or a watch that has seen nothing yet", of informers that
// all synced and watched from their lists' RVs: it says their logs name
// none.
func TestClientLogCursorNotKnown(t *testing.T) {
	a := buildRecording(t, "samples-lab", "fleet-klog.log").Analyze(realServer())
	q := ResumeQuery{At: instant(t, "2026-12-01T18:14:58.430Z")}
	fc, ok := a.FleetReconnect(q)
	if !ok || fc.Without.UnnamedRV == 0 || fc.Without.UnnamedRV != fc.Without.Unknown || fc.Without.NoCursor != 0 {
		t.Fatalf("a reconnect of every client then: %+v", fc.Without)
	}
	unnamed := 0
	for _, v := range a.ResumeAnswers([]ResumeQuery{q}) {
		switch {
		case strings.HasPrefix(v.Reason, "no cursor: the watch started without a resourceVersion"):
			t.Errorf("%s: %s", a.TL.Files[v.File].ShortName(), v.Reason)
		case strings.HasPrefix(v.Reason, "cursor not known: the client's own log names no resourceVersion"):
			unnamed++
		}
	}
	if unnamed == 0 {
		t.Errorf("no verdict says a client's log names no resourceVersion")
	}
	// samples-watchlist's client log: its 48 clients that never synced
	// had no cursor at all, the 51 others one their log does not name.
	w := buildRecording(t, "samples-watchlist", "fleet-klog.log").Analyze(realServer())
	never := len(w.TL.UnsyncedClients())
	if fc, _ := w.FleetReconnect(ResumeQuery{At: instant(t, "2026-12-01T18:52:00Z")}); never == 0 || fc.Without.NoCursor != never || fc.Without.UnnamedRV != len(w.TL.Files)-never {
		t.Errorf("%d clients never synced of %d; a reconnect of every client then: %+v", never, len(w.TL.Files), fc.Without)
	}
}
