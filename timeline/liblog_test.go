package timeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// libLogClients builds one of parser/testdata's library logs alone
// (written from each library's log statements with samples-lab's
// c097-nobookmarks and c080-nobookmarks; see parser/liblog_test.go) and
// returns each client's file by its name.
func libLogClients(t *testing.T, name string) (*Timeline, map[string]int) {
	t.Helper()
	tl := buildFiles(t, "../parser/testdata", name)
	files := map[string]int{}
	for fi, f := range tl.Files {
		if f.Log != name || !f.Audit || f.Events != 0 || f.Library == "" {
			t.Fatalf("file %q: log %q, audit %v, %d events, library %q", f.Name, f.Log, f.Audit, f.Events, f.Library)
		}
		files[f.Client] = fi
	}
	return tl, files
}

// TestLibLogClients: each informer of a kube-rs, fabric8 or Python log
// is a client whose lists, 410s and relists are those of the lab client
// its log was written from (c097-nobookmarks' TRUTH.tsv: 3 lists, 2
// 410s, 2 relists), each relist caused by its 410, from etcd (none of
// the three libraries keeps a resourceVersion in its relist), and at
// the instant its log shows it.
func TestLibLogClients(t *testing.T) {
	truth := testsample.ReadTruth(t, testsample.Recording(t, "samples-lab"))
	const c097 = "c097-nobookmarks"
	for _, c := range []struct {
		log, relisting, other string
		// otherLists, otherRelists: the other informer's.
		otherLists, otherRelists int
		// lag bounds how far from the relist's request its line may
		// come: urllib3 logs a request as its answer's head arrives;
		// fabric8 logs a list only at its end, so the relist starts its
		// first reconnect interval (1 s) after the 410 before it, where
		// the lab's client-go relisted 1.4 and 1.5 s after its 410s.
		lag time.Duration
	}{
		{"kubers-watcher.log", "/api/v1/namespaces/lab/configmaps labelSelector=shard=s17", "/api/v1/namespaces/lab/configmaps labelSelector=shard=s00", 1, 0, time.Millisecond},
		{"kubers-watcher.jsonl", "/api/v1/namespaces/lab/configmaps labelSelector=shard=s17", "/api/v1/namespaces/lab/configmaps labelSelector=shard=s00", 1, 0, time.Millisecond},
		{"python-informer.log", "/api/v1/namespaces/lab/configmaps labelSelector=shard=s17", "/api/v1/namespaces/lab/configmaps labelSelector=shard=s00", 1, 0, 3 * time.Millisecond},
		{"fabric8-informer.log", "/api/v1/namespaces/lab/configmaps labelSelector=shard=s17", "/api/v1/namespaces/lab/secrets labelSelector=shard=s01", 2, 1, time.Second},
	} {
		t.Run(c.log, func(t *testing.T) {
			tl, files := libLogClients(t, c.log)
			if len(files) != 2 {
				t.Fatalf("clients %v, want 2", files)
			}
			count := func(fi int) (lists, gone int, relists []Relist) {
				for _, g := range tl.Files[fi].Sessions {
					s := &tl.Sessions[g]
					if s.isList() {
						lists++
					}
					if s.Error != nil && s.Error.Code == 410 {
						gone++
					}
				}
				for _, r := range tl.Relists {
					if r.File == fi {
						relists = append(relists, r)
					}
				}
				return
			}
			fi, ok := files[c.relisting]
			if !ok {
				t.Fatalf("no client %q in %v", c.relisting, files)
			}
			lists, gone, relists := count(fi)
			if lists != truth.Int(t, c097, "lists") || gone != truth.Int(t, c097, "errors410") || len(relists) != truth.Int(t, c097, "relists") {
				t.Fatalf("%d lists, %d 410s, %d relists; c097's TRUTH.tsv: %s, %s, %s", lists, gone, len(relists),
					truth[c097]["lists"], truth[c097]["errors410"], truth[c097]["relists"])
			}
			times := splitTimes(truth[c097]["relist_times"])
			for k, r := range relists {
				want, err := time.Parse(time.RFC3339Nano, times[k])
				if err != nil {
					t.Fatal(err)
				}
				if d := time.Duration(want.UnixNano() - r.T); d.Abs() > c.lag {
					t.Errorf("relist %d at %s, the capture's %s", k, FormatTime(r.T, ClockArrival), times[k])
				}
				if r.Cause != CauseGone || r.Source != SourceEtcd {
					t.Errorf("relist %d: cause %v (%s), source %v", k, r.Cause, r.Reason, r.Source)
				}
			}
			if c.log == "kubers-watcher.log" && !strings.Contains(relists[0].CauseMessage, "too old resource version: 997 (1183)") {
				t.Errorf("the first 410's message %q", relists[0].CauseMessage)
			}
			lists, gone, relists = count(files[c.other])
			if lists != c.otherLists || gone != 0 || len(relists) != c.otherRelists {
				t.Errorf("%s: %d lists, %d 410s, %d relists", c.other, lists, gone, len(relists))
			}
			for _, r := range relists {
				if r.Cause != CauseError {
					t.Errorf("%s's relist: cause %v (%s), want the watch that failed", c.other, r.Cause, r.Reason)
				}
			}
		})
	}
}

// A Python informer's warnings alone name no resource: its 410s and the
// relists that follow each are one informer's.
func TestLibLogWarningsAlone(t *testing.T) {
	in := "2026-12-01 18:14:59,372 WARNING kubernetes.informer.informer: Watch expired (410 Gone); will re-list from scratch\n" +
		"2026-12-01 18:20:04,790 WARNING kubernetes.informer.informer: Watch expired (410 Gone); will re-list from scratch\n"
	b := NewBuilder()
	if err := b.AddReader("app.log", strings.NewReader(in), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	if len(tl.Files) != 1 || tl.Files[0].Library != "python" || len(tl.Relists) != 2 {
		t.Fatalf("%d files, %d relists", len(tl.Files), len(tl.Relists))
	}
	for _, r := range tl.Relists {
		if r.Cause != CauseGone || r.Source != SourceEtcd {
			t.Errorf("relist at %s: cause %v, source %v", FormatTime(r.T, ClockArrival), r.Cause, r.Source)
		}
	}
}

// labClientAudit writes, into a temporary folder, the records of the
// lab's audit logs that are of the given clients (by user agent), each
// log's under its own name, and returns their paths: the clients' own
// requests, as the API servers recorded them.
func labClientAudit(t *testing.T, clients ...string) []string {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	logs, _ := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	out := t.TempDir()
	var paths []string
	for _, p := range logs {
		var keep []string
		for _, line := range strings.Split(string(testsample.Read(t, p)), "\n") {
			for _, c := range clients {
				if strings.Contains(line, `"userAgent":"fleet-`+c+`/1.0"`) {
					keep = append(keep, line)
				}
			}
		}
		if len(keep) == 0 {
			continue
		}
		name := filepath.Join(out, filepath.Base(p))
		if err := os.WriteFile(name, []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, name)
	}
	if len(paths) == 0 {
		t.Fatalf("no audit record of %v", clients)
	}
	return paths
}

// TestLibLogJoins: given with the lab captures its log was written from,
// each informer of a kube-rs, fabric8 or Python log is its capture's
// client, one file joined with the log (fabric8's, whose lines name only
// the path, by its watch URL's selector and the instant its first list
// completed); given with those clients' own audit records, each is its
// audit-log client, named with the log and read as the log's library;
// given both, each is its capture, which holds its audit records. fabric8's secrets informer (shard s01) is
// none of them: it stays a client of its own.
func TestLibLogJoins(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	const c097, c080 = "c097-nobookmarks", "c080-nobookmarks"
	captures := []string{filepath.Join(dir, c097+".ts.http"), filepath.Join(dir, c080+".ts.http")}
	audits := labClientAudit(t, c097, c080)
	for _, c := range []struct {
		log    string
		lib    Library
		joined []string // the clients the log shows
		alone  string   // an informer of the log none of them is
	}{
		{"kubers-watcher.log", LibraryKubeRS, []string{c097, c080}, ""},
		{"kubers-watcher.jsonl", LibraryKubeRS, []string{c097, c080}, ""},
		{"python-informer.log", LibraryPython, []string{c097, c080}, ""},
		{"fabric8-informer.log", LibraryFabric8, []string{c097}, "/api/v1/namespaces/lab/secrets labelSelector=shard=s01"},
	} {
		log := filepath.Join("../parser/testdata", c.log)
		for _, given := range []struct {
			name  string
			paths []string
		}{{"captures", captures}, {"audit", audits}, {"both", append(append([]string{}, captures...), audits...)}} {
			t.Run(c.log+"/"+given.name, func(t *testing.T) {
				b := NewBuilder()
				addFiles(t, b, append(append([]string{}, given.paths...), log)...)
				tl := b.Build()
				joined := map[string]int{}
				alone := 0
				for fi, f := range tl.Files {
					if f.Name == c.log && len(f.Sessions) == 0 {
						continue // the log's own problems
					}
					client := captureStem(f.Name)
					if f.Audit && f.Log == "" {
						client = strings.TrimSuffix(strings.TrimPrefix(f.Client, "fleet-"), "/1.0")
					}
					switch {
					case f.Log == c.log && f.Audit:
						if f.Client != c.alone {
							t.Errorf("%s: a client of the log alone, want only %q", f.Name, c.alone)
						}
						alone++
						continue
					case f.Log == c.log || f.LogJoined == c.log:
						joined[client]++
					}
					want := slices.Contains(c.joined, client)
					if got := tl.FileProfile(fi).Library == c.lib; got != want || (f.Log == c.log) != (want && !f.Audit) || (f.LogJoined == c.log) != (want && f.Audit) {
						t.Errorf("%s: log %q, joined %q, library %v; the log shows %v", f.Name, f.Log, f.LogJoined, tl.FileProfile(fi).Library, c.joined)
					}
				}
				for _, k := range c.joined {
					// Given both, its audit records are its capture's.
					if joined[k] != 1 {
						t.Errorf("%s: %d files joined with the log, want 1", k, joined[k])
					}
				}
				if want := min(len(c.alone), 1); alone != want {
					t.Errorf("%d clients of the log alone, want %d", alone, want)
				}
			})
		}
	}
}

// TestOneClientsRetryIsNoRestart: the Python informers' log shows two
// clients' watches ending together when server b restarted (18:14:59),
// and later one client's watch refused at its own deadline with its
// retry ending at once (18:20:04), which was taken for a second restart
// ("2 watches, 1 file"). A restart ends the watches of clients, not of
// one: only the first is probable.
func TestOneClientsRetryIsNoRestart(t *testing.T) {
	tl, _ := libLogClients(t, "python-informer.log")
	a := tl.Analyze(realServer())
	if len(a.Restarts) != 1 || a.Restarts[0].Files != 2 {
		t.Fatalf("probable restarts %+v, want the one of two clients at 18:14:59", a.Restarts)
	}
	if at := FormatInstant(a.Restarts[0].Ended, nil); !strings.HasPrefix(at, "2026-12-01 18:14:59") {
		t.Errorf("the probable restart at %s, want 18:14:59", at)
	}
}

// TestLogURLsShowNoBookmarksAsked: urllib3's debug lines give the Python
// informers' every watch URL, none with allowWatchBookmarks, so their
// bookmarks are known (none asked, none received) where fabric8's and
// kube-rs' logs, whose watches ask, leave the received ones unseen. The
// fleet says it does not know what bookmarks would have saved (nothing
// shows the head at the reconnects), not that they save 100 %.
func TestLogURLsShowNoBookmarksAsked(t *testing.T) {
	for log, unseen := range map[string]bool{"python-informer.log": false, "fabric8-informer.log": true, "kubers-watcher.log": true} {
		tl, files := libLogClients(t, log)
		for client, fi := range files {
			if got := tl.Files[fi].BookmarksUnseen(); got != unseen {
				t.Errorf("%s: %s's bookmarks unseen %v, want %v", log, client, got, unseen)
			}
		}
		if unseen {
			continue
		}
		a := tl.Analyze(realServer())
		fl := a.Fleet()
		if fl == nil || fl.RelistsObserved == 0 {
			t.Fatalf("%s: no fleet, or no relist in it: the test proves nothing", log)
		}
		for _, c := range fl.Clients {
			if c.Bookmarks || c.BookmarksUnseen {
				t.Errorf("%s: %s's bookmarks %v, unseen %v; its URLs show none asked", log, c.Name, c.Bookmarks, c.BookmarksUnseen)
			}
		}
		if fl.SavingsKnown || fl.SavedPercent != 0 {
			t.Errorf("%s: bookmarks save %.1f %% (known %v) where no reconnect could be judged as if it asked", log, fl.SavedPercent, fl.SavingsKnown)
		}
		if line := summaryTopic(a, "fleet"); !strings.Contains(line, "is not known") || strings.Contains(line, "show neither the bookmarks") {
			t.Errorf("%s: the fleet's summary %q", log, line)
		}
	}
}
