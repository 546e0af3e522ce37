package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestAuditLogsSayWhatTheirClientsShare: samples-lab's clients are each
// named by their User-Agent alone, every one of them asking as user admin
// from 127.0.0.1; the report says so once, under its audit logs, and in
// its JSON.
func TestAuditLogsSayWhatTheirClientsShare(t *testing.T) {
	r := New(loadRecording(t, "samples-lab", "audit-*.log").Analyze(realServer()), nil)
	if r.Fleet.AuditShared != (AuditSharedReport{User: "admin", Address: "127.0.0.1"}) {
		t.Fatalf("the report's clients share %+v", r.Fleet.AuditShared)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	_, logs, ok := strings.Cut(md.String(), "## Audit logs\n")
	if !ok {
		t.Fatal("no audit logs section")
	}
	const want = "Every client of these logs that is not an API server's own is user admin from 127.0.0.1, which their names leave out."
	if !strings.Contains(logs, want) {
		t.Errorf("the audit logs section does not say %q:\n%s", want, logs)
	}
	if strings.Contains(md.String(), "(admin from 127.0.0.1)") {
		t.Error("a client is still named with the user and the address all share")
	}
}
