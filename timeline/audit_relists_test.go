package timeline

import (
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// TestAuditRelistsPerClient: from the audit logs alone, every client's
// relists equal its TRUTH.tsv's, each relist followed by its Audit-ID
// to the client that sent it (attribution.tsv): every relist is counted
// once, by the audit-log client of the client that sent it, and of its
// kind (samples-outage's 74 are all WatchLists). An audit-log client
// that holds one client's requests has that client's relists, and
// none counts two clients' relists together. One that holds two
// clients' requests says so: on samples-outage the informers of one
// selector with client-go's default User-Agent, whose only request
// before the outage was a WatchList with no resourceVersion, cut at one
// instant, are tied to their requests after it by nothing the audit
// log records (timeoutSeconds is drawn anew for each watch; the RVs
// they come back with are cursors learned from bookmarks and events
// the log does not show), and only such informers may say so.
func TestAuditRelistsPerClient(t *testing.T) {
	for _, rec := range []struct {
		name    string
		relists int
		kind    RelistKind
	}{
		{"samples-outage", 74, RelistWatchList},
		{"samples-watchlist", 0, RelistWatchList},
	} {
		t.Run(rec.name, func(t *testing.T) {
			dir := testsample.Recording(t, rec.name)
			truth := testsample.ReadTruth(t, dir)
			sent := sentBy(t, dir)
			tl := buildRecording(t, rec.name, "audit-*.log")
			relists := map[int][]Relist{}
			for _, r := range tl.Relists {
				relists[r.File] = append(relists[r.File], r)
			}
			counted := map[string]int{}
			total, unsure, mixed := 0, 0, 0
			for fi := range tl.Files {
				f := &tl.Files[fi]
				if !strings.HasPrefix(f.Client, "fleet") {
					continue // the servers' own loopback clients and the rig's driver
				}
				clients := sendersOf(t, tl, f, sent)
				said := f.MayMix()
				if said {
					unsure++
					if ProfileOf(f.Client).Library != LibraryClientGo {
						t.Errorf("%s: said to be unsure, and its User-Agent names its client", f.Name)
					}
				}
				if len(clients) > 1 {
					mixed++
					if !said {
						t.Errorf("%s: requests of %v, and not said to be unsure", f.Name, clients)
					}
				}
				relisted := map[string]bool{}
				for _, r := range relists[fi] {
					s := &tl.Sessions[r.Session]
					c := sent[s.Request.Path+"?"+s.Request.Query][0]
					relisted[c] = true
					counted[c]++
					total++
					if r.Kind != rec.kind {
						t.Errorf("%s (%s): the relist at %s is a %s, want a %s", f.Name, c, FormatTime(r.T, ClockArrival), r.Kind, rec.kind)
					}
				}
				if len(relisted) > 1 {
					t.Errorf("%s: its relist count is of %d clients' relists", f.Name, len(relisted))
				}
				if !said {
					if got, want := len(relists[fi]), truth.Int(t, clients[0], "relists"); got != want {
						t.Errorf("%s (%s): %d relists, TRUTH.tsv %d", f.Name, clients[0], got, want)
					}
				}
			}
			for client := range truth {
				if got, want := counted[client], truth.Int(t, client, "relists"); got != want {
					t.Errorf("%s: %d of its relists counted, TRUTH.tsv %d", client, got, want)
				}
			}
			if total != rec.relists {
				t.Errorf("%d relists, want %d", total, rec.relists)
			}
			t.Logf("%d relists; %d audit-log clients said to be unsure, %d of them mixing two clients", total, unsure, mixed)
		})
	}
}
