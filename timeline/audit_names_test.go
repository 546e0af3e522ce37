package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// TestAuditNamesLeaveOutWhatAllShare: samples-lab's 207 informers all
// ask as user admin from 127.0.0.1, which named each "fleet-c091-
// nobookmarks/1.0 (admin from 127.0.0.1)" on every line of the summary.
// Their names are their User-Agents, AuditShared says what they share,
// and the API servers' own informers keep their whole names. With one
// informer's records given another user, the names say the user, and
// still not the address all share; one client alone is named whole.
func TestAuditNamesLeaveOutWhatAllShare(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	logs, err := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no audit log in %s: %v", dir, err)
	}
	build := func(edit func([]byte) []byte) *Timeline {
		b := NewBuilder()
		for _, p := range logs {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.AddReader(filepath.Base(p), bytes.NewReader(edit(data)), parser.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		return b.Build()
	}
	// names checks the audit clients' names: each unique, the API
	// servers' own whole, the others' parts after the User-Agent want's.
	names := func(tl *Timeline, want func(ua string) string) {
		t.Helper()
		seen := map[string]bool{}
		own, others := 0, 0
		for _, f := range tl.Files {
			if !f.Audit {
				continue
			}
			if seen[f.Name] {
				t.Errorf("two clients named %q", f.Name)
			}
			seen[f.Name] = true
			if f.Loopback {
				own++
				if !strings.Contains(f.Name, " (system:apiserver from 127.0.0.1 in audit-") {
					t.Errorf("the API server's own informer is named %q", f.Name)
				}
				continue
			}
			others++
			if w := f.Client + want(f.Client); f.Name != w {
				t.Errorf("a client is named %q, want %q", f.Name, w)
			}
		}
		if own == 0 || others < 200 {
			t.Fatalf("%d of the API servers' own informers and %d other clients: want both, and the lab's 207", own, others)
		}
	}

	tl := build(func(b []byte) []byte { return b })
	if tl.AuditShared != (AuditShared{User: "admin", Address: "127.0.0.1"}) {
		t.Fatalf("the lab's clients share %+v", tl.AuditShared)
	}
	names(tl, func(string) string { return "" })

	const alice = "fleet-c000-bookmarks/1.0"
	tl = build(func(b []byte) []byte {
		var out []byte
		for line := range bytes.Lines(b) {
			if bytes.Contains(line, []byte(`"userAgent":"`+alice+`"`)) {
				line = bytes.Replace(line, []byte(`"username":"admin"`), []byte(`"username":"alice"`), 1)
			}
			out = append(out, line...)
		}
		return out
	})
	if tl.AuditShared != (AuditShared{Address: "127.0.0.1"}) {
		t.Fatalf("with one client's user alice, the clients share %+v", tl.AuditShared)
	}
	names(tl, func(ua string) string {
		if ua == alice {
			return " (alice)"
		}
		return " (admin)"
	})

	// One client alone shares nothing: its name says who it is.
	tl = build(func(b []byte) []byte {
		var out []byte
		for line := range bytes.Lines(b) {
			if bytes.Contains(line, []byte(`"userAgent":"`+alice+`"`)) {
				out = append(out, line...)
			}
		}
		return out
	})
	if tl.AuditShared != (AuditShared{}) || len(tl.Files) == 0 {
		t.Fatalf("one client, in %d files, shares %+v", len(tl.Files), tl.AuditShared)
	}
	for _, f := range tl.Files {
		if f.Audit && f.Name != alice+" (admin from 127.0.0.1)" {
			t.Errorf("the one client is named %q", f.Name)
		}
	}
}
