//go:build !wasm

package main

import (
	"fmt"
	"io"

	"watchlens/report"
)

// exitUnread is analyze's exit status under --fail-on when a file gave
// nothing to judge: no event, and no error response either (empty, not a
// watch capture, or cut before its first event), or when only metrics
// were given. A gate that cannot read
// a capture must not pass it, nor look like one that found a 410.
const exitUnread = 3

// warnUnread names on stderr each file of rep that gave nothing to judge,
// and says whether there was one. A response that is only a Status (a
// LIST answered 410) is a verdict, not an unread file.
func warnUnread(rep *report.Report, stderr io.Writer) bool {
	answered := map[string]bool{}
	for _, s := range rep.Sessions {
		if s.HTTPStatus != 0 && s.HTTPStatus != 200 {
			answered[s.File] = true
		}
	}
	unread := false
	if len(rep.Files) == 0 && rep.Metrics != nil {
		// Metrics say what the servers held, not what a client asked.
		fmt.Fprintf(stderr, "watchlens analyze: only Prometheus metrics were read: no watch capture or audit log to judge\n")
		unread = true
	}
	for _, f := range rep.Files {
		// A client from audit logs is its requests: it never has events.
		if f.Events == 0 && !answered[f.Name] && !f.Audit {
			fmt.Fprintf(stderr, "watchlens analyze: %s: nothing in it could be read as a watch capture (no event)\n", f.Name)
			unread = true
		}
	}
	return unread
}
