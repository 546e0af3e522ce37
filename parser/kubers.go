package parser

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// kube-rs logs through `tracing`; a program prints it with
// tracing-subscriber's fmt layer, by default as
//
//	2026-12-01T18:13:29.512345Z DEBUG HTTP{http.method=GET http.url=https://127.0.0.1:17400/api/v1/namespaces/lab/configmaps?&watch=true&timeoutSeconds=290&allowWatchBookmarks=true&resourceVersion=329 otel.name="watch" otel.kind="client"}: kube_client::client::builder: requesting
//
// (the span's fields in braces before the target), or in its compact
// form with the span's fields after the message ("DEBUG HTTP:
// kube_client::client::builder: requesting http.method=GET ..."). The
// lines read (kube-rs 4.2.0):
//   - kube-client's HTTP span (`client/builder.rs` l.257–291): "requesting"
//     as each request goes out, its URL in `http.url` and the API call in
//     `otel.name` ("list", "watch"; `api/core_methods.rs` l.229, l.562);
//     "stream closed" at the end of each response body, with
//     `http.status_code` recorded; "failed with error" on a transport
//     error;
//   - kube-runtime's watcher (`watcher.rs` l.610–631, l.686–712): "error
//     watchevent error: Status { ..., code: 410, message: \"too old
//     resource version: 329 (803)\", ... }" for an ERROR event, after
//     which it relists; "watcher error:", "watch list error:", "watch
//     initlist error:" for failed requests. These name no watch.
//
// tracing-subscriber's JSON layout (`fmt().json()`) carries the same:
// the message in "fields", the target, and the HTTP span's fields in
// "span".

// The tracing targets read.
const (
	kubeRSBuilder = "kube_client::client::builder: "
	kubeRSWatcher = "kube_runtime::watcher: "
)

// kubeRSTarget is where a kube-rs target begins in a tracing line after
// its time (a level, then spans, then the target), -1 when it has none.
func kubeRSTarget(b []byte) int {
	_, rest, ok := logLevel(b)
	if !ok {
		return -1
	}
	for _, t := range [...]string{kubeRSBuilder, kubeRSWatcher, "kube_runtime::", "kube_client::"} {
		if i := bytes.Index(rest, []byte(t)); i >= 0 {
			return len(b) - len(rest) + i
		}
	}
	return -1
}

// kubeRS reads a tracing line of kube-rs, after its time.
func (lr *libReader) kubeRS(b []byte) (LibLine, bool) {
	sev, rest, ok := logLevel(b)
	if !ok {
		return LibLine{}, false
	}
	for _, target := range [...]string{kubeRSBuilder, kubeRSWatcher} {
		if i := bytes.Index(rest, []byte(target)); i >= 0 {
			field := func(key string) string { return strings.Trim(spanField(rest, key+"="), `"`) }
			return lr.kubeRSEvent(sev, target, string(rest[i+len(target):]), field)
		}
	}
	return LibLine{}, false
}

// kubeRSJSON reads a line of tracing-subscriber's JSON layout:
// {"timestamp":"...","level":"DEBUG","fields":{"message":"requesting"},
// "target":"kube_client::client::builder","span":{"http.url":"...",
// "otel.name":"list",...,"name":"HTTP"},"spans":[...]}; its time, and
// the line.
func (lr *libReader) kubeRSJSON(b []byte) (int64, LibLine, bool) {
	if !gjson.ValidBytes(b) {
		return 0, LibLine{}, false
	}
	v := gjson.GetManyBytes(b, "timestamp", "level", "fields.message", "target", "span")
	t, ok := jsonTime(v[0])
	if !ok || !v[2].Exists() {
		return 0, LibLine{}, false
	}
	sev, _, _ := logLevel([]byte(v[1].String()))
	span := v[4]
	field := func(key string) string { return span.Get(strings.ReplaceAll(key, ".", `\.`)).String() }
	l, ok := lr.kubeRSEvent(sev, v[3].String()+": ", v[2].String(), field)
	return t, l, ok
}

// tracingJSON says whether a JSON line is an event of
// tracing-subscriber's JSON layout, and whether it is kube-rs's.
func tracingJSON(b []byte) (event, kubeRS bool) {
	if !gjson.ValidBytes(b) {
		return false, false
	}
	v := gjson.GetManyBytes(b, "timestamp", "fields.message", "target")
	target := v[2].String()
	event = v[0].Exists() && v[1].Exists() && v[2].Exists()
	return event, event && (strings.HasPrefix(target, "kube_client::") || strings.HasPrefix(target, "kube_runtime::"))
}

// kubeRSEvent reads one kube-rs event: its target ("kube_client::client::builder: "),
// its message, and its span's fields.
func (lr *libReader) kubeRSEvent(sev byte, target, msg string, field func(string) string) (LibLine, bool) {
	l := LibLine{Severity: sev, Items: -1}
	switch target {
	case kubeRSBuilder:
		url, name := field("http.url"), field("otel.name")
		if url == "" {
			return l, false
		}
		req := parseRequestURI(orString(field("http.method"), "GET"), url)
		switch {
		case name != "list" && name != "watch" && name != "list_metadata" && name != "watch_metadata":
			return l, false // a get, a patch: not an informer's
		case strings.HasPrefix(msg, "requesting"):
			l.Kind, l.Request = LibRequest, req
		case strings.HasPrefix(msg, "stream closed"):
			l.Kind = LibStreamEnd
			l.Client = lr.intern.str(RequestClient(req))
		case strings.HasPrefix(msg, "failed with"):
			l.Kind, l.Err = LibError, msg
			l.Client = lr.intern.str(RequestClient(req))
		default:
			return l, false
		}
		l.HTTPStatus, _ = strconv.Atoi(field("http.status_code"))
		return l, true
	case kubeRSWatcher:
		for _, p := range [...]string{"error watchevent error: ", "watcher error: ", "watch list error: ", "watch initlist error: ",
			"watcher watchevent error 403: ", "watcher error 403: ", "watch list error with 403: ", "watch initlist error with 403: "} {
			if strings.HasPrefix(msg, p) {
				l.Kind, l.Err = LibError, msg[len(p):]
				if m := debugField(l.Err, "message: "); m != "" && strings.Contains(l.Err, "code: 410") {
					l.Kind, l.Err = LibGone, m
					l.RV, l.OldestRV = tooOld(m)
				}
				return l, true
			}
		}
	}
	return l, false
}

// spanField is the value of a tracing field key=value in b: up to the
// next blank, or the brace that ends the span's fields; a quoted value
// keeps its quotes.
func spanField(b []byte, key string) string {
	i := 0
	for {
		k := bytes.Index(b[i:], []byte(key))
		if k < 0 {
			return ""
		}
		k += i
		// The key starts a field: after a blank or the span's brace.
		if k == 0 || b[k-1] == ' ' || b[k-1] == '{' {
			v := b[k+len(key):]
			if len(v) > 0 && v[0] == '"' {
				if j := bytes.IndexByte(v[1:], '"'); j >= 0 {
					return string(v[:j+2])
				}
				return string(v)
			}
			end := bytes.IndexAny(v, " }")
			if end < 0 {
				end = len(v)
			}
			return string(v[:end])
		}
		i = k + len(key)
	}
}

// debugField reads a string field of a Rust Debug rendering: `key:
// "value"`, unquoted.
func debugField(s, key string) string {
	i := strings.Index(s, key+`"`)
	if i < 0 {
		return ""
	}
	v, _ := quoted([]byte(s[i+len(key):]))
	return v
}

func orString(s, or string) string {
	if s == "" {
		return or
	}
	return s
}
