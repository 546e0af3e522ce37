package cli

import (
	"fmt"
	"io"

	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// exitUnread is analyze's exit status when no input gave anything to
// judge (timeline.Timeline.Judged), and under --fail-on when any one gave
// nothing (see timeline.Timeline.Unjudged): empty, not a watch capture,
// cut before its first event, only refused by the server, or an audit
// log with no list or watch; or when only metrics were given. A report of
// nothing judged must not exit as an all-clear, and a gate that cannot
// judge a capture must not pass it, nor look like one that found a 410.
const exitUnread = 3

// warnUnjudged names on stderr each input of tl that gave nothing to
// judge, with the reason, and says whether there was one. A response that
// is only a 410 (a LIST answered 410) is a verdict, not an unjudged file.
func warnUnjudged(tl *timeline.Timeline, stderr io.Writer) bool {
	un := tl.Unjudged()
	for _, u := range un {
		fmt.Fprintf(stderr, "watchlens analyze: %s: nothing to judge: %s\n", u.Name, u.Reason)
	}
	if len(tl.Files) == 0 && (tl.Metrics != nil || len(tl.ServerLogs) > 0) {
		// The servers' metrics and logs say what the servers did, not
		// what a client asked.
		fmt.Fprintf(stderr, "watchlens analyze: only the API servers' metrics or logs were read: no watch capture, audit log or client log to judge\n")
		return true
	}
	return len(un) > 0
}

// warnTooBig says on stderr, for each file, how many events or LIST
// responses were skipped for being larger than limit, and the flag that
// raises it: the report's diagnostics say where, but a gate's log should
// show that something was not read.
func warnTooBig(tl *timeline.Timeline, limit int64, stderr io.Writer) {
	for _, f := range tl.Files {
		n := 0
		for _, d := range f.Diagnostics {
			if d.Kind == "event-too-big" {
				n++
			}
		}
		switch {
		case n == 1:
			fmt.Fprintf(stderr, "watchlens analyze: %s: an event or list larger than %s was skipped (--max-event-size raises the limit)\n", f.Name, quantity.Bytes(limit))
		case n > 1:
			fmt.Fprintf(stderr, "watchlens analyze: %s: %d events or lists larger than %s were skipped (--max-event-size raises the limit)\n", f.Name, n, quantity.Bytes(limit))
		}
	}
}

// warnLeftOut says on stderr which files found in the folders given were
// left out for holding no watch record (timeline.Builder.LeaveOutUnread),
// so that a record the parser did not recognise is not missed unseen.
func warnLeftOut(names []string, stderr io.Writer) {
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(stderr, "watchlens analyze: left out %s found in the folders given that hold no watch record: %s\n",
		quantity.Plural(len(names), "file"), quantity.Listed(names, 8))
}
