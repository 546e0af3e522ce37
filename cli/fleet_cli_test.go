package cli

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// analyze on the fleet's audit logs, one of them gzip-compressed and
// renamed (the format is sniffed from the bytes): a fleet section in
// every format, its JSON per client (the 44 informers; the servers' own
// are not the fleet's clients), and --fail-on judging the 410s the logs
// show, not refusing the logs as unreadable.
func TestAnalyzeFleetFromAuditLogs(t *testing.T) {
	dir := t.TempDir()
	var args []string
	for k, n := range []string{"audit-a-1.log", "audit-a-2.log", "audit-b-1.log", "audit-b-2.log"} {
		path := filepath.Join("testdata", "fleet", n)
		if k == 2 {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			path = filepath.Join(dir, "b1.bin")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			zw := gzip.NewWriter(f)
			zw.Write(data)
			zw.Close()
			f.Close()
		}
		args = append(args, path)
	}
	code, out, errOut := analyze(t, append([]string{"--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Fleet *struct {
			Clients  int `json:"clients"`
			Observed int `json:"relistsObserved"`
			Without  int `json:"relistsWithoutBookmarks"`
			Rows     []struct {
				Client  string `json:"client"`
				Relists []struct {
					Time     string `json:"time"`
					Cause    string `json:"cause"`
					Inferred bool   `json:"inferred"`
				} `json:"relists"`
			} `json:"perClient"`
			AuditLogs []struct {
				Name    string `json:"name"`
				Records int    `json:"records"`
			} `json:"auditLogs"`
		} `json:"fleet"`
		Restarts []struct {
			AuditLogs []string `json:"auditLogs"`
		} `json:"detectedRestarts"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	fl := rep.Fleet
	if fl == nil || fl.Clients != 44 || fl.Observed != 18 || fl.Without != 18 || len(fl.AuditLogs) != 4 || fl.AuditLogs[2].Records != 1067 {
		t.Fatalf("fleet %+v", fl)
	}
	// Riskiest first: two relists each.
	if r := fl.Rows[0]; len(r.Relists) != 2 || r.Relists[0].Cause != "410" || !r.Relists[0].Inferred || !strings.HasPrefix(r.Client, "fleet-c") {
		t.Errorf("first row %+v", r)
	}
	if len(rep.Restarts) != 2 || len(rep.Restarts[1].AuditLogs) != 2 || rep.Restarts[1].AuditLogs[0] != args[2] {
		t.Errorf("restarts %+v", rep.Restarts)
	}
	for _, format := range []string{"text", "markdown"} {
		_, out, _ := analyze(t, append([]string{"--format", format}, args...)...)
		if !strings.Contains(out, "Fleet (44 clients)") || !strings.Contains(out, "18 relists observed") || !strings.Contains(out, "fleet-c31-nobookmarks/1.0") {
			t.Errorf("%s report without its fleet section:\n%.2000s", format, out)
		}
	}
	if code, _, errOut := analyze(t, append([]string{"--fail-on", "410"}, args...)...); code != 1 {
		t.Errorf("--fail-on 410 on audit logs that show 410s: exit %d (%s)", code, errOut)
	}
	// One capture alone is no fleet.
	_, out, _ = analyze(t, "--format", "json", "testdata/fleet/c31-nobookmarks.ts.http")
	if !strings.Contains(out, `"fleet": null`) {
		t.Errorf("one client: want \"fleet\": null")
	}
}
