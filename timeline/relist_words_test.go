package timeline

import (
	"bufio"
	"bytes"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// recordedRelist is what a capture's own lines say a client did after a
// 410: the request line after it, and the resourceVersion of the watch
// that followed a LIST (client-go watches from the list's own RV).
type recordedRelist struct {
	watchList bool
	rv        string // the resourceVersion the request asked for
	listRV    string // a LIST's returned RV, "" for a WatchList
}

// recordedRelists reads a capture's lines: each "too old resource
// version" (a JSON ERROR event or a protobuf Status frame) and the
// request line after it.
func recordedRelists(t *testing.T, path string) []recordedRelist {
	t.Helper()
	var out []recordedRelist
	gone := false // a 410 waits for its relist's request
	sc := bufio.NewScanner(bytes.NewReader(testsample.Read(t, path)))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		ln := sc.Text()
		if strings.Contains(ln, "too old resource version") {
			gone = true
			continue
		}
		f := strings.Fields(ln)
		if len(f) < 3 || f[1] != "GET" {
			continue
		}
		u, err := url.Parse(f[2])
		if err != nil {
			t.Fatalf("%s: request line %q: %v", path, ln, err)
		}
		q := u.Query()
		if k := len(out) - 1; k >= 0 && !out[k].watchList && out[k].listRV == "" && q.Get("watch") == "true" {
			out[k].listRV = q.Get("resourceVersion")
		}
		if gone {
			out = append(out, recordedRelist{watchList: q.Get("watch") == "true" && q.Get("sendInitialEvents") == "true", rv: q.Get("resourceVersion")})
			gone = false
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// TestRelistWordsMatchRecording: for every client with a 410 in
// samples-lab, samples-outage and samples-watchlist, what the verdict
// says it did after the 410 is what its capture recorded: the request
// after the 410 is its relist, of that kind, at the RV that request
// asked for (the expired cursor), from the watch cache; a LIST's
// returned RV is the one its next watch starts from. As many 410s as
// TRUTH.tsv's errors410, each followed by one relist; a client-go
// client's sentence says client-go does so.
func TestRelistWordsMatchRecording(t *testing.T) {
	for _, rec := range []struct {
		name  string
		gones int // TRUTH.tsv's errors410 over the clients
	}{{"samples-lab", 81}, {"samples-outage", 74}, {"samples-watchlist", 0}} {
		t.Run(rec.name, func(t *testing.T) {
			dir := testsample.Recording(t, rec.name)
			truth := testsample.ReadTruth(t, dir)
			tl := buildRecording(t, rec.name, "*.ts.http")
			a := tl.Analyze(realServer())
			s := &summarizer{a: a}
			byFile := map[int][]Relist{}
			for _, rl := range tl.Relists {
				if rl.Cause == CauseGone {
					byFile[rl.File] = append(byFile[rl.File], rl)
				}
			}
			gones, clientGo := 0, 0
			for fi, f := range tl.Files {
				client := strings.TrimSuffix(f.Name, ".ts.http")
				want := recordedRelists(t, filepath.Join(dir, f.Name))
				if n := truth.Int(t, client, "errors410"); len(want) != n {
					t.Errorf("%s: the capture has %d 410s, TRUTH.tsv %d", client, len(want), n)
				}
				gones += len(want)
				got := byFile[fi]
				if len(got) != len(want) {
					t.Errorf("%s: %d relists after a 410, the capture %d", client, len(got), len(want))
					continue
				}
				p := tl.FileProfile(fi)
				for k, w := range want {
					rl := got[k]
					words := "a LIST at RV " + w.rv + ", the expired cursor, served from the watch cache; it returned RV " + w.listRV
					kind := RelistList
					if w.watchList {
						words, kind = "a WatchList at RV "+w.rv+", the expired cursor, served from the watch cache", RelistWatchList
					}
					if rl.Kind != kind || !rl.Asked || rl.AskedRV != w.rv || rl.Source != SourceCache || !w.watchList && rl.RV != w.listRV {
						t.Errorf("%s: relist %d is %v at RV %q (asked %v) from %v, returning %q; the capture: %+v", client, k, rl.Kind, rl.AskedRV, rl.Asked, rl.Source, rl.RV, w)
					}
					if got := tl.RelistWords(rl); got != words {
						t.Errorf("%s: relist %d is said %q, want %q", client, k, got, words)
					}
					// The verdict names the reconnect's instant; the
					// relist's delay counts from it.
					start := tl.Sessions[rl.CauseSession].Start
					after := s.afterGone(rl.CauseSession, start)
					if !strings.HasPrefix(after, ". "+FormatDuration(rl.T-start)+" later") || !strings.Contains(after, " it relisted ("+words+")") {
						t.Errorf("%s: after its 410 %d the verdict says %q, want the relist %q %s after the reconnect", client, k, after, words, FormatDuration(rl.T-start))
					}
					if p.Library == LibraryClientGo {
						clientGo++
						if !strings.Contains(after, ", as "+p.Words()+" does") {
							t.Errorf("%s: after its 410 %d the verdict says %q, without client-go's doing so", client, k, after)
						}
					}
				}
			}
			if gones != rec.gones {
				t.Errorf("%d 410s in the captures, want %d", gones, rec.gones)
			}
			// samples-outage's 20 clients with client-go's default
			// User-Agent, 15 of which got the 410.
			if rec.name == "samples-outage" && clientGo == 0 {
				t.Errorf("no client recognised as client-go relisted after a 410")
			}
		})
	}
}

// TestSummaryNamesRelistRV: c091's verdict alone names the RV its relist
// asked for (the expired cursor, 987, as its capture's LIST line after
// the 410 asks) apart from the one the list returned (1673, the RV of
// its next watch), and that this is what client-go does, which its
// watches' timeout parameter names. Its relist came 3 s after the
// reconnect the verdict names, 1.5 s after the 410, which the server
// sent later.
func TestSummaryNamesRelistRV(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "c091-nobookmarks.ts.http")
	var observed string
	for _, l := range tl.Analyze(realServer()).Summary(nil) {
		if l.Topic == "observed" {
			observed = l.Text
		}
	}
	const want = "3s later, 1.5s after the 410 arrived, it relisted (a LIST at RV 987, the expired cursor, served from the watch cache; it returned RV 1673), as client-go does."
	if !strings.Contains(observed, want) {
		t.Errorf("c091's verdict %q, want %q", observed, want)
	}
}
