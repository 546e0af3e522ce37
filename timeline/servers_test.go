package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// addLab adds the lab recording's files matching each pattern, under
// their base names, or under the name rename gives.
func addLab(t testing.TB, b *Builder, rename map[string]string, patterns ...string) {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	for _, pat := range patterns {
		paths, _ := filepath.Glob(filepath.Join(dir, pat))
		if len(paths) == 0 {
			t.Fatalf("no %s in %s", pat, dir)
		}
		for _, path := range paths {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(path)
			if n, ok := rename[name]; ok {
				name = n
			}
			err = b.AddReader(name, f, parser.Options{})
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
	}
}

// labTable reads one of the lab's tables: its rows by column name.
func labTable(t testing.TB, name string) []map[string]string {
	t.Helper()
	return recordingTable(t, "samples-lab", name)
}

// recordingTable reads a table of the named recording: its rows by
// column name.
func recordingTable(t testing.TB, recording, name string) []map[string]string {
	t.Helper()
	b := testsample.Read(t, filepath.Join(testsample.Recording(t, recording), name))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(lines[0], "\t")
	var out []map[string]string
	for _, ln := range lines[1:] {
		c := strings.Split(ln, "\t")
		if len(c) != len(head) {
			t.Fatalf("%s: %q has %d columns, want %d", name, ln, len(c), len(head))
		}
		row := map[string]string{}
		for i, h := range head {
			row[h] = c[i]
		}
		out = append(out, row)
	}
	return out
}

// serverOf names session g's server and incarnation as the lab's tables
// do: a1 is server a's first process.
func serverOf(tl *Timeline, g int) string {
	s, inc, ok := tl.ServerOf(g)
	if !ok {
		return "-"
	}
	return tl.Servers[s].Name + string(rune('1'+inc))
}

// Every one of the lab's 1005 requests is answered by the server and
// process whose audit log holds its Audit-Id (attribution.tsv, which the
// load balancer's log confirms), and every client from the audit logs
// by the log it came from.
func TestLabServersFromAuditLogs(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "*.ts.http", "audit-*.log")
	tl := b.Build()
	var got []string
	for _, s := range tl.Servers {
		var logs []string
		for _, inc := range s.Incarnations {
			var names []string
			for _, l := range inc.Logs {
				names = append(names, tl.AuditLogs[l].Name)
			}
			logs = append(logs, strings.Join(names, "+"))
		}
		got = append(got, s.Name+":"+strings.Join(logs, ","))
	}
	if want := "a:audit-a-1.log,audit-a-2.log b:audit-b-1.log,audit-b-2.log c:audit-c-1.log,audit-c-2.log"; strings.Join(got, " ") != want {
		t.Fatalf("servers %q, want %q", got, want)
	}
	// The requests of each client in the order it sent them.
	byClient := map[string][]int{}
	for fi, f := range tl.Files {
		if name, ok := strings.CutSuffix(f.Name, ".ts.http"); ok {
			for _, g := range f.Sessions {
				if tl.Sessions[g].Request != nil {
					byClient[name] = append(byClient[name], g)
				}
			}
		} else if !f.Audit {
			t.Errorf("file %d %q is neither a capture nor a client from the audit logs", fi, f.Name)
		}
	}
	seen := map[string]int{}
	rows := labTable(t, "attribution.tsv")
	for _, r := range rows {
		k := seen[r["client"]]
		seen[r["client"]]++
		if k >= len(byClient[r["client"]]) {
			t.Fatalf("%s has no request %d", r["client"], k)
		}
		if got := serverOf(tl, byClient[r["client"]][k]); got != r["audit_incarnation"] {
			t.Errorf("%s request %d (%s): answered by %s, want %s", r["client"], k, r["request_uri"], got, r["audit_incarnation"])
		}
	}
	if len(rows) != 1005 {
		t.Errorf("attribution.tsv has %d requests, want 1005", len(rows))
	}
	// Each capture's server path is the processes its requests reached,
	// in order, one entry per change ("c1" there is "c#1").
	path := map[string][]string{}
	for _, r := range rows {
		inc := r["audit_incarnation"]
		p := ProcessName(inc[:len(inc)-1], int(inc[len(inc)-1]-'1'))
		if ps := path[r["client"]]; len(ps) == 0 || ps[len(ps)-1] != p {
			path[r["client"]] = append(ps, p)
		}
	}
	changed := 0
	for fi, f := range tl.Files {
		name, ok := strings.CutSuffix(f.Name, ".ts.http")
		if !ok {
			continue
		}
		if got, want := PathWords(tl.ServerPath(fi)), PathWords(path[name]); got != want || want == "" {
			t.Errorf("%s went through %q, want %q", name, got, want)
		}
		if len(path[name]) > 1 {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no capture of the lab changed servers: the paths tell nothing")
	}
	for g, s := range tl.Sessions {
		if !tl.Files[s.File].Audit {
			continue
		}
		inc := tl.Servers[s.Server].Incarnations[s.Incarnation]
		if l := tl.auditLog[g]; !containsInt(inc.Logs, l) {
			t.Fatalf("session %d of %s is from %s, but its server is %s", g, tl.Files[s.File].Name, tl.AuditLogs[l].Name, serverOf(tl, g))
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// The lab's logs under the names users have: one folder per host, logs
// rotated with the time in their names, numbered logs that overlap (one
// server each), and names that tell nothing, grouped by -server-of.
func TestServersFromLogNames(t *testing.T) {
	cases := []struct {
		name     string
		rename   map[string]string
		serverOf map[string]string
		want     string
	}{
		{"a folder per host", map[string]string{
			"audit-a-1.log": "hostA/audit.log", "audit-a-2.log": "hostA/audit-2026-12-01T18-22-35.305.log",
			"audit-b-1.log": "hostB/audit.log", "audit-b-2.log": "hostB/audit-2026-12-01T18-22-36.827.log.gz",
			"audit-c-1.log": `C:\logs\hostC\kube-apiserver-audit.log`, "audit-c-2.log": `C:\logs\hostC\kube-apiserver-audit-2026-12-01T18-22-38.350.log`,
		}, nil, "hostA:2 hostB:2 hostC:2"},
		{"numbered servers", map[string]string{
			"audit-a-1.log": "audit-cp-1.log", "audit-b-1.log": "audit-cp-2.log", "audit-c-1.log": "audit-cp-3.log",
			"audit-a-2.log": "audit-cp-1.log.1", "audit-b-2.log": "cp-2-b.log", "audit-c-2.log": "x.log",
		}, map[string]string{"cp-2-b.log": "cp-2"}, "cp-1:2 cp-2:2 cp-3:1 x:1"},
		{"names that tell nothing", map[string]string{
			"audit-a-1.log": "one/audit.log", "audit-a-2.log": "two/audit.log", "audit-b-1.log": "x.json",
			"audit-b-2.log": "y.json", "audit-c-1.log": "logs/z.log", "audit-c-2.log": "logs/w.log",
		}, map[string]string{"one/audit.log": "a", "two/audit.log": "a", "x.json": "b", "y.json": "b", "z.log": "c", "w.log": "c"}, "a:2 b:2 c:2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBuilder()
			b.ServerOf = c.serverOf
			addLab(t, b, c.rename, "audit-*.log")
			tl := b.Build()
			var got []string
			for _, s := range tl.Servers {
				got = append(got, s.Name+":"+string(rune('0'+len(s.Incarnations))))
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("servers %q, want %q", got, c.want)
			}
		})
	}
}

// The fleet recording's two servers, restarted once each: with their
// audit logs, every session of the captures and of the logs' clients
// knows its server, and no resume is contradicted (a 410 of one server
// applied to the other refused two that the other accepted).
func TestFleetServers(t *testing.T) {
	captures, _ := filepath.Glob(filepath.Join(fleetDir, "*.ts.http"))
	logs, _ := filepath.Glob(filepath.Join(fleetDir, "audit-*.log"))
	for name, paths := range map[string][]string{"captures and audit logs": append(captures, logs...), "audit logs": logs} {
		b := NewBuilder()
		for _, path := range paths {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			err = b.AddReader(filepath.Base(path), f, parser.Options{})
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		tl := b.Build()
		if len(tl.Servers) != 2 || len(tl.Servers[0].Incarnations) != 2 || len(tl.Servers[1].Incarnations) != 2 {
			t.Fatalf("%s: servers %+v, want a and b, each restarted once", name, tl.Servers)
		}
		for g := range tl.Sessions {
			if _, _, ok := tl.ServerOf(g); !ok {
				t.Errorf("%s: session %d of %s has no server", name, g, tl.Files[tl.Sessions[g].File].Name)
			}
		}
		p := DefaultParams()
		p.EtcdInterval = time.Minute
		a := tl.Analyze(p)
		for _, r := range a.Resumes {
			if r.Contradicts() {
				s := &tl.Sessions[r.Session]
				t.Errorf("%s: %s session %d from RV %s on %s: predicted %v, observed %v: %s", name, tl.Files[s.File].Name, s.Index, r.RV,
					serverOf(tl, r.Session), r.Predicted.Outcome, r.Observed, r.Predicted.Reason)
			}
		}
	}
}
