package timeline

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestFleetStepsAgreeWithReconnects: the fleet view's curves (Steps,
// from the zones) and the reconnect asked at an instant (FleetReconnect,
// and each client's ResumeAt under it) count the same clients refused
// and at risk, at instants across each recording's clock. They differed
// at 116 of 313 of samples-lab's instants: the zones took a server's own
// 410 on the server of the client's open connection, while a reconnect
// asked at an instant took it on a server not known, so that the curve
// said 89 clients would relist where the panel beside it said 73. The
// instants run to the clock's last one, and each client's last recorded
// instant and the one after are asked: a client counts while it is
// recorded, its last instant included (the curves once fell to zero one
// instant early, while a reconnect then still had clients refused), and
// not after it. The instants of the 410s the recording
// shows are asked too: there the zones counted the 410 seen at that
// very instant and a reconnect asked then did not. samples-lab is asked
// again with its Prometheus exports over the whole incident, whose
// metrics cut the risk zones where the server a client's connection
// reached, or every server that could answer, held its cursor (some zone
// begins so).
func TestFleetStepsAgreeWithReconnects(t *testing.T) {
	withMetrics := recordings[0]
	withMetrics.patterns = []string{"*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz"}
	for k, rec := range append(recordings, withMetrics) {
		t.Run(fmt.Sprintf("%s/%d", rec.name, k), func(t *testing.T) {
			a := buildRecording(t, rec.name, rec.patterns...).Analyze(DefaultParams())
			if k == len(recordings) && !slices.ContainsFunc(a.RiskZones, func(z Zone) bool { return z.heldBefore }) {
				t.Errorf("no risk zone begins where every server stopped holding its cursor: the metrics cut none")
			}
			fl := a.Fleet()
			if fl == nil || len(fl.Steps) < 2 {
				t.Fatalf("no fleet steps to compare")
			}
			from, to := a.TL.Start(), a.TL.End()
			const instants = 200
			ats := make([]int64, 0, instants+1)
			for k := range instants + 1 {
				ats = append(ats, from+(to-from)*int64(k)/instants)
			}
			gones := goneInstants(a.TL)
			if len(gones) == 0 != (rec.name == "samples-watchlist") {
				t.Fatalf("%d 410s in the recording, and its README says samples-watchlist alone has none", len(gones))
			}
			ats = append(ats, gones...)
			// Each client's last recorded instant, which it counts at, and
			// the next, which it does not.
			ends := len(ats)
			for _, c := range fl.Clients {
				end := a.TL.Files[c.File].End
				ats = append(ats, end, end+1)
			}
			differ, refused, refusedAtEnd, refusedAtGone, afterRecording := 0, 0, 0, 0, 0
			for k, at := range ats {
				i := sort.Search(len(fl.Steps), func(i int) bool { return fl.Steps[i].T > at }) - 1
				var st FleetStep
				if i >= 0 {
					st = fl.Steps[i]
				}
				fc, _ := a.FleetReconnect(ResumeQuery{At: at})
				refused += fc.Without.Refused
				afterRecording += fc.Without.AfterRecording
				switch {
				case k >= ends && (k-ends)%2 == 0:
					refusedAtEnd += fc.Without.Refused
				case k > instants && k < ends:
					refusedAtGone += fc.Without.Refused
				}
				if st.With != fc.With.Refused || st.Without != fc.Without.Refused || st.AtRiskWith != fc.With.AtRisk || st.AtRiskWithout != fc.Without.AtRisk {
					differ++
					if differ <= 5 {
						t.Errorf("at %s the curves count %d refused and %d at risk with bookmarks, %d and %d without; a reconnect then %+v with, %+v without",
							FormatInstant(at, time.UTC), st.With, st.AtRiskWith, st.Without, st.AtRiskWithout, fc.With, fc.Without)
					}
				}
			}
			if refused == 0 {
				t.Errorf("no client refused at any instant: the comparison misses refusals")
			}
			if refusedAtEnd == 0 {
				t.Errorf("no client refused at the clients' last recorded instants: the comparison misses the spans' end")
			}
			if afterRecording == 0 {
				t.Errorf("no client past its recording's end at any instant: the comparison misses the clients not counted")
			}
			if refusedAtGone == 0 && len(gones) > 0 {
				t.Errorf("no client refused at the %d instants of the 410s: the comparison misses them", len(gones))
			}
			if differ > 0 {
				t.Errorf("%d of %d instants differ (%d of them the 410s')", differ, len(ats), len(gones))
			}
		})
	}
}

// TestWorstMomentAsSaidIsTheWorst: the worst stretch of the lab's audit
// logs begins 542µs into a millisecond, as server c's old process ended
// its watches; said truncated to the millisecond, a reconnect asked for
// at the instant read came before it and got other counts (0 refused
// instead of 17). The instant said, read back, gets the stretch's counts.
func TestWorstMomentAsSaidIsTheWorst(t *testing.T) {
	for _, files := range [][]string{{"audit-*.log"}, {"fleet-klog.log"}} {
		a := buildRecording(t, "samples-lab", files...).Analyze(realServer())
		fl := a.Fleet()
		w := fl.Stampedes[fl.Worst]
		if w.From%int64(time.Millisecond) == 0 {
			t.Fatalf("%s: the worst stretch begins on a millisecond: the test proves nothing", files)
		}
		said := regexp.MustCompile(`worst moment, from ([0-9-]+ [0-9:.]+) UTC`).FindStringSubmatch(a.WorstWords())
		if said == nil {
			t.Fatalf("%s: no worst moment in %q", files, a.WorstWords())
		}
		at, err := time.Parse("2006-01-02 15:04:05.000", said[1])
		if err != nil {
			t.Fatal(err)
		}
		if at.UnixNano() < w.From || at.UnixNano() >= w.To {
			t.Errorf("%s: the worst moment is said at %s, outside its stretch", files, said[1])
		}
		fc, _ := a.FleetReconnect(ResumeQuery{At: at.UnixNano()})
		if fc.Without.Refused != w.Without {
			t.Errorf("%s: a reconnect at %s, the worst moment as said, is refused for %d clients without bookmarks; the worst moment says %d", files, said[1], fc.Without.Refused, w.Without)
		}
	}
}

// TestKlogFleetReconnectIsOneAnswer: client-go's log shows no bookmarks,
// so a reconnect of every client read from it has one answer, the
// cursor each log shows, not a "with" and a "without" that say the same.
func TestKlogFleetReconnectIsOneAnswer(t *testing.T) {
	a := buildRecording(t, "samples-lab", "fleet-klog.log").Analyze(realServer())
	if fl := a.Fleet(); fl == nil || fl.BookmarksUnseen() != len(fl.Clients) {
		t.Fatal("the lab's klog makes no fleet of clients whose bookmarks it does not show")
	}
	line := ""
	for _, l := range a.Summary([]ResumeQuery{{At: instant(t, "2026-12-01T18:15:00Z")}}) {
		if l.Topic == "resume-at" {
			line = l.Text
		}
	}
	if !strings.Contains(line, "with the cursor each client's log shows") || strings.Contains(line, "with bookmarks,") || strings.Contains(line, "without bookmarks,") {
		t.Errorf("the fleet's reconnect from the klog says %q", line)
	}
}
