package timeline

import (
	"fmt"
	"strings"
	"testing"
)

// resumeAtLine is the summary's line for a reconnect of every client at
// at.
func resumeAtLine(a *Analysis, at int64) string {
	for _, l := range a.Summary([]ResumeQuery{{At: at}}) {
		if l.Topic == "resume-at" {
			return l.Text
		}
	}
	return ""
}

// TestUnsyncedWatchListHasNoCursor: samples-watchlist's 48 clients that
// never synced sent every WatchList without a resourceVersion (TRUTH.tsv:
// no 410, no relist): with nothing to resume from, their reconnect at
// 18:52:18 lists everything again and cannot be refused with a 410. The
// page called it "refused (410 Gone)" without bookmarks, from a cursor
// made of the initial events client-go never keeps, and the summary
// said 61 refused.
func TestUnsyncedWatchListHasNoCursor(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "*.ts.http").Analyze(realServer())
	at := instant(t, "2026-12-01T18:52:18Z")
	fl := a.Fleet()
	never := 0
	for k := range fl.Clients {
		c := &fl.Clients[k]
		if !c.NeverSynced {
			continue
		}
		never++
		for _, v := range a.ResumeAt(c.File, at) {
			if v.Kind != HadBookmarks && (v.HasCursor || v.Outcome != Unknown) {
				t.Errorf("%s %s: cursor %v, %s: %s", c.Name, v.Kind, v.HasCursor, v.Outcome, v.Reason)
			}
		}
	}
	fc, _ := a.FleetReconnect(ResumeQuery{At: at})
	if never != 48 || fc.Without.NoCursor != never || fc.Without.Refused+fc.Without.AtRisk+fc.Without.Accepted != len(fl.Clients)-never {
		t.Errorf("%d clients never synced; without bookmarks %+v, want each of them with no cursor and the others judged", never, fc.Without)
	}
	if line := resumeAtLine(a, at); !strings.Contains(line, "(48 not judged: they had no cursor to resume from, a WatchList that never synced") ||
		!strings.Contains(line, "never refused with a 410") {
		t.Errorf("the summary says %q, want the 48 not judged for having no cursor", line)
	}
}

// TestReconnectBeforeRecordingsAndWhileRestarting: a reconnect asked
// before samples-fleet's recordings begin is not judged for that reason,
// not for a head nothing shows; and at 18:13:28.998 in samples-lab,
// while server a restarts, the summary's count per server leaves a out
// (it answers no reconnect then) rather than saying it refuses none.
func TestReconnectBeforeRecordingsAndWhileRestarting(t *testing.T) {
	fleet := buildRecording(t, "samples-fleet", "*.ts.http").Analyze(realServer())
	if line := resumeAtLine(fleet, instant(t, "2026-12-01T08:30:00Z")); !strings.Contains(line, "none of the 44 clients could be judged, with bookmarks or without (before their recordings begin)") ||
		strings.Contains(line, "head") || strings.Contains(line, "no server would refuse") {
		t.Errorf("before the recordings, the summary says %q", line)
	}
	lab := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	line := resumeAtLine(lab, instant(t, "2026-12-01T18:13:28.998Z"))
	if !strings.Contains(line, "b 82, c 82 (a restarting, answers no reconnect then)") || strings.Contains(line, "a would refuse none") || strings.Contains(line, "the answer depends on the API server reached") {
		t.Errorf("while a restarts, the summary says %q", line)
	}
}

// TestReconnectAfterRecordingsEnd: at 01:00 three of samples-real's 13
// clients' recordings have ended. The fleet's line counts the refused
// among the clients it judges, the others apart; the line of the client
// whose bookmarks it tells, whose recording ended before the instant,
// says that its cursor is taken as it was left.
func TestReconnectAfterRecordingsEnd(t *testing.T) {
	a := buildRecording(t, "samples-real", "*.http*", "*.curl", "*.jsonl").Analyze(DefaultParams())
	at := instant(t, "2026-11-30T01:00:00Z")
	fc, _ := a.FleetReconnect(ResumeQuery{At: at})
	n := len(a.Fleet().Clients)
	if fc.Without.Refused == 0 || fc.Without.AfterRecording == 0 || fc.Without.AtRisk != 0 {
		t.Fatalf("at 01:00 without bookmarks %+v: the line's refused and unjudged clause is not exercised", fc.Without)
	}
	want := fmt.Sprintf("without bookmarks, %d of the %d clients judged would have been refused (410 Gone: a full relist each; %d not judged: their recordings had ended",
		fc.Without.Refused, n-fc.Without.Unknown, fc.Without.Unknown)
	if line := resumeAtLine(a, at); !strings.Contains(line, want) {
		t.Errorf("the summary says %q, want %q", line, want)
	}
	late := instant(t, "2026-11-30T01:10:00Z")
	line := ""
	for _, l := range a.Summary([]ResumeQuery{{At: late}}) {
		if l.Topic == "bookmarks" {
			line = l.Text
		}
	}
	if !strings.Contains(line, "at a reconnect at 2026-11-30 01:10:00.000 UTC (after its recording ended at ") || !strings.Contains(line, "taking its cursor as it was left)") {
		t.Errorf("the bookmarks line says %q, want the recording's end", line)
	}
}

// TestReconnectAfterEveryServerExited: samples-fleet's two API servers
// were told to stop at 08:49:55.345 and 08:49:57.446 (timeline.txt),
// after the clients' recordings ended. The summary's restart line says
// so, from their audit logs. A reconnect at 08:50:30 finds no server:
// the fleet's line says so, as each client's own answer does, rather
// than that the recordings had ended, and says it once for both sides.
func TestReconnectAfterEveryServerExited(t *testing.T) {
	a := buildRecording(t, "samples-fleet", "*.ts.http", "audit-*.log").Analyze(realServer())
	at := instant(t, "2026-12-01T08:50:30Z")
	fc, _ := a.FleetReconnect(ResumeQuery{At: at})
	n := len(a.Fleet().Clients)
	if fc.Without.NoServer != n || fc.With.NoServer != n {
		t.Errorf("at 08:50:30, without bookmarks %+v, with %+v: want all %d clients without a server to answer", fc.Without, fc.With, n)
	}
	captures := 0
	for _, v := range a.ResumeAnswers([]ResumeQuery{{At: at}}) {
		if name := a.TL.Files[v.File].Name; strings.HasSuffix(name, ".ts.http") {
			captures++
			if !strings.Contains(v.Reason, "no API server took new requests") {
				t.Errorf("%s at 08:50:30: %s (%s), want not answered", name, v.Outcome, v.Reason)
				break
			}
		}
	}
	if captures < n {
		t.Errorf("%d answers of captures at 08:50:30, want one at least for each of the %d clients", captures, n)
	}
	restart := ""
	for _, l := range a.Summary(nil) {
		if l.Topic == "restart" {
			restart = l.Text
		}
	}
	if want := "Then every API server stopped taking requests, none back within the records: a at 2026-12-01 08:49:55.389 UTC and b at 2026-12-01 08:49:57.468 UTC, as their audit logs show"; !strings.Contains(restart, want) ||
		!strings.Contains(restart, "a reconnect from 2026-12-01 08:49:57.468 UTC on finds no server to answer.") {
		t.Errorf("the restart line says %q, want %q and when none answers", restart, want)
	}
	line := resumeAtLine(a, at)
	if want := "none of the 44 clients could be judged, with bookmarks or without (no API server took new requests then"; !strings.Contains(line, want) ||
		strings.Contains(line, "recordings had ended") {
		t.Errorf("the summary says %q, want %q", line, want)
	}
}
