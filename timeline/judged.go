package timeline

import (
	"fmt"
	"net/http"
	"path"
	"slices"
	"strings"
)

// Unjudged is an input that gave nothing to judge: no 410, and no watch
// or list answered with something a model can read. A CI gate must not
// pass it, nor take it for one that found a 410.
type Unjudged struct {
	Name   string // the file as given
	Reason string // why, in plain words
}

// Unjudged lists the inputs that gave nothing to judge, with the reason:
// a capture with no event (empty, not a capture, cut before its first
// event), whose server answered only with an error other than 410 (a
// 403, a 504) or whose only events are ERRORs other than 410; an audit
// log with no record read, no list or watch request, or only refused
// ones. A virtual client of --split-by is judged with its capture.
func (tl *Timeline) Unjudged() []Unjudged {
	goneIn := make([]bool, len(tl.Files))
	for _, g := range tl.Gones() {
		goneIn[tl.Sessions[g.Session].File] = true
	}
	var out []Unjudged
	auditAnswered := false
	for fi := range tl.Files {
		f := &tl.Files[fi]
		read, statuses := tl.fileAnswers(fi)
		if f.Audit {
			auditAnswered = auditAnswered || read || goneIn[fi]
			continue
		}
		if f.SplitOf != "" || read || goneIn[fi] {
			continue
		}
		why := "nothing in it could be read as a watch capture (no event)"
		switch n := tl.NotCapture(fi); {
		case n == LooksLikeOther:
			why = "it is not a watch capture: " + n.Why(tl.LooksLike(fi))
		case len(statuses) > 0:
			why = "the server answered " + strings.Join(statuses, ", ") + ", so there is no watch to judge"
		case f.Counts["ERROR"] > 0:
			why = "its only events are errors the server sent in the stream (" + tl.errorsOf(fi) + "), so there is no watch to judge"
		case n != IsCapture:
			why = "it is not a watch capture: " + n.Why("")
		}
		out = append(out, Unjudged{Name: f.Name, Reason: why})
	}
	for _, l := range tl.AuditLogs {
		watches := l.ByVerb["list"] + l.ByVerb["watch"]
		switch {
		case l.Records == 0:
			out = append(out, Unjudged{Name: l.Name, Reason: "no audit event in it could be read (one JSON audit event per line is what it takes)"})
		case watches == 0:
			out = append(out, Unjudged{Name: l.Name, Reason: "its audit log records no list or watch request, only " + verbsWords(l.ByVerb)})
		case !auditAnswered:
			out = append(out, Unjudged{Name: l.Name, Reason: "the server refused every list and watch request its audit log records"})
		}
	}
	return out
}

// fileAnswers says whether a file has a session whose answer a model can
// read (an event or a bookmark of a stream, an item of a list, a request
// of an audit log answered 200, a WatchList answered 200 that cannot
// sync), and lists the other HTTP statuses its
// sessions got.
func (tl *Timeline) fileAnswers(fi int) (read bool, statuses []string) {
	f := &tl.Files[fi]
	for _, g := range f.Sessions {
		s := &tl.Sessions[g]
		switch {
		case s.Events+s.Bookmarks > 0:
			read = true
		case f.Audit && s.HTTPStatus == 200:
			read = true
		case s.HTTPStatus == 200 && s.Request != nil && s.IsWatchList() && !s.Request.AllowWatchBookmarks:
			// A WatchList that did not ask for bookmarks never gets the
			// one that ends its sync: with no event at all (an empty
			// selection), its client is still judged, never synced.
			read = true
		case s.HTTPStatus != 0 && s.HTTPStatus != 200:
			st := fmt.Sprintf("HTTP %d %s", s.HTTPStatus, http.StatusText(s.HTTPStatus))
			if !slices.Contains(statuses, st) {
				statuses = append(statuses, st)
			}
		}
	}
	return read, statuses
}

// errorsOf names the first ERROR events of a file: "ERROR 500: etcdserver:
// request timed out".
func (tl *Timeline) errorsOf(fi int) string {
	var out []string
	for _, e := range tl.ObservedErrors() {
		if e.Event < 0 || tl.Sessions[e.Session].File != fi {
			continue
		}
		if len(out) == 2 {
			out = append(out, "...")
			break
		}
		out = append(out, strings.TrimSuffix(fmt.Sprintf("ERROR %d: %s", e.Status.Code, e.Status.Message), ": "))
	}
	return strings.Join(out, "; ")
}

// verbsWords says an audit log's requests by verb: "20 get, 3 create".
func verbsWords(byVerb map[string]int) string {
	verbs := make([]string, 0, len(byVerb))
	for v := range byVerb {
		verbs = append(verbs, v)
	}
	slices.Sort(verbs)
	var parts []string
	for _, v := range verbs {
		parts = append(parts, fmt.Sprintf("%d %s", byVerb[v], v))
	}
	if len(parts) == 0 {
		return "no request"
	}
	return strings.Join(parts, ", ") + " requests"
}

// Judged says whether any input gave something to judge: a watch or list
// answered, a 410, an audit log's answered request, or the servers' own
// metrics or logs, which the summary reports without a client.
func (tl *Timeline) Judged() bool {
	if tl.Metrics != nil || len(tl.ServerLogs) > 0 || len(tl.Gones()) > 0 {
		return true
	}
	for fi := range tl.Files {
		if read, _ := tl.fileAnswers(fi); read {
			return true
		}
	}
	return false
}

// LooksLike says what file fi looks like when its start is a well-known
// format that is no watch record ("a PNG image", parser.LooksLike), and
// is empty otherwise.
func (tl *Timeline) LooksLike(fi int) string { return tl.looksLike[fi] }

// nothingJudged says, when no input gave anything to judge, which inputs
// were given and why each gave nothing, instead of a verdict.
func (s *summarizer) nothingJudged() {
	un := s.a.TL.Unjudged()
	const shown = 3
	var parts []string
	for i, u := range un {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(un)-shown))
			break
		}
		parts = append(parts, path.Base(u.Name)+": "+u.Reason)
	}
	switch len(un) {
	case 0:
		s.add("unjudged", "Nothing to judge: no watch capture, audit log or client log was given, so there is no verdict.")
	case 1:
		s.add("unjudged", "Nothing to judge, so there is no verdict: %s.", parts[0])
	default:
		s.add("unjudged", "Nothing to judge in the %d files given, so there is no verdict: %s.", len(un), strings.Join(parts, "; "))
	}
}
