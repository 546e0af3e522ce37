package app

import (
	"slices"
	"strings"

	"watchlens/app/engine"
	"watchlens/parser"
)

// noteKinds are the diagnostics that say how the input was read, not
// what is wrong with it: a log's or an export's times that name no zone,
// read as UTC. The page shows them as a note, quietly, apart from the
// problems in the input, which it shows in red.
var noteKinds = []parser.DiagnosticKind{parser.DiagNoZone, parser.DiagLocalTime}

// isNote says d is a note (noteKinds).
func isNote(d parser.Diagnostic) bool { return slices.Contains(noteKinds, d.Kind) }

// noteOf is what a file's one problem in its input says when it is a
// note. The load's answer counts notes among a file's problems and
// names only the one that explains the others (engine.File.RootCause,
// "the first at offset 0 (line 1): no-zone: the log's times ..."): a
// file with one, which is a note, has nothing wrong with its input.
func noteOf(f *engine.File) (string, bool) {
	if f.Problems != 1 {
		return "", false
	}
	for _, k := range noteKinds {
		if _, msg, ok := strings.Cut(f.RootCause, ": "+string(k)+": "); ok {
			return msg, true
		}
	}
	return "", false
}
