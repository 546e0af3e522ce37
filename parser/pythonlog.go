package parser

import (
	"regexp"
	"strconv"
	"strings"
)

// The Python client logs through the logging module, in the layout the
// program chose; ReadLibLog needs the line's date and time first (an
// `%(asctime)s`, "2026-12-01 18:13:29,501") and finds the logger's name
// and the message in the rest. The lines read:
//   - the informer (`kubernetes/informer/informer.py`, logger
//     "kubernetes.informer.informer", v36): WARNING "Watch expired (410
//     Gone); will re-list from scratch" (l.298–304), after which it lists
//     again with no resourceVersion; WARNING "Watch stream ended with
//     ApiException (status=N); reconnecting" (l.306–309); "Error during
//     initial list; retrying" (l.253) and "Unexpected error in watch
//     loop; reconnecting" (l.312), each with a traceback after it. None
//     names the informer's resource.
//   - urllib3, which the client sends its requests with (logger
//     "urllib3.connectionpool"): DEBUG `https://HOST:PORT "GET
//     /api/v1/...?...&watch=True HTTP/1.1" 200 None` as each response's
//     head arrives (`connectionpool.py` `_make_request`, format '%s://%s:%s
//     "%s %s %s" %s %s'). With it, each list and watch is known.

// The loggers read.
const (
	pythonInformerLogger = "kubernetes.informer.informer"
	urllib3Logger        = "urllib3.connectionpool"
)

// urllib3Request is urllib3's request line: scheme, host and port, then
// the method, target and HTTP version quoted, then the status.
var urllib3Request = regexp.MustCompile(`https?://[^ "]+:\d+ "(GET|POST|PUT|PATCH|DELETE|HEAD) (\S+) HTTP/[0-9.]+" (\d{3})`)

// python reads a line of a Python client's log, after its time.
func (lr *libReader) python(b []byte) (LibLine, bool) {
	s := string(b)
	l := LibLine{Severity: levelAnywhere(b), Items: -1}
	switch {
	case strings.Contains(s, urllib3Logger):
		m := urllib3Request.FindStringSubmatch(s)
		if m == nil || m[1] != "GET" {
			return l, false
		}
		l.Kind, l.Request = LibRequest, parseRequestURI("GET", m[2])
		l.HTTPStatus, _ = strconv.Atoi(m[3])
	case !strings.Contains(s, pythonInformerLogger):
		return l, false
	case strings.Contains(s, "Watch expired (410 Gone); will re-list from scratch"):
		l.Kind, l.Err = LibGone, "Watch expired (410 Gone)"
	case strings.Contains(s, "Watch stream ended with ApiException (status="):
		l.Kind, l.Err = LibError, s[strings.Index(s, "Watch stream ended with ApiException"):]
	case strings.Contains(s, "Error during initial list; retrying"), strings.Contains(s, "Unexpected error in watch loop; reconnecting"):
		l.Kind = LibError
		for _, m := range [...]string{"Error during initial list; retrying", "Unexpected error in watch loop; reconnecting"} {
			if strings.Contains(s, m) {
				l.Err = m
			}
		}
	default:
		return l, false
	}
	return l, true
}
