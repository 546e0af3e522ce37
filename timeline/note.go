package timeline

import "watchlens/parser"

// IsNote says a diagnostic tells how the input was read, not what is
// wrong with it: a log's or an export's times that name no zone, read as
// UTC. The page shows notes quietly, apart from the problems in the
// input.
func IsNote(d parser.Diagnostic) bool {
	return d.Kind == parser.DiagNoZone || d.Kind == parser.DiagLocalTime
}
