package timeline

import (
	"fmt"

	"watchlens/parser"
)

// IsDoubt says a diagnostic is a doubt about what the records mean, not
// a problem in the input: the page lists it apart, in plain words
// (DoubtWords).
func IsDoubt(d parser.Diagnostic) bool {
	return d.Kind == DiagUnsureSplit || d.Kind == DiagSameWatch || d.Kind == DiagLateStamps
}

// DoubtWords says a doubt as a sentence: "At line 812 of an audit log,
// a doubt: this client's requests may be informer 2's from this request
// on, ...", "A doubt: this capture holds the same watch as ...", "A
// doubt: the capture stamps the last bytes of 6 events ...".
func DoubtWords(d parser.Diagnostic) string {
	if d.Kind == DiagUnsureSplit {
		return fmt.Sprintf("At line %d of an audit log, a doubt: %s.", d.Line, d.Msg)
	}
	return fmt.Sprintf("A doubt: %s.", d.Msg)
}
