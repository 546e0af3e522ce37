package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestRestartsSayWhenTheServerWasToldToStop: samples-watchlist's servers
// were each told to stop (SIGTERM, in their own logs) a minute before
// they ended their watches, and took no new request from a few
// milliseconds after it (NotAcceptingNewRequest); the restarts say when,
// in the JSON's sigterm and closing and the Markdown's table, beside the
// watches' ends.
func TestRestartsSayWhenTheServerWasToldToStop(t *testing.T) {
	r := New(loadRecording(t, "samples-watchlist", "audit-*.log", "apiserver-*.log").Analyze(realServer()), nil)
	var shutdowns, closings []string
	for _, l := range r.ServerLogs {
		shutdowns, closings = append(shutdowns, l.Shutdowns...), append(closings, l.Closings...)
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
		if d.Closing == nil || *d.Closing < *d.SIGTERM || *d.Closing >= d.Ended || !slices.Contains(closings, *d.Closing) {
			t.Errorf("server %s's restart: told to stop at %s, taking no new request from %v, its log's closings %v", d.Restarted, *d.SIGTERM, d.Closing, closings)
		}
	}
	if told != 3 || len(r.Restarts) != 3 {
		t.Fatalf("%d of %d restarts say when their server was told to stop: want samples-watchlist's 3", told, len(r.Restarts))
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| server | told to stop (its log) | took no new request | watches ended |") {
		t.Error("the Markdown's restarts table has no column of when each server was told to stop")
	}
}
