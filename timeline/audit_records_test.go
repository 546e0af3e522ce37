package timeline

import (
	"bytes"
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// auditCounts builds a timeline of named in-memory audit logs and counts
// its clients' sessions and relists.
func auditCounts(t *testing.T, logs map[string][]byte, order ...string) (clients, sessions, relists int) {
	t.Helper()
	tl := buildBytes(t, logs, order...)
	for _, f := range tl.Files {
		if !f.Audit {
			t.Fatalf("%s is not read as an audit log's client", f.Name)
		}
		sessions += len(f.Sessions)
	}
	return len(tl.Files), sessions, len(tl.Relists)
}

// TestAuditLogsAreRecords: an audit log is a set of records, not a
// stream of lines. The same log given twice, or as two halves that
// overlap, is the log once; one whose first line is cut (tail -c) is
// still an audit log; one whose stages come out of order has the same
// requests. Read on samples-fleet's audit-b-1.log, whose clients relisted.
func TestAuditLogsAreRecords(t *testing.T) {
	whole := testsample.Read(t, filepath.Join(fleetDir, "audit-b-1.log"))
	lines := bytes.SplitAfter(whole, []byte("\n"))
	clients, sessions, relists := auditCounts(t, map[string][]byte{"b": whole}, "b")
	if relists == 0 || sessions < 10 {
		t.Fatalf("the log alone: %d clients, %d sessions, %d relists: the test proves nothing", clients, sessions, relists)
	}
	join := func(ls [][]byte) []byte { return bytes.Join(ls, nil) }
	half, third := len(lines)/2, len(lines)/3
	// Each request's stages swapped where they follow each other.
	swapped := append([][]byte{}, lines...)
	for k := 0; k+1 < len(swapped); k++ {
		if bytes.Contains(swapped[k], []byte(`"ResponseStarted"`)) && bytes.Contains(swapped[k+1], []byte(`"ResponseComplete"`)) {
			swapped[k], swapped[k+1] = swapped[k+1], swapped[k]
			k++
		}
	}
	for name, logs := range map[string][][]byte{
		"given twice":         {whole, whole},
		"overlapping halves":  {join(lines[:half+third]), join(lines[third:])},
		"stages out of order": {join(swapped)},
	} {
		files, order := map[string][]byte{}, []string(nil)
		for k, l := range logs {
			n := string(rune('p' + k))
			files[n], order = l, append(order, n)
		}
		if c, s, r := auditCounts(t, files, order...); c != clients || s != sessions || r != relists {
			t.Errorf("%s: %d clients, %d sessions, %d relists; the log alone %d, %d, %d", name, c, s, r, clients, sessions, relists)
		}
	}
	cut := whole[100:]
	if head, _ := parser.SniffHead(bytes.NewReader(cut)); !head.Audit() {
		t.Errorf("a log cut 100 bytes into its first line is not sniffed as an audit log")
	}
	if c, s, r := auditCounts(t, map[string][]byte{"cut": cut}, "cut"); c != clients || r != relists || s < sessions-1 {
		t.Errorf("cut: %d clients, %d sessions, %d relists; the log alone %d, %d, %d", c, s, r, clients, sessions, relists)
	}
}

// TestAuditLogsBoundedByMaxEvents: MaxEvents bounds an audit log's
// requests and clients as it bounds events (a client costs
// auditClientCost events): past it the requests are not kept, and the
// log says where it stopped.
func TestAuditLogsBoundedByMaxEvents(t *testing.T) {
	whole := testsample.Read(t, filepath.Join(fleetDir, "audit-b-1.log"))
	b := NewBuilder()
	b.MaxEvents = 10 * auditClientCost
	if err := b.AddReader("b", bytes.NewReader(whole), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	sessions := 0
	for _, f := range tl.Files {
		sessions += len(f.Sessions)
	}
	if !b.Stopped() || len(tl.Files) > 10 || len(tl.Files) == 0 || sessions+auditClientCost*len(tl.Files) > b.MaxEvents {
		t.Errorf("stopped %v: %d clients, %d sessions under a cap of %d", b.Stopped(), len(tl.Files), sessions, b.MaxEvents)
	}
	found := false
	for _, d := range tl.AuditLogs[0].Diagnostics {
		found = found || d.Kind == "too-many-events" && d.Offset > 0
	}
	if !found {
		t.Errorf("the log does not say where reading stopped: %+v", tl.AuditLogs[0].Diagnostics)
	}
}
