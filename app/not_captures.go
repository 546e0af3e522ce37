package app

import (
	"fmt"

	"watchlens/app/engine"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// notCapturesShown is how many files a list of those that are no
// capture names before it counts the rest.
const notCapturesShown = 12

// notCapturesLine says, in one sentence, which of the files the user
// gave are no watch capture and why (engine.File.NotCapture), "" when
// none: selecting every file of an incident's folder gives its notes and
// tables too, and a paragraph of parser problems for each buried the
// records read above the fold.
func notCapturesLine(files []engine.File) string {
	var described, unreadable []string
	var one *engine.File
	for i := range files {
		// A capture is passed over before its name is made safe to show:
		// the page renders this line at each render, over every file (the
		// 10 001 of 10 000 virtual clients).
		f := &files[i]
		switch f.NotCapture {
		case timeline.LooksLikeOther:
			described = append(described, words.Isolated(f.Name)+" is "+f.LooksLike)
		case timeline.Empty:
			described = append(described, words.Isolated(f.Name)+" is empty")
		case timeline.Unreadable:
			unreadable = append(unreadable, words.Isolated(f.Name))
		default:
			continue
		}
		one = f
	}
	switch n := len(described) + len(unreadable); {
	case n == 0:
		return ""
	case n == 1:
		return words.Isolated(one.Name) + " is not a watch capture: " + one.NotCapture.Why(one.LooksLike) + "."
	case len(unreadable) == 0:
		return fmt.Sprintf("%d files are not watch captures: %s.", n, quantity.Listed(described, notCapturesShown))
	case len(described) == 0:
		return fmt.Sprintf("%d files are not watch captures: nothing in them reads as %s (%s).", n, timeline.ReadersRead, quantity.Listed(unreadable, notCapturesShown))
	default:
		return fmt.Sprintf("%d files are not watch captures: %s, and nothing in the other %d reads as %s (%s).",
			n, quantity.Listed(described, notCapturesShown), len(unreadable), timeline.ReadersRead, quantity.Listed(unreadable, notCapturesShown))
	}
}
