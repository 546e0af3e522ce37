package engine

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// TestAuditLogPastTheLimitSaysSo (#26): an audit log read past the
// page's event limit, which its requests and clients count against,
// keeps the clients read before and says that reading stopped, as a
// capture does: samples-fleet's audit-b-1.log, of 46 clients, under a
// limit of 5000 events. Under the default limit it is read whole and
// says nothing.
func TestAuditLogPastTheLimitSaysSo(t *testing.T) {
	log := testsample.Read(t, filepath.Join(testsample.Recording(t, "samples-fleet"), "audit-b-1.log"))
	open := func(maxEvents int) Opened {
		t.Helper()
		_, o, err := Open([]Source{{Name: "audit-b-1.log", Size: int64(len(log)), Data: bytes.NewReader(log)}}, Options{MaxEvents: maxEvents})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	whole, cut := open(0), open(5000)
	if len(whole.LogErrs) != 0 || len(whole.Files) < 20 {
		t.Fatalf("read whole: %d clients, %q", len(whole.Files), whole.LogErrs)
	}
	if len(cut.Files) == 0 || len(cut.Files) >= len(whole.Files) {
		t.Errorf("under 5000 events: %d clients of the %d, want those read before the limit", len(cut.Files), len(whole.Files))
	}
	if len(cut.LogErrs) != 1 || !strings.Contains(cut.LogErrs[0], "audit-b-1.log") || !strings.Contains(cut.LogErrs[0], "the page keeps at most 5000 events") {
		t.Errorf("under 5000 events the log says %q", cut.LogErrs)
	}
}
