package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLabCostTable: with samples-lab's captures and Prometheus exports,
// the Markdown report has a row per cost bin, the relists per second of
// the captures beside the LISTs per second the servers counted, and a
// dash where no export covers the bin (the fleet's first LISTs came
// before the exports begin). The bins start on whole ten seconds, each
// written as the report's other instants are.
func TestLabCostTable(t *testing.T) {
	r := New(loadRecording(t, "samples-lab", "*.ts.http", "prometheus/query_range/apiserver_*.json.gz").Analyze(realServer()), nil)
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	c := r.Fleet.Cost
	if !c.Metrics.ServerLists || !c.Metrics.CacheLists || c.Metrics.From == "" || len(c.Bins) < 10 {
		t.Fatalf("metrics %+v, %d bins", c.Metrics, len(c.Bins))
	}
	_, table, ok := strings.Cut(md.String(), "## Relists per 10 s (from the clients' records), beside what the API servers counted\n")
	if !ok {
		t.Fatal("no cost table")
	}
	rows := strings.Split(table, "\n")[3:]
	dashes, unscraped := 0, 0
	for k, bin := range c.Bins {
		cells := strings.Split(strings.Trim(rows[k], "| "), " | ")
		relists := bin.WatchCache.Relists + bin.Etcd.Relists + bin.Unknown.Relists
		// The last column names the servers the exports miss then: the
		// lab's restarts.
		if len(cells) != 10 || cells[0] != r.instant(bin.From) || cells[1] != fmt.Sprintf("%d (%.1f/s)", relists, float64(relists)/10) || cells[9] != orDash(strings.Join(bin.Unscraped, ", ")) {
			t.Fatalf("row %d %q for bin %+v", k, rows[k], bin)
		}
		if len(bin.Unscraped) > 0 {
			unscraped++
		}
		if at, err := time.Parse(time.RFC3339Nano, bin.From); err != nil || at.UnixNano()%int64(10*time.Second) != 0 {
			t.Errorf("bin %s does not start on whole ten seconds (%v)", bin.From, err)
		}
		switch want := fmt.Sprintf("%g (%.1f/s)", bin.ServerLists, bin.ServerLists/10); {
		case bin.From < c.Metrics.From:
			dashes++
			if cells[6] != "-" {
				t.Errorf("bin %s before the exports: %q", bin.From, cells[6])
			}
		case cells[6] != want:
			t.Errorf("bin %s: servers' LISTs %q, want %q", bin.From, cells[6], want)
		}
	}
	if dashes == 0 || dashes == len(c.Bins) {
		t.Errorf("%d of %d bins before the exports", dashes, len(c.Bins))
	}
	if unscraped == 0 {
		t.Error("no bin names a server not scraped, though each restarted unscraped")
	}
}
