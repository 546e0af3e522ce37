package timeline

import (
	"fmt"
	"strings"
	"testing"
)

// TestWorstMomentInPlainWords: from samples-outage's audit logs alone no
// model refuses any reconnect, and the fleet's worst moment says what
// the at-risk count means to an engineer on call, without the models'
// internals; the models themselves (the watch cache's time model for
// every client, the same count) are the worst stampede's Reasons. The
// bookmarks the clients that asked got, placed as the server sends them,
// keep fewer at risk with bookmarks than without (the captures count 13
// and 70 then).
func TestWorstMomentInPlainWords(t *testing.T) {
	a := buildRecording(t, "samples-outage", "audit-*.log").Analyze(DefaultParams())
	fl := a.Fleet()
	if fl == nil || fl.Worst < 0 {
		t.Fatal("no fleet or no worst moment")
	}
	w := fl.Stampedes[fl.Worst]
	if w.Without != 0 || w.AtRiskWithout != len(fl.Clients) || w.AtRiskWith >= w.AtRiskWithout {
		t.Fatalf("worst stampede %+v, want none refused, all %d clients at risk without bookmarks, fewer with them", w, len(fl.Clients))
	}
	words := a.WorstWords()
	// The clients whose bookmarked cursor nothing shows then are said
	// apart, not counted as safe.
	fc, _ := a.FleetReconnect(ResumeQuery{At: w.From})
	// None can be judged with bookmarks: "0 with them (for 99 of the
	// clients ... cannot be judged)" read as none relisting.
	want := fmt.Sprintf("%d clients might have had to fetch their whole lists again (relist) without bookmarks, with them not known (what bookmarks would have changed cannot be judged for any client: nothing shows the cluster's head then): each would have come back with a resourceVersion older than the API server is sure to keep, and nothing recorded says whether the server still had it.",
		w.AtRiskWithout)
	if fc.With.Unknown != len(fl.Clients) || w.AtRiskWith != 0 || !strings.HasSuffix(words, want) || strings.Contains(words, "model") {
		t.Errorf("worst moment %q, want it to end %q and name no model", words, want)
	}
	// It is the silence's start (the load balancer's outage): the
	// clients come back when it ends.
	if o := a.TL.outageHolding(w.From); o == nil || !strings.Contains(words, "answered only once a request reached a server again, at "+a.instant(o.To)) {
		t.Errorf("worst moment %q, in outage %+v: want it to say when they are answered", words, o)
	}
	told := false
	for _, l := range a.Summary(nil) {
		told = told || strings.Contains(l.Text, words)
	}
	if !told {
		t.Errorf("the summary does not say %q", words)
	}
	if len(w.Reasons) != 1 || w.Reasons[0].Model != ModelCacheTime || w.Reasons[0].Outcome != AtRisk || w.Reasons[0].Clients != w.AtRiskWithout ||
		!strings.Contains(w.Reasons[0].Example, "watch cache (time): ") {
		t.Errorf("worst stampede's reasons %+v, want the watch cache's time model putting all %d at risk", w.Reasons, w.AtRiskWithout)
	}
}
