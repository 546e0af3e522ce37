package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// analyze -server-of groups an audit log whose name cannot tell its
// server: the fleet's logs, server b's first renamed, are three servers
// without it and a and b, each restarted once, with it.
func TestAnalyzeServerOf(t *testing.T) {
	dir := t.TempDir()
	var args []string
	for _, n := range []string{"audit-a-1.log", "audit-a-2.log", "audit-b-1.log", "audit-b-2.log"} {
		path := filepath.Join("testdata", "fleet", n)
		if n == "audit-b-1.log" {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			path = filepath.Join(dir, "first.bin")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args = append(args, path)
	}
	servers := func(extra ...string) string {
		t.Helper()
		code, out, errOut := analyze(t, append(append([]string{"--format", "json"}, extra...), args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep struct {
			Servers []struct {
				Name         string `json:"name"`
				Incarnations []struct {
					Logs []string `json:"logs"`
				} `json:"incarnations"`
			} `json:"servers"`
			Sessions []struct {
				Server string `json:"server"`
			} `json:"sessions"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Sessions {
			if s.Server == "" {
				t.Errorf("a session from the audit logs has no server")
			}
		}
		var got []string
		for _, s := range rep.Servers {
			got = append(got, s.Name+":"+string(rune('0'+len(s.Incarnations))))
		}
		return strings.Join(got, " ")
	}
	if got := servers(); got != "a:2 b:1 first.bin:1" {
		t.Errorf("without -server-of: servers %q", got)
	}
	if got := servers("-server-of", filepath.Join(dir, "first.bin")+"=b"); got != "a:2 b:2" {
		t.Errorf("with -server-of: servers %q, want a and b, each restarted once", got)
	}
	if code, _, errOut := analyze(t, append([]string{"-server-of", "first.bin"}, args...)...); code != 2 || !strings.Contains(errOut, "FILE=NAME") {
		t.Errorf("-server-of without =NAME: exit %d, %q", code, errOut)
	}
}

// analyze --servers below the servers the audit logs show says so on
// stderr, and counts those the records show; given as many or more, or
// not given, it says nothing.
func TestAnalyzeServersFewerThanTheRecords(t *testing.T) {
	logs, err := filepath.Glob(filepath.Join("testdata", "fleet", "audit-*.log"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no audit logs in testdata/fleet (%v)", err)
	}
	const said = "--servers 1 is fewer than the 2 API servers the records show; the report counts 2"
	for _, c := range []struct {
		flags []string
		warns bool
	}{{[]string{"--servers", "1"}, true}, {[]string{"--servers", "2"}, false}, {nil, false}} {
		code, _, errOut := analyze(t, append(append([]string{"--format", "summary"}, c.flags...), logs...)...)
		if code != 0 || strings.Contains(errOut, said) != c.warns || strings.Contains(errOut, "fewer than") && !c.warns {
			t.Errorf("%v: exit %d, stderr %q; want the warning: %v", c.flags, code, errOut, c.warns)
		}
	}
}
