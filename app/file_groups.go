package app

import "watchlens/app/canvas"

// Which files' groups of tracks the user folded and pinned to the top, as
// a link carries them (?fold=, ?pin=), in canvas.FileSet's text ("0-3,7").

// maxUnfoldedFiles is how many files' groups of tracks a timeline opens
// unfolded: with more, each opens folded to its name and zones.
const maxUnfoldedFiles = 3

// maxLinkedFiles bounds the file indices a link may name, far above the
// fleets the page reads, so that a hand-edited link cannot ask for a set
// that takes long to build.
const maxLinkedFiles = 1 << 20

// foldNone is the fold text for "no group folded", where the default for
// many files folds them all.
const foldNone = "none"

// defaultFolded is how a timeline of n files opens: with more than
// maxUnfoldedFiles, each group folded to its name and zones, so that the
// lanes stay in view; the user unfolds the ones to read.
func defaultFolded(n int) canvas.FileSet {
	if n > maxUnfoldedFiles {
		return canvas.AllFiles(n)
	}
	return canvas.FileSet{}
}

// foldText is folded as a link says it: "" for the default of n files.
func foldText(folded canvas.FileSet, n int) string {
	switch {
	case folded.Equal(defaultFolded(n)):
		return ""
	case folded.Empty():
		return foldNone
	}
	return folded.String()
}

// parseFold reads a link's fold text for n files; a malformed one keeps
// the default.
func parseFold(text string, n int) canvas.FileSet {
	if text == foldNone {
		return canvas.FileSet{}
	}
	if s, ok := canvas.ParseFileSet(text, maxLinkedFiles); ok && text != "" {
		return s
	}
	return defaultFolded(n)
}

// validFold and validPin say whether a link's text reads as a set.
func validFold(text string) bool {
	_, ok := canvas.ParseFileSet(text, maxLinkedFiles)
	return ok || text == foldNone
}

func validPin(text string) bool {
	_, ok := canvas.ParseFileSet(text, maxLinkedFiles)
	return ok
}
