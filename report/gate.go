package report

import (
	"fmt"
	"path/filepath"

	"watchlens/timeline"
)

// Refused says why a reconnect of the capture as recorded (or an
// observed resume, or a reconnect asked with --resume-at) would have got,
// or got, a 410, naming the first such reconnect in words; "" when none
// would: what --fail-on 410 tests, and what it says on failing.
func (r *Report) Refused() string { return r.firstWith(timeline.Refused) }

// AtRisk is Refused, or else why a reconnect is at risk of a 410: what
// --fail-on risk tests.
func (r *Report) AtRisk() string {
	if why := r.Refused(); why != "" {
		return why
	}
	return r.firstWith(timeline.AtRisk)
}

// gateWords are the sentences a gate says of the first reconnect with
// its outcome: the reconnects as recorded (how many of how many), one
// asked with --resume-at (file, cursor, instant, reason) and an observed
// resume the models judge (file, RV, instant, reason).
type gateWords struct{ recorded, resumeAt, predicted string }

var gates = map[timeline.Outcome]gateWords{
	timeline.Refused: {
		recorded:  "%d of the %d reconnects as recorded would have been refused (410 Gone)",
		resumeAt:  "a reconnect of %s's %s cursor at %s (--resume-at) would be refused: %s",
		predicted: "the models refuse %s's resume from RV %s at %s: %s",
	},
	timeline.AtRisk: {
		recorded:  "%d of the %d reconnects as recorded were at risk of a 410",
		resumeAt:  "a reconnect of %s's %s cursor at %s (--resume-at) would be at risk of a 410: %s",
		predicted: "the models put %s's resume from RV %s at %s at risk of a 410: %s",
	},
}

// firstWith walks the report's reconnects in the order a gate names
// them (as recorded, asked with --resume-at, observed resumes, the
// errors the server sent) and says why the first whose outcome is o
// has it; "" when none has. What the server answered, a 410 seen, only
// ever refuses.
func (r *Report) firstWith(o timeline.Outcome) string {
	words := gates[o]
	recorded := r.WhatIf.RelistsWithBookmarks
	if o == timeline.AtRisk {
		recorded = r.WhatIf.AtRiskWith
	}
	if recorded > 0 {
		if o == timeline.Refused && r.Gones > 0 {
			// What the servers answered comes first: the models judge
			// each reconnect from the evidence before it, and may put
			// one the server refused only at risk.
			return fmt.Sprintf("the records show %d 410 Gone, and the models, judging each reconnect from the evidence before it, refuse %d of the %d reconnects as recorded",
				r.Gones, recorded, r.WhatIf.Reconnects)
		}
		return fmt.Sprintf(words.recorded, recorded, r.WhatIf.Reconnects)
	}
	for _, q := range r.ResumeAt {
		if q.Outcome == o {
			return fmt.Sprintf(words.resumeAt, filepath.Base(q.File), q.Cursor, r.instant(q.Time), q.Reason)
		}
	}
	for _, rs := range r.Resumes {
		switch {
		case o == timeline.Refused && rs.Observed == timeline.Refused:
			return fmt.Sprintf("the server refused %s's resume from RV %s at %s (410 Gone)", filepath.Base(rs.File), rs.RV, r.instant(rs.Time))
		case rs.Predicted == o:
			return fmt.Sprintf(words.predicted, filepath.Base(rs.File), rs.RV, r.instant(rs.Time), rs.Reason)
		}
	}
	if o != timeline.Refused {
		return ""
	}
	for _, e := range r.Errors {
		if e.Code == 410 {
			return fmt.Sprintf("%s got 410 Gone at %s: %s", filepath.Base(e.File), r.instant(e.Time), e.Message)
		}
	}
	return ""
}
