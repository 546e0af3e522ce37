package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestRestartsSayWhenTheServerWasToldToStop: samples-watchlist's servers
// were each told to stop (SIGTERM, in their own logs) a minute before
// they ended their watches; the restarts say when, in the JSON's sigterm
// and the Markdown's table, beside the watches' ends.
func TestRestartsSayWhenTheServerWasToldToStop(t *testing.T) {
	r := New(loadRecording(t, "samples-watchlist", "audit-*.log", "apiserver-*.log").Analyze(realServer()), nil)
	var shutdowns []string
	for _, l := range r.ServerLogs {
		shutdowns = append(shutdowns, l.Shutdowns...)
	}
	told := 0
	for _, d := range r.Restarts {
		if d.SIGTERM == nil {
			continue
		}
		told++
		found := false
		for _, s := range shutdowns {
			found = found || s == *d.SIGTERM
		}
		if !found || *d.SIGTERM >= d.Ended {
			t.Errorf("server %s's restart: told to stop at %s, its log's shutdowns %v, its watches ended at %s", d.Restarted, *d.SIGTERM, shutdowns, d.Ended)
		}
	}
	if told != 3 || len(r.Restarts) != 3 {
		t.Fatalf("%d of %d restarts say when their server was told to stop: want samples-watchlist's 3", told, len(r.Restarts))
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| server | told to stop (its log) | watches ended |") {
		t.Error("the Markdown's restarts table has no column of when each server was told to stop")
	}
}
