package parser

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// labAuditIDs reads the lab's attribution.tsv: each client's requests'
// Audit-Id, in the order it sent them.
func labAuditIDs(t *testing.T, dir string) map[string][]string {
	t.Helper()
	rows := strings.Split(strings.TrimSpace(string(testsample.Read(t, filepath.Join(dir, "attribution.tsv")))), "\n")
	head := strings.Split(rows[0], "\t")
	col := -1
	for i, h := range head {
		if h == "audit_id" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("attribution.tsv has no audit_id column: %q", rows[0])
	}
	out := map[string][]string{}
	for _, ln := range rows[1:] {
		c := strings.Split(ln, "\t")
		out[c[0]] = append(out[c[0]], c[col])
	}
	return out
}

// untimed strips a timestamped capture's time prefix from every line: the
// same capture as a recorder without times writes it.
func untimed(b []byte) []byte {
	var out bytes.Buffer
	for _, ln := range bytes.SplitAfter(b, []byte("\n")) {
		if _, rest, ok := bytes.Cut(ln, []byte(" ")); ok {
			ln = rest
		}
		out.Write(ln)
	}
	return out.Bytes()
}

// Every response of the lab's captures carries the Audit-Id under which
// the server that answered logged it: each session holds its own, as the
// client's recorder wrote it beside the request (attribution.tsv), with
// or without the time prefix, JSON or protobuf.
func TestSessionsCarryAuditID(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	want := labAuditIDs(t, dir)
	for _, client := range []string{"c100-nobookmarks", "s036-secret-nobookmarks", "p02-proto-nobookmarks", "broad-a"} {
		raw := testsample.Read(t, filepath.Join(dir, client+".ts.http"))
		for form, data := range map[string][]byte{"timed": raw, "untimed": untimed(raw)} {
			c, err := ReadAll(bytes.NewReader(data), Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", client, form, err)
			}
			var got []string
			for _, s := range c.Sessions {
				if s.Request != nil {
					got = append(got, s.AuditID)
				}
			}
			if len(want[client]) == 0 || strings.Join(got, " ") != strings.Join(want[client], " ") {
				t.Errorf("%s (%s): Audit-Ids %q, want %q", client, form, got, want[client])
			}
		}
	}
}
