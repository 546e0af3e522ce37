package engine

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"watchlens/report"
	"watchlens/timeline"
)

// TestReconnectAtIsTheReports: what the engine answers of a reconnect at
// an instant is what `watchlens analyze --resume-at` reports for it (the
// report's JSON): each file's and cursor's outcome, RV and reason, each
// server's, the server the file's connection goes to, the fleet's counts
// and the summary's words; the worst files come first (by the cursor as
// each ran, then by the worst of its what-ifs'), and the answer
// crosses a message unchanged, with the shared clock's ends. On two samples, and on the fleet recording
// with its audit logs (two API servers, one restarting).
func TestReconnectAtIsTheReports(t *testing.T) {
	for _, tc := range []struct {
		name    string
		open    func(t *testing.T) (*Engine, Opened)
		at      time.Time
		servers bool
	}{
		{"two samples", func(t *testing.T) (*Engine, Opened) {
			return sampleEngine(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
		}, time.Date(2026, 11, 30, 1, 4, 25, 0, time.UTC), false},
		{"the fleet with its audit logs", func(t *testing.T) (*Engine, Opened) {
			return recordingEngine(t, "samples-fleet", "*.ts.http", "audit-*.log")
		}, time.Date(2026, 12, 1, 8, 43, 0, 0, time.UTC), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := tc.open(t)
			at := tc.at.UnixNano()
			pauses := 0
			got := e.ReconnectAt(at, func() { pauses++ })
			if got.At != at || pauses <= len(got.Files) {
				t.Errorf("answered for %d with %d pauses over %d files", got.At, pauses, len(got.Files))
			}
			// The API servers' own informers, which the audit logs show,
			// reconnect to no other server: no answer is theirs.
			own := 0
			for _, f := range e.tl.Files {
				if f.Loopback {
					own++
				}
			}
			if tc.servers && own == 0 {
				t.Fatalf("the audit logs show no API server's own informer: the test proves nothing of them")
			}
			for _, f := range got.Files {
				if e.tl.Files[f.File].Loopback {
					t.Errorf("%s, an API server's own informer, is answered", f.Name)
				}
			}
			// The shared clock, which the panel says an instant off it is.
			if got.Start != e.tl.Start() || got.End != e.tl.End() || got.Start >= got.End {
				t.Errorf("answered on a clock %d-%d; the timeline's is %d-%d", got.Start, got.End, e.tl.Start(), e.tl.End())
			}
			r := report.New(e.Analysis(), []timeline.ResumeQuery{{At: at}})
			var cells, want []string
			ranks := []int{}
			perServer := 0
			for _, f := range got.Files {
				// The cursor as it ran first, then the worst of the others,
				// as one number ordered as the pair.
				rank, own := 3, 3
				servers := map[string]bool{}
				for _, c := range f.Cursors {
					rv := ""
					if c.HasCursor {
						rv = timeline.FormatRV(c.RV)
					}
					cells = append(cells, fmt.Sprintf("%s|%s|%s|%s|%s|%v", f.Name, c.Kind, c.Outcome, rv, c.Reason, c.PerServer))
					rank = min(rank, outcomeRank(c.Outcome))
					if c.Kind == timeline.BookmarkAware {
						own = outcomeRank(c.Outcome)
					}
					perServer += len(c.PerServer)
					if c.Words == "" || (len(c.PerServer) > 0) != (c.ServerWords != "") {
						t.Errorf("%s %s: words %q, servers' words %q", f.Name, c.Kind, c.Words, c.ServerWords)
					}
				}
				ranks = append(ranks, 10*own+rank)
				for _, rr := range r.ResumeAt {
					if rr.File == f.Name {
						servers[rr.Server] = true
					}
				}
				if !servers[f.Server] {
					t.Errorf("%s: its connection goes to %q, the report's cursors to %v", f.Name, f.Server, servers)
				}
			}
			for _, rr := range r.ResumeAt {
				var per []ServerAnswer
				for _, sv := range rr.PerServer {
					per = append(per, ServerAnswer{Server: sv.Server, Outcome: sv.Outcome, Reason: sv.Reason})
				}
				want = append(want, fmt.Sprintf("%s|%s|%s|%s|%s|%v", rr.File, rr.Cursor, rr.Outcome, rr.RV, rr.Reason, per))
			}
			slices.Sort(cells)
			slices.Sort(want)
			if !slices.Equal(cells, want) || len(cells) == 0 {
				t.Errorf("the engine answers\n%v\nthe report\n%v", cells, want)
			}
			if !slices.IsSorted(ranks) {
				t.Errorf("the files are not the worst first: %v", ranks)
			}
			if tc.servers != (perServer > 0) {
				t.Errorf("%d answers of a server, want some: %v", perServer, tc.servers)
			}
			var words []timeline.SummaryLine
			for _, l := range r.Summary {
				if l.Topic == "resume-at" {
					words = append(words, l)
				}
			}
			if !slices.Equal(got.Words, words) || len(words) == 0 {
				t.Errorf("the words %v, the report's %v", got.Words, words)
			}
			if got.Fleet == nil || r.Fleet == nil || len(r.Fleet.ReconnectAt) != 1 ||
				report.OutcomeReport(got.Fleet.With) != r.Fleet.ReconnectAt[0].With || report.OutcomeReport(got.Fleet.Without) != r.Fleet.ReconnectAt[0].Without {
				t.Errorf("the fleet's counts %+v, the report's %+v", got.Fleet, r.Fleet)
			}
			roundTrip(t, "ReconnectAt", got)
		})
	}
}

// TestReconnectOfClientLogsIsOneAnswer: every client read from the lab's
// klog hides its bookmarks, so Reconnect at gives one row, the cursor
// each log shows; the fleet's captures, two.
func TestReconnectOfClientLogsIsOneAnswer(t *testing.T) {
	for _, c := range []struct {
		recording, pattern string
		one                bool
	}{{"samples-lab", "fleet-klog.log", true}, {"samples-fleet", "*.ts.http", false}} {
		e, _ := recordingEngine(t, c.recording, c.pattern)
		ans := e.ReconnectAt((e.tl.Start()+e.tl.End())/2, nil)
		if ans.Fleet == nil || ans.OneAnswer != c.one {
			t.Errorf("%s: fleet %v, one answer %v, want %v", c.pattern, ans.Fleet != nil, ans.OneAnswer, c.one)
		}
	}
}

// TestReconnectAtListsTheRecords: samples-lab's whole folder listed its
// notes and tables among the files a reconnect answers for ("the first
// 300 of 447 files", its conns tables' rows "not judged"), and the
// captures past the 300th were not shown (the UI review of the page).
func TestReconnectAtListsTheRecords(t *testing.T) {
	e, _ := recordingEngine(t, "samples-lab", "README.md", "TRUTH.tsv", "c000-bookmarks.ts.http", "c080-nobookmarks.ts.http")
	if len(e.tl.Files) != 4 {
		t.Fatalf("%d files opened, want 4", len(e.tl.Files))
	}
	got := e.ReconnectAt(time.Date(2026, 12, 1, 18, 14, 58, 0, time.UTC).UnixNano(), nil)
	var names []string
	for _, f := range got.Files {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if fmt.Sprint(names) != "[c000-bookmarks.ts.http c080-nobookmarks.ts.http]" {
		t.Errorf("a reconnect answers for %v, want the two captures", names)
	}
}
