package report

import (
	"fmt"
	"strings"
)

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
	fmt.Fprintf(&b, "**watchlens** on %s\n\n", strings.Join(names, ", "))
	for _, l := range r.Summary {
		fmt.Fprintf(&b, "- %s\n", mdSafe(l.Text))
	}
	w := r.WhatIf
	errs := 0
	for _, e := range r.Errors {
		if e.Code == 410 {
			errs++
		}
	}
	fmt.Fprintf(&b, "\n| | with bookmarks | without | had it asked for them |\n| --- | --- | --- | --- |\n")
	fmt.Fprintf(&b, "| reconnects refused (410) | %d | %d | %d |\n", w.RelistsWithBookmarks, w.RelistsWithoutBookmarks, w.RelistsHad)
	fmt.Fprintf(&b, "| reconnects at risk | %d | %d | %d |\n", w.AtRiskWith, w.AtRiskWithout, w.AtRiskHad)
	fmt.Fprintf(&b, "\n%d reconnects recorded, %d 410 Gone observed, %d red zones, %d probable restarts.\n", w.Reconnects, errs, len(r.Zones), len(r.Restarts))
	if link != "" {
		fmt.Fprintf(&b, "\n[Open this view in watchlens](%s)\n", strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(link))
	}
	return b.String()
}
