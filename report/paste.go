package report

import (
	"fmt"
	"strconv"
	"strings"

	"watchlens/internal/quantity"
)

// maxPastedNames bounds the files the pasted summary names.
const maxPastedNames = 5

// PasteMarkdown is the summary as an engineer pastes it into a
// postmortem: the files, the verdict in words, the key figures, and a
// link back to the view when one is given. Capture strings are escaped as
// in the Markdown report.
func (r *Report) PasteMarkdown(link string) string {
	var b strings.Builder
	var names []string
	for _, f := range r.Files {
		names = append(names, "`"+strings.ReplaceAll(textSafe(f.Name), "`", "'")+"`")
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
	if r.Fleet == nil {
		// The rows' words are the Findings panel's and the text report's:
		// the bookmarks a client received are not the bookmarks it could
		// have asked for.
		fmt.Fprintf(&b, "\n| reconnects | refused (410), a relist | at risk | not judged |\n| --- | --- | --- | --- |\n")
		fmt.Fprintf(&b, "| relists with the bookmarks received | %d | %d | %d |\n", w.RelistsWithBookmarks, w.AtRiskWith, w.UnknownWith)
		fmt.Fprintf(&b, "| relists ignoring bookmarks | %d | %d | %d |\n", w.RelistsWithoutBookmarks, w.AtRiskWithout, w.UnknownWithout)
		fmt.Fprintf(&b, "| relists had it asked for bookmarks | %d | %d | %d |\n", w.RelistsHad, w.AtRiskHad, w.UnknownHad)
	}
	probable := 0
	for _, d := range r.Restarts {
		if d.Probable {
			probable++
		}
	}
	var restarts string
	switch n := len(r.Restarts); {
	case n == 0:
		restarts = "no API server restart"
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
	fmt.Fprintf(&b, "\n%s%s recorded, %s in the records, %s.\n", clients, quantity.Plural(w.Reconnects, "reconnect"), strconv.Itoa(r.Gones)+" 410 Gone", restarts)
	if link != "" {
		fmt.Fprintf(&b, "\n[Open this view in watchlens](%s)\n", strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(link))
	}
	return b.String()
}
