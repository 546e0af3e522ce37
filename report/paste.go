package report

import (
	"fmt"
	"strconv"
	"strings"

	"watchlens/internal/quantity"
)

// maxPastedNames bounds the files the pasted summary names.
const maxPastedNames = 5

// pastedAtRisk and pastedNotJudged say, under the pasted table of
// reconnects, what its "at risk" and "not judged" columns count.
const (
	pastedAtRisk    = "At risk: the evidence cannot tell whether the server still had the client's cursor, so the reconnect may or may not have been refused."
	pastedNotJudged = "Not judged: the records lack what a judgement needs then (the client's cursor, a clock, or the cluster's head)."
)

// PasteMarkdown is the summary as an engineer pastes it into a
// postmortem: the files, the verdict in words, the key figures, and a
// link back to the view when one is given. Capture strings are escaped as
// in the Markdown report.
func (r *Report) PasteMarkdown(link string) string {
	var b strings.Builder
	var names []string
	quoted := func(name string) string { return "`" + strings.ReplaceAll(textSafe(name), "`", "'") + "`" }
	for _, f := range r.Files {
		// A README or a table given with the records is read, and named
		// in the report's files, but it is not what the verdict is on.
		if !f.NotCapture {
			names = append(names, quoted(f.Name))
		}
	}
	if len(names) == 0 {
		// The servers' own records alone: those are what it read.
		for _, l := range r.ServerLogs {
			names = append(names, quoted(l.Name))
		}
		if r.Metrics != nil {
			for _, f := range r.Metrics.Files {
				names = append(names, quoted(f.Name))
			}
		}
	}
	if len(names) == 0 {
		// Nothing but notes and tables: they are what it read.
		for _, f := range r.Files {
			names = append(names, quoted(f.Name))
		}
	}
	// A fleet's hundreds of names would bury the verdict: the first few,
	// and how many more.
	fmt.Fprintf(&b, "**watchlens** on %s\n\n", quantity.Listed(names, maxPastedNames))
	for _, l := range r.Summary {
		fmt.Fprintf(&b, "- %s\n", mdSafe(l.Text))
	}
	w := r.WhatIf
	// A fleet's verdict answers "would bookmarks have helped?" with the
	// relists its clients made and would have made: the paste gives
	// that answer once. The what-if's table judges each recorded
	// reconnect by the models from the evidence before it, a check of
	// the models with other numbers, which the report and the page's
	// Findings keep.
	// Without a reconnect recorded the table would be nine zeros; the
	// last line says there was none.
	if r.Fleet == nil && w.Reconnects > 0 {
		// The rows' words are the Findings panel's and the text report's:
		// the bookmarks a client received are not the bookmarks it could
		// have asked for.
		fmt.Fprintf(&b, "\n| each recorded reconnect, judged from the evidence before it | refused (410), a relist | at risk | not judged |\n| --- | --- | --- | --- |\n")
		fmt.Fprintf(&b, "| relists with the bookmarks received | %d | %d | %d |\n", w.RelistsWithBookmarks, w.AtRiskWith, w.UnknownWith)
		fmt.Fprintf(&b, "| relists ignoring bookmarks | %d | %d | %d |\n", w.RelistsWithoutBookmarks, w.AtRiskWithout, w.UnknownWithout)
		fmt.Fprintf(&b, "| relists had it asked for bookmarks | %d | %d | %d |\n", w.RelistsHad, w.AtRiskHad, w.UnknownHad)
		// A paste is read away from the page's legend: the columns a
		// count sits in say what they mean.
		var meaning []string
		if w.AtRiskWith+w.AtRiskWithout+w.AtRiskHad > 0 {
			meaning = append(meaning, pastedAtRisk)
		}
		if w.UnknownWith+w.UnknownWithout+w.UnknownHad > 0 {
			meaning = append(meaning, pastedNotJudged)
		}
		if meaning != nil {
			fmt.Fprintf(&b, "\n_%s_\n", strings.Join(meaning, " "))
		}
	}
	probable, unreachable := 0, 0
	for _, d := range r.Restarts {
		if d.Probable {
			probable++
		}
		if d.Probable && d.Unreachable {
			unreachable++
		}
	}
	var restarts string
	switch n := len(r.Restarts); {
	case n == 0:
		restarts = "no API server restart"
	case unreachable == n:
		// The summary says it may as well be the way to them cut.
		restarts = quantity.Plural(n, "probable API server restart") + " or cut connection"
		if n > 1 {
			restarts += "s"
		}
	case probable == n:
		restarts = quantity.Plural(n, "probable API server restart")
	case probable == 0:
		restarts = quantity.Plural(n, "API server restart") + " the servers' records show"
	default:
		restarts = quantity.Plural(n, "API server restart") + " (" + strconv.Itoa(probable) + " probable)"
	}
	clients := ""
	if r.Fleet != nil {
		clients = quantity.Plural(r.Fleet.Clients, "client") + ", "
	}
	// The red zones are left out: their count, stretches per client and
	// model, answers nothing an on-call engineer asks; the report lists
	// them.
	gones := "no 410 Gone in the records"
	if n := r.Gones - r.copiedGones; n > 0 {
		gones = quantity.Plural(n, "refusal") + " with 410 Gone in the records"
	}
	if r.copiedGones > 0 {
		// The verdict tells a copy's 410 once (timeline.CopiedGone).
		again := fmt.Sprintf(" (and %d of them again, in copies of their recordings)", r.copiedGones)
		if r.copiedGones == 1 {
			again = " (and one of them again, in a copy of its recording)"
		}
		gones += again
	}
	fmt.Fprintf(&b, "\n%s%s recorded, %s, %s.\n", clients, quantity.Plural(w.Reconnects, "reconnect"), gones, restarts)
	if link != "" {
		fmt.Fprintf(&b, "\n[Open this view in watchlens](%s)\n", strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(link))
	}
	return b.String()
}
