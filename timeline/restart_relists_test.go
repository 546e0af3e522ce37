package timeline

import (
	"fmt"
	"strings"
	"testing"
)

// Each of the lab's restarts counts the relists it caused: a relist after
// a 410 that refused the reconnect after a watch the restart ended. The
// restart of a caused all 9 relists SUMMARY.txt counts from a's SIGTERM
// to b's; the others that came while b and c rolled followed watches
// that ended at their deadlines, then met a new process's cache.
func TestRestartRelistsCaused(t *testing.T) {
	a := buildRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	if len(a.Restarts) != 3 {
		t.Fatalf("%d restarts, want the lab's 3", len(a.Restarts))
	}
	total := 0
	for k, name := range []string{"a", "b", "c"} {
		r := a.Restarts[k]
		if r.ServerName != name || r.Relists == 0 || r.RelistClients == 0 || r.RelistClients > r.Relists {
			t.Errorf("restart %d: server %q, %d relists by %d clients; want %s's, some", k, r.ServerName, r.Relists, r.RelistClients, name)
		}
		total += r.Relists
	}
	if a.Restarts[0].Relists != 9 || total >= len(a.TL.Relists) {
		t.Errorf("a's restart caused %d relists, want SUMMARY.txt's 9; the three %d of %d", a.Restarts[0].Relists, total, len(a.TL.Relists))
	}
	// The fleet's line, "around the restarts", says how many of the
	// relists the restarts caused, and that the others came later.
	want := fmt.Sprintf("(%d of the relists followed watches the restarts ended, the other %d followed watches that ended otherwise)", total, len(a.TL.Relists)-total)
	if line := summaryTopic(a, "fleet"); !strings.Contains(line, "around the restarts of API servers a, b and c, which ended their watches at") || !strings.Contains(line, want) {
		t.Errorf("the fleet's line: %q\nwant %q", line, want)
	}
}

// TestRestartRelistsOfOneServersLogs: server a's audit logs alone hold
// the watches a's restart ended and, minutes later, the relists its new
// process's 410s caused, which followed watches b's restart and the
// clients' timeouts ended on the other servers (probes.tsv): none of
// them a's. The restart counted 9 of them as its own, and the fleet's
// line put all 39 "around the restart of API server a".
func TestRestartRelistsOfOneServersLogs(t *testing.T) {
	a := buildRecording(t, "samples-lab", "audit-a-*.log").Analyze(realServer())
	if len(a.Restarts) != 1 || len(a.TL.Relists) == 0 {
		t.Fatalf("%d restarts, %d relists; want a's restart and the relists a's new process answered", len(a.Restarts), len(a.TL.Relists))
	}
	if n := a.Restarts[0].Relists; n != 0 {
		t.Errorf("a's restart caused %d relists, want none: each refused reconnect came minutes after the watch it ended", n)
	}
	if line := summaryTopic(a, "fleet"); strings.Contains(line, "around the restart") || !strings.Contains(line, ". None of them followed a watch ended by the restart of API server a, which ended its watches at") {
		t.Errorf("the fleet's line: %q", line)
	}
}
