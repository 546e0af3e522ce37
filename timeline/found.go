package timeline

import "watchlens/parser"

// LeaveOutUnread removes the file the Builder added last, numbered as
// FilesAdded counts, when nothing in it read as a watch record: no event,
// no request, and no sign of a record cut short or too big, only text the
// parser could not take for one, or values that are neither a watch event
// nor a Kubernetes object (a YAML or JSON configuration, such as the
// Prometheus configuration beside its exports). It says whether it
// removed the file.
//
// A truncation (DiagTruncated) is no such sign in a file without a
// session: the parser keeps a session for anything of a watch connection
// it read (a request, an HTTP head, an event), and says an event broke
// off (DiagCutEvent) when the body holds the start of one. What is left
// is the chunked framing it guesses from a first line that is a bare
// number (the chunk size of a body saved without its head), with no
// event in it: a file of a few numbers reads so, such as the range of a
// Prometheus export, two Unix times on a line.
//
// The page and the command line call it for the files they found in a
// folder the user gave: the folder an incident left holds READMEs, notes
// and scripts beside its records, and those are not inputs to judge. A
// file the user named is kept and said to hold nothing (Unjudged).
func (b *Builder) LeaveOutUnread(file int) bool {
	if file != len(b.files)-1 {
		return false
	}
	f := b.files[file]
	if f.hi > f.lo || (len(b.sessions) > 0 && b.sessions[len(b.sessions)-1].File == file) {
		return false
	}
	for _, d := range f.file.Diagnostics {
		switch d.Kind {
		case parser.DiagBadJSON, parser.DiagEmpty, parser.DiagNotEvent, parser.DiagTruncated:
		default:
			return false
		}
	}
	b.files = b.files[:file]
	return true
}
