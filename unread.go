//go:build !wasm

package main

import (
	"fmt"
	"io"

	"watchlens/timeline"
)

// exitUnread is analyze's exit status under --fail-on when an input gave
// nothing to judge (see timeline.Timeline.Unjudged): empty, not a watch
// capture, cut before its first event, only refused by the server, or an
// audit log with no list or watch; or when only metrics were given. A
// gate that cannot judge a capture must not pass it, nor look like one
// that found a 410.
const exitUnread = 3

// warnUnjudged names on stderr each input of tl that gave nothing to
// judge, with the reason, and says whether there was one. A response that
// is only a 410 (a LIST answered 410) is a verdict, not an unjudged file.
func warnUnjudged(tl *timeline.Timeline, stderr io.Writer) bool {
	un := tl.Unjudged()
	for _, u := range un {
		fmt.Fprintf(stderr, "watchlens analyze: %s: nothing to judge: %s\n", u.Name, u.Reason)
	}
	if len(tl.Files) == 0 && tl.Metrics != nil {
		// Metrics say what the servers held, not what a client asked.
		fmt.Fprintf(stderr, "watchlens analyze: only Prometheus metrics were read: no watch capture or audit log to judge\n")
		return true
	}
	return len(un) > 0
}
