package timeline

import (
	"path/filepath"
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
		{"fabric8-informer.log", "/api/v1/namespaces/lab/configmaps", "/api/v1/namespaces/lab/secrets", 2, 1, time.Second},
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

// With the lab captures its log was written from, each kube-rs informer
// is its capture's client: one file, joined with the log.
func TestLibLogJoinsCaptures(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	b := NewBuilder()
	addFiles(t, b, filepath.Join(dir, "c097-nobookmarks.ts.http"), filepath.Join(dir, "c080-nobookmarks.ts.http"),
		filepath.Join("../parser/testdata", "kubers-watcher.log"))
	tl := b.Build()
	if len(tl.Files) != 2 {
		t.Fatalf("%d files, want the 2 captures", len(tl.Files))
	}
	for fi, f := range tl.Files {
		if f.Log != "kubers-watcher.log" || f.Audit || f.Events == 0 || tl.FileProfile(fi).Library != LibraryKubeRS {
			t.Errorf("%s: log %q, audit %v, %d events, library %v", f.Name, f.Log, f.Audit, f.Events, tl.FileProfile(fi).Library)
		}
	}
}
