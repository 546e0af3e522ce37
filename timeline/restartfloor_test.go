package timeline

import (
	"strings"
	"testing"
)

// TestNewProcessListFromItsFirst410: samples-lab's server a ended its
// first process with the head at RV 1181 and listed at 1183 as its new
// process started (its first 410, at 18:14:58, names 1183, and the
// watches of every ConfigMap and Secret saw no change at 1184); b's new
// process listed at 1670. At 18:13:34, a moment after a's new process
// began serving, the bookmarked cursors of 128 clients are below 1183
// (the lab's truth): a refuses each of them, where the head at the old
// process's end put only 61 below it. samples-fleet's a names 1425 in
// its first 410, but a ConfigMap changed at 1426: its cache had evicted
// since its list, so nothing is known of that list.
func TestNewProcessListFromItsFirst410(t *testing.T) {
	a := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log").Analyze(realServer())
	tl := a.TL
	server := map[string]int{}
	for k, s := range tl.Servers {
		server[s.Name] = k
	}
	for _, c := range []struct {
		kind, server string
		list         uint64
	}{{"ConfigMap", "a", 1183}, {"Secret", "a", 1183}, {"ConfigMap", "b", 1670}} {
		h, _ := tl.Head(tl.Servers[server[c.server]].Incarnations[0].To)
		l, listed := a.processLists[processListKey{c.kind, server[c.server], 1}]
		if rv, _ := a.processFloor(server[c.server], 1, c.kind); !listed || rv != c.list || l.rv != c.list || h >= c.list {
			t.Errorf("%s's new process's %s: floor %d (its list %+v, known %v), want its list's %d, above the head %d when its old process ended", c.server, c.kind, rv, l, listed, c.list, h)
		}
	}
	line := resumeAtLine(a, instant(t, "2026-12-01T18:13:34Z"))
	if !strings.Contains(line, "With bookmarks, a would refuse 128, b none, c none: for 128 clients the answer depends on the API server reached.") {
		t.Errorf("at 18:13:34 the summary says %q, want a refusing the 128 bookmarked cursors below its list", line)
	}
	var because string
	at := instant(t, "2026-12-01T18:13:34Z")
	for fi := range tl.Files {
		per, _ := a.ResumeAtServers(fi, BookmarkAware, at)
		for _, sv := range per {
			if strings.Contains(sv.Reason, "filled its cache of ConfigMap from a LIST at RV 1183") {
				because = sv.Reason
			}
		}
	}
	if !strings.Contains(because, "its first 410, at 2026-12-01 18:14:58.760 UTC, named 1183 as the oldest RV it still accepted, and a watch of every ConfigMap, open from 2026-12-01 18:09:29.002 UTC, saw no change at RV 1184") {
		t.Errorf("no answer at 18:13:34 says why a refuses by its list: %q", because)
	}

	// The reconnect whose own 410 shows the list is judged without it:
	// its answer would otherwise predict itself.
	l := a.processLists[processListKey{"ConfigMap", server["a"], 1}]
	judged := false
	for _, r := range a.Resumes {
		if r.Session == l.session {
			judged = true
			if strings.Contains(r.Predicted.Reason, "from a LIST at RV 1183") {
				t.Errorf("the resume whose 410 shows a's list is predicted by it: %s", r.Predicted.Reason)
			}
		}
	}
	if !judged {
		t.Errorf("the session of a's first 410 (%d) is no resume judged", l.session)
	}

	fleet := buildRecording(t, "samples-fleet", "*.ts.http", "audit-*.log").Analyze(realServer())
	if len(fleet.processLists) != 0 {
		t.Errorf("samples-fleet: lists %v, want none: each new process's first 410 names an RV after which a ConfigMap changed", fleet.processLists)
	}
}

// TestNewProcessListFromItsMetrics: without the lab's watches of every
// ConfigMap and Secret, its exports show the same: a's new process's
// cache of configmaps received fewer changes from its first list to its
// 410 at 18:14:58 than its capacity held, so the 410's 1183 is that
// list's RV; the bookmarked cursors below it at 18:13:34 are refused
// by a: the 129 of the whole folder, and the three watches of every
// kind, whose captures are left out: their audit logs show the RVs
// they watched from, not the bookmarks that kept them fresh.
func TestNewProcessListFromItsMetrics(t *testing.T) {
	narrow := []string{"c*.ts.http", "s*.ts.http", "p*.ts.http"}
	a := buildRecording(t, "samples-lab", append(narrow, "audit-*.log", "prometheus/query_range/*.json.gz")...).Analyze(realServer())
	a2 := -1
	for k, s := range a.TL.Servers {
		if s.Name == "a" {
			a2 = k
		}
	}
	l, ok := a.processLists[processListKey{"ConfigMap", a2, 1}]
	if !ok || !l.byMetrics || l.rv != 1183 {
		t.Fatalf("a's new process's ConfigMap list: %+v (known %v), want RV 1183 from its metrics", l, ok)
	}
	line := resumeAtLine(a, instant(t, "2026-12-01T18:13:34Z"))
	if !strings.Contains(line, "With bookmarks, a would refuse 132, b none, c none: for 132 clients the answer depends on the API server reached.") {
		t.Errorf("at 18:13:34 the summary says %q, want a refusing the 132 bookmarked cursors below its list", line)
	}
	// p03's only event is an ERROR of the secrets cache, and its kind is
	// unnamed: the unnamed kind mixes resources, and gives no list.
	for key := range a.processLists {
		if key.kind == "" {
			t.Errorf("a list of the unnamed kind: %+v", key)
		}
	}
	withoutProof := buildRecording(t, "samples-lab", append(narrow, "audit-*.log")...).Analyze(realServer())
	if len(withoutProof.processLists) != 0 {
		t.Errorf("without the exports or a watch of every kind: lists %v, want none", withoutProof.processLists)
	}
}
