package parser

import (
	"bytes"
	"strconv"
	"strings"
)

// fabric8 logs through SLF4J, in whatever layout the program's logging
// backend uses (logback, log4j2, Spring Boot's); ReadLibLog needs the
// line's date and time first and finds the level and the message in the
// rest. The messages read (fabric8 7.8.0), each naming its informer by
// its API endpoint path ("v1/namespaces/lab/configmaps",
// `BaseOperation.getApiEndpointPath`, the Reflector's toString,
// `Reflector.java` l.407–410):
//   - `Reflector.java`: DEBUG "Listing items (N) for PATH at vRV" (l.181,
//     a list completed: its request is not logged), DEBUG "Starting
//     watcher for PATH at vRV" (l.267), DEBUG "Watch restarting due to
//     http gone for PATH" (l.380–385, a 410: a whole new list follows),
//     WARN "OPERATION failed for PATH, will retry" (l.212), ERROR "...,
//     will stop" (l.215), DEBUG "Watch gracefully closed for PATH"
//     (l.394), DEBUG "Stopping watcher for PATH at vRV" (l.258);
//   - `AbstractWatchManager.java`: DEBUG "Watching URL..." (l.342, each
//     watch request, its own reconnects included), ERROR "Error received:
//     STATUS, will retry" (l.473, an ERROR event other than a 410).
//
// The Reflector's messages name no selector; the watch manager's URL
// does, and the line's thread (logback's %thread, in brackets) is the
// informer's executor: the timeline tells two informers of one path
// apart by them.

// fabric8Message says whether b (a line after its time) carries one of
// the messages only fabric8 writes.
func fabric8Message(b []byte) bool {
	for _, m := range [...]string{"Watch restarting due to http gone for ", "Listing items (", "Starting watcher for ", "Watch started for ", "Watch gracefully closed for "} {
		if bytes.Contains(b, []byte(m)) {
			return true
		}
	}
	return bytes.Contains(b, []byte("AbstractWatchManager")) && bytes.Contains(b, []byte("Watching "))
}

// fabric8 reads a line of fabric8's log, after its time.
func (lr *libReader) fabric8(b []byte) (LibLine, bool) {
	s := string(b)
	l := LibLine{Severity: levelAnywhere(b), Items: -1, Thread: lr.intern.str(bracketed(s))}
	path := func(p string) string { return lr.intern.str(fabric8Path(strings.TrimSpace(p))) }
	switch {
	case strings.Contains(s, "Listing items ("):
		rest := s[strings.Index(s, "Listing items (")+len("Listing items ("):]
		n, rest, ok := strings.Cut(rest, ") for ")
		p, rv, ok2 := strings.Cut(rest, " at v")
		if !ok || !ok2 {
			return l, false
		}
		l.Kind, l.Client, l.RV = LibListed, path(p), strings.TrimSpace(rv)
		l.Items, _ = strconv.Atoi(n)
	case strings.Contains(s, "Starting watcher for "):
		p, rv, ok := strings.Cut(s[strings.Index(s, "Starting watcher for ")+len("Starting watcher for "):], " at v")
		if !ok {
			return l, false
		}
		l.Kind, l.Client, l.RV = LibWatchStart, path(p), strings.TrimSpace(rv)
	case strings.Contains(s, "Watch restarting due to http gone for "):
		l.Kind, l.Err = LibGone, "HTTP 410 Gone (fabric8 logs no text)"
		l.Client = path(s[strings.Index(s, "Watch restarting due to http gone for ")+len("Watch restarting due to http gone for "):])
	case strings.Contains(s, "Watch gracefully closed for "):
		l.Kind, l.Client = LibStop, path(s[strings.Index(s, "Watch gracefully closed for ")+len("Watch gracefully closed for "):])
	case strings.Contains(s, "Stopping watcher for "):
		p, _, _ := strings.Cut(s[strings.Index(s, "Stopping watcher for ")+len("Stopping watcher for "):], " at v")
		l.Kind, l.Client = LibStop, path(p)
	case strings.Contains(s, " failed for ") && (strings.HasSuffix(s, ", will retry") || strings.HasSuffix(s, ", will stop")):
		i := strings.LastIndex(s, " failed for ")
		p, _, _ := strings.Cut(s[i+len(" failed for "):], ", will ")
		op := s[strings.LastIndexByte(s[:i], ' ')+1 : i]
		l.Kind, l.Client, l.Err = LibError, path(p), op+" failed"
		if strings.HasSuffix(s, ", will stop") {
			l.Kind = LibStop
		}
	case strings.Contains(s, "Error received: ") && strings.HasSuffix(s, ", will retry"):
		l.Kind, l.Err = LibError, strings.TrimSuffix(s[strings.Index(s, "Error received: ")+len("Error received: "):], ", will retry")
	case strings.Contains(s, "Watching ") && strings.HasSuffix(s, "..."):
		u := strings.TrimSuffix(s[strings.Index(s, "Watching ")+len("Watching "):], "...")
		if !strings.Contains(u, "/") || strings.ContainsAny(u, " \t") {
			return l, false
		}
		l.Kind, l.Request = LibRequest, parseRequestURI("GET", u)
		l.Request.Watch = true // the watch manager's URL: every request is a watch
	default:
		return l, false
	}
	return l, true
}

// fabric8Path is the request path of an API endpoint path: the core
// group's ("v1/...") is under /api, the others' under /apis.
func fabric8Path(p string) string {
	if strings.HasPrefix(p, "v1/") || p == "v1" {
		return "/api/" + p
	}
	return "/apis/" + p
}

// bracketed is the text of a line's first field when it is in brackets
// ("[pool-2-thread-1] DEBUG ..."), "" otherwise.
func bracketed(s string) string {
	if !strings.HasPrefix(s, "[") {
		return ""
	}
	name, _, ok := strings.Cut(s[1:], "]")
	if !ok {
		return ""
	}
	return name
}
