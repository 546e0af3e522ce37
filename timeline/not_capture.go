package timeline

import (
	"slices"

	"watchlens/parser"
)

// NotCapture says why a file is no watch capture, when nothing in it
// was read as one.
type NotCapture uint8

const (
	// IsCapture: something in the file was read as a watch record, or it
	// is an audit log (judged as one, Unjudged).
	IsCapture NotCapture = iota
	// LooksLikeOther: its start is a well-known format that is no watch
	// record (LooksLike says which).
	LooksLikeOther
	// Empty: the file holds nothing.
	Empty
	// Unreadable: nothing in it reads as a watch event, an audit log, a
	// client log or a metrics export (a table or notes kept beside the
	// records).
	Unreadable
)

// ReadersRead is what nothing in an Unreadable file reads as.
const ReadersRead = "a watch event, an audit log, a client log or a metrics export"

// Why says why a file is no watch capture, in the verdict's words
// (Unjudged): "it looks like " and looksLike, its LooksLike; "it is
// empty"; or "nothing in it reads as " and ReadersRead.
func (n NotCapture) Why(looksLike string) string {
	switch n {
	case LooksLikeOther:
		return "it looks like " + looksLike
	case Empty:
		return "it is empty"
	default:
		return "nothing in it reads as " + ReadersRead
	}
}

// NotCapture says why file fi is no watch capture: its start is a
// well-known format that is no watch record (LooksLike: a split reads
// such a file all the same, and a README's example event can give it a
// session), or nothing in it was read as one: no session, so no
// request, answer or event, and either nothing at all (Empty) or only
// the readers' problems with it (Unreadable). A virtual client of a
// split is its capture's.
func (tl *Timeline) NotCapture(fi int) NotCapture {
	f := &tl.Files[fi]
	switch {
	case f.Audit || f.SplitOf != "":
		return IsCapture
	case tl.LooksLike(fi) != "":
		return LooksLikeOther
	case len(f.Sessions) > 0:
		return IsCapture
	case isEmpty(f.Diagnostics):
		return Empty
	case onlyBadJSON(f.Diagnostics), f.Events == 0 && len(f.Diagnostics) > 0:
		// Nothing read, and the readers' problems with it: a Prometheus
		// config read as YAML, a file of two numbers read as a chunk
		// size. Their problems are no capture's.
		return Unreadable
	}
	return IsCapture
}

// isEmpty says the parser found the input empty.
func isEmpty(diags []parser.Diagnostic) bool {
	return slices.ContainsFunc(diags, func(d parser.Diagnostic) bool { return d.Kind == parser.DiagEmpty })
}

// onlyBadJSON says every problem the parser found is text it could not
// take for a record, and it found one.
func onlyBadJSON(diags []parser.Diagnostic) bool {
	return len(diags) > 0 && !slices.ContainsFunc(diags, func(d parser.Diagnostic) bool { return d.Kind != parser.DiagBadJSON })
}
