package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
)

// readKlogFile sniffs and reads a client log as the timeline does.
func readKlogFile(t *testing.T, path string, ko KlogOptions) *KlogLog {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head, r := SniffHead(f)
	ok := head.Klog()
	if !ok {
		t.Fatalf("%s is not sniffed as a client log", path)
	}
	l, err := ReadKlog(r, Options{}, ko)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestKlogRecordings reads the fleets' real client-go v0.37.2 logs: every
// client's 410s and lists are its TRUTH.tsv's, every reflector line is
// read (a regexp over the raw text counts them apart), and the year
// comes from the log's own Go log line.
func TestKlogRecordings(t *testing.T) {
	reflectorLine := regexp.MustCompile(`(?m)^[IWEF]\d{4} [0-9:.]+ +\d+ reflector\.go:\d+\] "`)
	gone := regexp.MustCompile(`(?m)^I\d{4} .*"Watch closed" client="([^"]+)".* err="too old resource version: (\d+) \((\d+)\)"$`)
	lastEvent := regexp.MustCompile(`(?m)"Warning: event bookmark expired" .*received last event (\S+) ago"`)
	for _, name := range []string{"samples-lab", "samples-outage", "samples-watchlist"} {
		t.Run(name, func(t *testing.T) {
			dir := testsample.Recording(t, name)
			raw := testsample.Read(t, filepath.Join(dir, "fleet-klog.log"))
			l := readKlogFile(t, filepath.Join(dir, "fleet-klog.log"), KlogOptions{})
			if len(l.Diagnostics) != 0 {
				t.Errorf("diagnostics on a real log: %v", l.Diagnostics[:min(3, len(l.Diagnostics))])
			}
			if l.Year != 2026 || l.YearFrom != "log" {
				t.Errorf("year %d from %q, want 2026 from the log's Go log line", l.Year, l.YearFrom)
			}
			reflector := 0
			byClient := map[string]map[KlogKind]int{}
			for _, kl := range l.Lines {
				if kl.Kind == KlogWatchListGate || kl.Kind == KlogStreamCut {
					continue
				}
				reflector++
				if kl.Client == "" || kl.Reflector == "" {
					t.Fatalf("line %d: no client or reflector: %+v", kl.Line, kl)
				}
				if byClient[kl.Client] == nil {
					byClient[kl.Client] = map[KlogKind]int{}
				}
				byClient[kl.Client][kl.Kind]++
				if kl.Time < l.First || kl.Time > l.Last || time.Unix(0, kl.Time).UTC().Format("2006-01-02") != "2026-12-01" {
					t.Fatalf("line %d: time %s", kl.Line, time.Unix(0, kl.Time).UTC())
				}
			}
			if want := len(reflectorLine.FindAll(raw, -1)); reflector != want {
				t.Errorf("%d reflector lines read, the text has %d", reflector, want)
			}
			cuts := 0
			for _, kl := range l.Lines {
				if kl.Kind == KlogStreamCut {
					cuts++
				}
			}
			if want := bytes.Count(raw, []byte(`"Unexpected EOF during watch stream event decoding"`)); cuts != want {
				t.Errorf("%d stream cuts read, the text has %d", cuts, want)
			}
			// The 410s' two RVs, line by line.
			var rvs []string
			for _, kl := range l.Lines {
				if kl.Kind == KlogGone {
					rvs = append(rvs, kl.Client+" "+kl.RV+" "+kl.OldestRV)
				}
			}
			var want []string
			for _, m := range gone.FindAllSubmatch(raw, -1) {
				want = append(want, string(m[1])+" "+string(m[2])+" "+string(m[3]))
			}
			if strings.Join(rvs, ",") != strings.Join(want, ",") {
				t.Errorf("410s read %d, in the text %d: %v... vs %v...", len(rvs), len(want), rvs[:min(3, len(rvs))], want[:min(3, len(want))])
			}
			// How long before each bookmark-expired warning its stream's
			// last event came, line by line.
			var agos, wantAgos []string
			for _, kl := range l.Lines {
				if kl.Kind == KlogBookmarkExpired && kl.LastEvent != 0 {
					agos = append(agos, time.Duration(kl.LastEvent).String())
				}
			}
			for _, m := range lastEvent.FindAllSubmatch(raw, -1) {
				d, err := time.ParseDuration(string(m[1]))
				if err != nil {
					t.Fatal(err)
				}
				wantAgos = append(wantAgos, d.String())
			}
			if strings.Join(agos, ",") != strings.Join(wantAgos, ",") {
				t.Errorf("last events read %d, in the text %d", len(agos), len(wantAgos))
			}
			if name == "samples-watchlist" && len(agos) == 0 {
				t.Error("no bookmark-expired warning read with its last event")
			}
			truth := testsample.ReadTruth(t, dir)
			for client := range truth {
				n := byClient[client]
				if n == nil {
					t.Errorf("%s: no line in the log", client)
					continue
				}
				if got, want := n[KlogGone], truth.Int(t, client, "errors410"); got != want {
					t.Errorf("%s: %d 410s, TRUTH.tsv says %d", client, got, want)
				}
				// Each "Listing and watching" is a list (or WatchList)
				// after the first; the relists are those after the first.
				if got, want := n[KlogList]-1, truth.Int(t, client, "relists"); got != want {
					t.Errorf("%s: %d lists after the first, TRUTH.tsv says %d relists", client, got, want)
				}
			}
			if len(byClient) != len(truth) {
				t.Errorf("%d clients in the log, %d in TRUTH.tsv", len(byClient), len(truth))
			}
		})
	}
}

// TestKlogForms reads the JSON forms (controller-runtime's zap, klog's
// own JSON format) and the printf lines of older client-go, made from the
// real lines' shapes: the same kinds, types, items and RVs; the bad lines
// are diagnosed at their offsets and the rest read, and the further
// lines of a multi-line message are skipped.
func TestKlogForms(t *testing.T) {
	type want struct {
		kind       KlogKind
		typ        string
		items      int
		rv, oldest string
		sev        byte
	}
	cases := []struct {
		file  string
		json  bool
		lines []want
		diags []string // kinds, in order
	}{
		{"klog-controller-runtime.jsonl", true, []want{
			{KlogList, "*v1.ConfigMap", -1, "", "", 'I'},
			{KlogSynced, "*v1.ConfigMap", -1, "", "", 'I'},
			{KlogWatchEnd, "*v1.ConfigMap", 5, "", "", 'I'},
			{KlogGone, "*v1.ConfigMap", -1, "329", "803", 'I'},
			{KlogList, "*v1.ConfigMap", -1, "", "", 'I'},
			{KlogSynced, "*v1.ConfigMap", -1, "", "", 'I'},
			{KlogWatchError, "*v1.ConfigMap", -1, "", "", 'E'},
			{KlogStop, "*v1.ConfigMap", -1, "", "", 'I'},
		}, []string{"bad-time", "truncated"}},
		{"klog-json.jsonl", true, []want{
			{KlogList, "*v1.Pod", -1, "", "", 'I'},
			{KlogSynced, "*v1.Pod", -1, "", "", 'I'},
			{KlogWatchEnd, "*v1.Pod", 12, "", "", 'I'},
			{KlogGone, "*v1.Pod", -1, "1182", "1183", 'I'},
			{KlogList, "*v1.Pod", -1, "", "", 'I'},
		}, nil},
		{"klog-legacy.log", false, []want{
			{KlogList, "*v1.Pod", -1, "", "", 'I'},
			{KlogSynced, "*v1.Pod", -1, "", "", 'I'},
			{KlogWatchEnd, "*v1.Pod", 5, "", "", 'I'},
			{KlogGone, "*v1.Pod", -1, "329", "803", 'W'},
			{KlogList, "*v1.Pod", -1, "", "", 'I'},
			{KlogWatchEnd, "*v1.Node", 0, "", "", 'I'},
			{KlogGone, "*v1.Node", -1, "1182", "1183", 'I'},
			{KlogWatchError, "*v1.Node", -1, "", "", 'W'},
			{KlogList, "*v1.Service", -1, "", "", 'I'},
			{KlogSynced, "*v1.Service", -1, "", "", 'I'},
		}, []string{"not-klog", "bad-header"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", c.file)
			raw := testsample.Read(t, path)
			l := readKlogFile(t, path, KlogOptions{Year: 2026})
			if l.JSON != c.json {
				t.Errorf("JSON %v", l.JSON)
			}
			// The health check's report after the bad header continues it.
			if want := map[bool]int{true: 0, false: 1}[c.json]; l.Continued != want {
				t.Errorf("%d lines continue a message, want %d", l.Continued, want)
			}
			var kinds []string
			for _, d := range l.Diagnostics {
				kinds = append(kinds, string(d.Kind))
				// The offset is the bad line's first byte.
				if d.Offset < 0 || d.Offset >= int64(len(raw)) || d.Offset > 0 && raw[d.Offset-1] != '\n' {
					t.Errorf("diagnostic %v: not at the start of a line", d)
				}
			}
			if strings.Join(kinds, ",") != strings.Join(c.diags, ",") {
				t.Errorf("diagnostics %v, want %v", l.Diagnostics, c.diags)
			}
			if len(l.Lines) != len(c.lines) {
				t.Fatalf("%d lines, want %d: %+v", len(l.Lines), len(c.lines), l.Lines)
			}
			for k, w := range c.lines {
				kl := l.Lines[k]
				if kl.Kind != w.kind || kl.Type != w.typ || kl.Items != w.items || kl.RV != w.rv || kl.OldestRV != w.oldest || kl.Severity != w.sev {
					t.Errorf("line %d: %+v, want %+v", k, kl, w)
				}
				if kl.Reflector == "" || kl.Client != "" {
					t.Errorf("line %d: reflector %q, client %q", k, kl.Reflector, kl.Client)
				}
				if k > 0 && kl.Time <= l.Lines[k-1].Time {
					t.Errorf("line %d: time %d not after the line before", k, kl.Time)
				}
				if got := time.Unix(0, kl.Time).UTC().Year(); got != 2026 && !(c.file == "klog-legacy.log" && k == len(c.lines)-1) {
					t.Errorf("line %d: year %d", k, got)
				}
			}
			if c.file == "klog-legacy.log" {
				// The log goes from 31 December into the new year.
				last := time.Unix(0, l.Lines[len(l.Lines)-1].Time).UTC()
				if last.Format(time.RFC3339Nano) != "2027-01-01T00:00:00.1Z" {
					t.Errorf("the line after midnight of 31 December reads as %s", last)
				}
			}
		})
	}
}

// TestKlogYear: without a year in the option or in the log, a klog
// header's year is the clock's, or the year before when that would put
// the log in the future.
func TestKlogYear(t *testing.T) {
	in := []byte("I1201 18:09:28.950110   14489 reflector.go:472] \"Listing and watching\" client=\"a\" type=\"*v1.Pod\" reflector=\"r\"\n")
	for _, c := range []struct {
		now  time.Time
		want int
	}{
		{time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC), 2026},
		{time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC), 2026},
	} {
		l, err := ReadKlog(bytes.NewReader(in), Options{}, KlogOptions{Now: c.now})
		if err != nil || len(l.Lines) != 1 {
			t.Fatalf("%v %+v", err, l)
		}
		if l.Year != c.want || l.YearFrom != "clock" || time.Unix(0, l.Lines[0].Time).UTC().Year() != c.want {
			t.Errorf("now %s: year %d from %q", c.now, l.Year, l.YearFrom)
		}
	}
}

// TestIsKlog: client logs are told from captures and audit logs.
func TestIsKlog(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"I1201 18:09:28.950110   14489 reflector.go:472] \"Listing and watching\" client=\"a\"\n", true},
		{"2026-12-01T18:09:29.29Z I1201 18:09:28.950110   14489 reflector.go:472] \"Listing and watching\"\n", true},
		{"{\"level\":\"info\",\"ts\":1796148568.9,\"msg\":\"Caches populated\"}\n", true},
		{"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"}}\n", false},
		{"{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"msg\":\"x\",\"level\":\"Metadata\"}\n", false},
		{"2026-12-01T18:09:29.292225473Z GET /api/v1/pods?watch=1 HTTP/1.1\n", false},
		{"I1201 18:09:28.950110   14489 reflector.go:472] \"Listing", false}, // no whole line
	} {
		if got := IsKlog([]byte(c.in)); got != c.want {
			t.Errorf("IsKlog(%q) = %v", c.in, got)
		}
	}
}

// FuzzKlogReader: any input reads without panic, with diagnostics and
// lines inside the input, and sniffing hands back every byte.
func FuzzKlogReader(f *testing.F) {
	for _, name := range []string{"klog-controller-runtime.jsonl", "klog-json.jsonl", "klog-legacy.log"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("I1201 18:13:29.029006   14489 reflector.go:651] \"Watch closed\" client=\"c\\\"1\" err=\"too old resource version: 329 (803)\" x=<\n\tmore\n >\n"))
	f.Add([]byte("I0229 25:61:99.9 1 a:1]\nW1301 00:00:00.000000 1 x.go:1] k: watch of ended with: too old resource version: 9 (\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		_, r := SniffHead(bytes.NewReader(in))
		var back bytes.Buffer
		back.ReadFrom(r)
		if !bytes.Equal(back.Bytes(), in) {
			t.Fatalf("sniffing lost bytes: %d of %d", back.Len(), len(in))
		}
		l, err := ReadKlog(bytes.NewReader(in), Options{MaxEventSize: 1 << 10}, KlogOptions{Year: 2026})
		if err != nil {
			t.Fatalf("Err %v on in-memory input", err)
		}
		compressed := checkLogDiagnostics(t, in, l.Diagnostics)
		for _, kl := range l.Lines {
			if kl.Offset < 0 || (!compressed && kl.Offset >= int64(len(in))) || kl.Time < l.First || kl.Time > l.Last {
				t.Fatalf("line %+v (log %d..%d)", kl, l.First, l.Last)
			}
		}
		if len(l.Lines) > l.Records {
			t.Fatalf("%d lines from %d records", len(l.Lines), l.Records)
		}
	})
}
