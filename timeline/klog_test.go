package timeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// klogRecordingClients builds a recording's fleet-klog.log alone and
// returns the analysis and each client's file by its name in the log.
func klogRecordingClients(t *testing.T, name string) (*Analysis, map[string]int, testsample.Truth) {
	t.Helper()
	dir := testsample.Recording(t, name)
	tl := buildFiles(t, dir, "fleet-klog.log")
	files := map[string]int{}
	for fi, f := range tl.Files {
		if f.Log != "fleet-klog.log" || !f.Audit || f.Events != 0 {
			t.Fatalf("file %q: log %q, audit %v, %d events", f.Name, f.Log, f.Audit, f.Events)
		}
		files[f.Client] = fi
	}
	return tl.Analyze(realServer()), files, testsample.ReadTruth(t, dir)
}

// TestKlogRecordingsAlone: from each fleet's client-go log alone, every
// client is a file whose relists and 410s are its TRUTH.tsv's, the
// relists at the instants its capture shows, each caused by its 410;
// and the fleet counts them.
func TestKlogRecordingsAlone(t *testing.T) {
	for _, name := range []string{"samples-lab", "samples-outage", "samples-watchlist"} {
		t.Run(name, func(t *testing.T) {
			a, files, truth := klogRecordingClients(t, name)
			tl := a.TL
			// A client log shows no bookmarks: nothing may say what the
			// clients asked for or got.
			for _, l := range a.Summary(nil) {
				if strings.Contains(l.Text, "got none") || strings.Contains(l.Text, "bookmarks received") || strings.Contains(l.Text, "asked for bookmarks and got") {
					t.Errorf("the summary of a client log speaks of bookmarks it cannot show: %s", l.Text)
				}
			}
			if len(files) != len(truth) {
				t.Errorf("%d clients in the log, %d in TRUTH.tsv", len(files), len(truth))
			}
			relists := map[int][]Relist{}
			for _, r := range tl.Relists {
				relists[r.File] = append(relists[r.File], r)
			}
			total := 0
			var worst, worstGone time.Duration
			for client, row := range truth {
				fi, ok := files[client]
				if !ok {
					t.Errorf("%s: no file", client)
					continue
				}
				gone := 0
				for _, g := range tl.Files[fi].Sessions {
					if s := &tl.Sessions[g]; s.Error != nil && s.Error.Code == 410 {
						gone++
					}
				}
				if want := truth.Int(t, client, "errors410"); gone != want {
					t.Errorf("%s: %d 410s, TRUTH.tsv says %d", client, gone, want)
				}
				rs := relists[fi]
				total += len(rs)
				if want := truth.Int(t, client, "relists"); len(rs) != want {
					t.Errorf("%s: %d relists, TRUTH.tsv says %d", client, len(rs), want)
					continue
				}
				times, goneTimes := splitTimes(row["relist_times"]), splitTimes(row["error410_times"])
				for k, r := range rs {
					if r.Cause != CauseGone {
						t.Errorf("%s relist %d: cause %v (%s), want the 410 before it", client, k, r.Cause, r.Reason)
						continue
					}
					// The reflector logs the 410 as it reads it, and
					// "Listing and watching" before it sends the relist,
					// which its rate limiter and a slow TLS handshake can
					// hold back by seconds (samples-outage).
					d := time.Duration(r.CauseT - instant(t, goneTimes[k]))
					worstGone = max(worstGone, d, -d)
					if d < 0 || d > 50*time.Millisecond {
						t.Errorf("%s relist %d: its 410 at %s, TRUTH.tsv says %s", client, k, FormatTime(r.CauseT, ClockArrival), goneTimes[k])
					}
					lag := time.Duration(instant(t, times[k]) - r.T)
					worst = max(worst, lag)
					if r.T < r.CauseT || lag < 0 {
						t.Errorf("%s relist %d at %s: not between its 410 (%s) and its request (%s)", client, k, FormatTime(r.T, ClockArrival), goneTimes[k], times[k])
					}
				}
			}
			fl := a.Fleet()
			if fl == nil || fl.RelistsObserved != total || len(fl.Clients) != len(truth) {
				t.Fatalf("fleet %v: want %d clients and %d relists", fl != nil, len(truth), total)
			}
			t.Logf("%d relists, each at most %s before its request; the 410s at most %s off", total, worst, worstGone)
		})
	}
}

func splitTimes(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// TestKlogRecordingsRequests: each client's sessions from its log are
// the requests its capture holds: its LISTs and watches (samples-lab);
// its WatchList requests, those whose list completed and those that
// never did, and the repeats of those (samples-watchlist, samples-outage);
// and its watches. In samples-outage client-go's request retries ("Got a
// Retry-After response", 31) name no client and are the only requests
// missing.
func TestKlogRecordingsRequests(t *testing.T) {
	for _, name := range []string{"samples-lab", "samples-watchlist", "samples-outage"} {
		t.Run(name, func(t *testing.T) {
			a, files, truth := klogRecordingClients(t, name)
			tl := a.TL
			retries := map[int]int{}
			for _, w := range tl.WatchLists {
				if w.Retry {
					retries[w.File]++
				}
			}
			missing := 0
			for client, fi := range files {
				lists, watches, watchLists, synced := 0, 0, 0, 0
				for _, g := range tl.Files[fi].Sessions {
					switch s := &tl.Sessions[g]; {
					case !s.Request.Watch:
						lists++
					case s.IsWatchList():
						watchLists++
						if s.InitialEventsEnd != 0 {
							synced++
						}
					default:
						watches++
					}
				}
				want, got := truth.Int(t, client, "lists")+truth.Int(t, client, "watches"), lists+watches+watchLists
				switch {
				case name == "samples-outage" && got <= want:
					missing += want - got
				case got != want:
					t.Errorf("%s: %d requests (%d lists, %d watches, %d WatchLists), TRUTH.tsv says %d", client, got, lists, watches, watchLists, want)
				}
				if _, ok := truth[client]["watchlists"]; !ok {
					continue
				}
				if w, s, r := truth.Int(t, client, "watchlists"), truth.Int(t, client, "watchlist_synced"), truth.Int(t, client, "watchlist_retries"); watchLists != w || synced != s || retries[fi] != r {
					t.Errorf("%s: %d WatchLists, %d synced, %d repeats; TRUTH.tsv says %d, %d, %d", client, watchLists, synced, retries[fi], w, s, r)
				}
			}
			neverSynced := 0
			for client := range truth {
				if _, ok := truth[client]["watchlists"]; ok && truth.Int(t, client, "watchlists") > 0 && truth.Int(t, client, "watchlist_synced") == 0 {
					neverSynced++
				}
			}
			if got := len(tl.UnsyncedClients()); got != neverSynced {
				t.Errorf("%d clients never synced, TRUTH.tsv says %d", got, neverSynced)
			}
			raw := testsample.Read(t, filepath.Join(testsample.Recording(t, name), "fleet-klog.log"))
			if retries := bytes.Count(raw, []byte(`"Got a Retry-After response"`)); missing != retries {
				t.Errorf("%d requests missing, the log has %d retries that name no client", missing, retries)
			}
		})
	}
}

// TestKlogJoinsCaptures: given with its clients' captures, the log's
// clients are the captures' clients, one each, not a second file; the
// relists are the captures' own (TRUTH.tsv's).
func TestKlogJoinsCaptures(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	truth := testsample.ReadTruth(t, dir)
	names, _ := filepath.Glob(filepath.Join(dir, "*.ts.http"))
	for k := range names {
		names[k] = filepath.Base(names[k])
	}
	// The log first: joining waits for Build, whatever the order.
	tl := buildFiles(t, dir, append([]string{"fleet-klog.log"}, names...)...)
	if len(tl.Files) != len(truth) || len(names) != len(truth) {
		t.Fatalf("%d files from %d captures and the log, TRUTH.tsv has %d clients", len(tl.Files), len(names), len(truth))
	}
	relists := map[int]int{}
	for _, r := range tl.Relists {
		relists[r.File]++
	}
	for fi, f := range tl.Files {
		client := captureStem(f.Name)
		if f.Audit || f.Log != "fleet-klog.log" || f.Events == 0 {
			t.Errorf("%s: audit %v, log %q, %d events: not the capture joined with its log", f.Name, f.Audit, f.Log, f.Events)
		}
		if want := truth.Int(t, client, "relists"); relists[fi] != want {
			t.Errorf("%s: %d relists, TRUTH.tsv says %d", client, relists[fi], want)
		}
	}
	// A capture named after a client of the log but recorded at another
	// time (the outage's c038-bookmarks, 55 minutes later) is another
	// client.
	b := NewBuilder()
	for _, p := range []string{filepath.Join(dir, "fleet-klog.log"), filepath.Join(testsample.Recording(t, "samples-outage"), "c038-bookmarks.ts.http")} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(p, f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	tl = b.Build()
	if len(tl.Files) != len(truth)+1 || tl.Files[0].Log != "" || tl.Files[0].Events == 0 {
		t.Errorf("%d files (want the %d clients of the log and the capture), the capture's log %q", len(tl.Files), len(truth), tl.Files[0].Log)
	}
}

// TestKlogYearAndDiagnostics: a log whose lines name no year is read in
// the year of the capture given with it, and says so; its bad lines are
// diagnosed on its first client's file; its printf lines of older
// client-go make the same sessions: a 410 and the relist after it.
func TestKlogYearAndDiagnostics(t *testing.T) {
	legacy := testsample.Read(t, filepath.Join("..", "parser", "testdata", "klog-legacy.log"))
	capture := `2019-12-01T18:09:30.000000000Z {"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a","namespace":"n","resourceVersion":"5","uid":"u"}}}` + "\n"
	b := NewBuilder()
	if err := b.AddReader("legacy.log", bytes.NewReader(legacy), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddReader("pods.ts.jsonl", strings.NewReader(capture), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	byName := map[string]*File{}
	for k := range tl.Files {
		byName[tl.Files[k].Name] = &tl.Files[k]
	}
	pods := byName["k8s.io/client-go/informers/factory.go:134 *v1.Pod (legacy.log)"]
	if pods == nil || len(tl.Files) != 4 {
		t.Fatalf("files %v", byName)
	}
	var kinds []string
	for _, d := range pods.Diagnostics {
		kinds = append(kinds, string(d.Kind))
	}
	if strings.Join(kinds, ",") != "no-year,not-klog,bad-header" || !strings.Contains(pods.Diagnostics[0].Msg, "read in 2019, the year of the other files") {
		t.Errorf("diagnostics %v", pods.Diagnostics)
	}
	if got := time.Unix(0, pods.Start).UTC().Format(time.RFC3339Nano); got != "2019-12-01T18:09:28.95011Z" {
		t.Errorf("the first list at %s", got)
	}
	if svc := byName["k8s.io/client-go/informers/factory.go:134 *v1.Service (legacy.log)"]; svc == nil || time.Unix(0, svc.End).UTC().Year() != 2020 {
		t.Errorf("the Service client's sync after midnight of 31 December is not in 2020: %+v", svc)
	}
	var relists []Relist
	for _, r := range tl.Relists {
		if &tl.Files[r.File] == pods {
			relists = append(relists, r)
		}
	}
	if len(relists) != 1 || relists[0].Cause != CauseGone || relists[0].RV != "329" {
		t.Errorf("relists %+v: want one, at the 410's RV 329", relists)
	}
}

// TestKlogOutage: from samples-outage's client log alone, the load
// balancer's outage (lb-conns.tsv's outage-start and outage-end) is one
// stretch when no request reached a server, from the clients' first
// failed watches to the first answer after them, its attempts the log's
// failed watches, by every client, and every stream cut at its start.
func TestKlogOutage(t *testing.T) {
	dir := testsample.Recording(t, "samples-outage")
	var from, to int64
	for _, ln := range strings.Split(string(testsample.Read(t, filepath.Join(dir, "lb-conns.tsv"))), "\n") {
		c := strings.Split(ln, "\t")
		switch {
		case len(c) > 1 && c[1] == "outage-start":
			from = instant(t, c[0])
		case len(c) > 1 && c[1] == "outage-end":
			to = instant(t, c[0])
		}
	}
	a, files, _ := klogRecordingClients(t, "samples-outage")
	outs := a.TL.Outages()
	if from == 0 || to == 0 || len(outs) != 1 {
		t.Fatalf("outage %d..%d in lb-conns.tsv, %d from the log: %+v", from, to, len(outs), outs)
	}
	o := outs[0]
	if d := o.From - from; d < 0 || d > int64(time.Second) {
		t.Errorf("the outage begins %s after the load balancer's", time.Duration(d))
	}
	if d := o.To - to; d < 0 || d > int64(time.Second) {
		t.Errorf("the clients came back at %s, the load balancer at %s", FormatTime(o.To, ClockArrival), FormatTime(to, ClockArrival))
	}
	raw := testsample.Read(t, filepath.Join(dir, "fleet-klog.log"))
	if failed := bytes.Count(raw, []byte(`"Watch failed - backing off"`)); o.Attempts != failed || o.Clients != len(files) {
		t.Errorf("%d attempts by %d clients, the log has %d failed watches by %d clients", o.Attempts, o.Clients, failed, len(files))
	}
	// The load balancer cut every stream: each broke off (its client
	// logged an unexpected EOF), none ended cleanly.
	cut, clean := 0, 0
	for _, s := range a.TL.Sessions {
		if s.End >= from && s.End < from+int64(time.Second) && !s.Unanswered() {
			if s.Truncated {
				cut++
			} else {
				clean++
			}
		}
	}
	if eofs := bytes.Count(raw, []byte(`"Unexpected EOF during watch stream event decoding"`)); cut != eofs || clean != 0 {
		t.Errorf("%d streams cut and %d ended cleanly at the outage's start; the log has %d unexpected EOFs", cut, clean, eofs)
	}
}

// TestKlogJSON: controller-runtime's JSON log (zap, from client-go's
// reflector through logr) makes the same sessions as klog text: its
// client is its reflector and type, its 410 ends a watch and the list
// after it is a relist at the 410's RV, from the watch cache.
func TestKlogJSON(t *testing.T) {
	tl := buildFiles(t, filepath.Join("..", "parser", "testdata"), "klog-controller-runtime.jsonl")
	if len(tl.Files) != 1 {
		t.Fatalf("%d files", len(tl.Files))
	}
	f := &tl.Files[0]
	if f.Client != "pkg/mod/sigs.k8s.io/controller-runtime@v0.22.1/pkg/cache/internal/informers.go:106 *v1.ConfigMap" || f.Kind != "ConfigMap" {
		t.Errorf("client %q, kind %q", f.Client, f.Kind)
	}
	var kinds []string
	for _, g := range f.Sessions {
		s := &tl.Sessions[g]
		k := "watch"
		if !s.Request.Watch {
			k = "list@" + s.Request.ResourceVersion
		}
		if s.Error != nil {
			k += fmt.Sprintf("+%d", s.Error.Code)
		}
		kinds = append(kinds, k)
	}
	// The first LIST at RV 0, its watch, the watch that resumed (its end
	// logged as "Watch close"), refused with 410; the relist at its RV, and
	// the watch after it, ended by another error.
	if got := strings.Join(kinds, " "); got != "list@0 watch watch+410 list@329 watch+0" {
		t.Errorf("sessions %s", got)
	}
	if len(tl.Relists) != 1 || tl.Relists[0].Cause != CauseGone || tl.Relists[0].RV != "329" || tl.Relists[0].Source != SourceCache {
		t.Errorf("relists %+v", tl.Relists)
	}
}
