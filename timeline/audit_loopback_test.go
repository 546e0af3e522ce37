package timeline

import (
	"strings"
	"testing"
)

// TestServersOwnInformersAreToldApart: each API server process has its
// own informers, one per resource; their names said the same six times
// over the watchlist recording's six audit logs. Each now names the log
// of its process.
func TestServersOwnInformersAreToldApart(t *testing.T) {
	tl := buildRecording(t, "samples-watchlist", "audit-*.log")
	seen, loopback := map[string]bool{}, 0
	for _, f := range tl.Files {
		if !f.Loopback {
			continue
		}
		loopback++
		if seen[f.Name] {
			t.Errorf("two of the servers' own informers are named %q", f.Name)
		}
		seen[f.Name] = true
		if !strings.Contains(f.Name, " in audit-") {
			t.Errorf("a server's own informer %q does not name its log", f.Name)
		}
	}
	if loopback < 6 {
		t.Fatalf("%d of the servers' own informers: the test proves nothing", loopback)
	}
}
