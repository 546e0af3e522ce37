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
func (r *Report) Refused() string {
	if n := r.WhatIf.RelistsWithBookmarks; n > 0 {
		return fmt.Sprintf("%d of the %d reconnects as recorded would have been refused (410 Gone)", n, r.WhatIf.Reconnects)
	}
	for _, q := range r.ResumeAt {
		if q.Outcome == timeline.Refused {
			return fmt.Sprintf("a reconnect of %s's %s cursor at %s (--resume-at) would be refused: %s", filepath.Base(q.File), q.Cursor, r.instant(q.Time), q.Reason)
		}
	}
	for _, rs := range r.Resumes {
		switch {
		case rs.Observed == timeline.Refused:
			return fmt.Sprintf("the server refused %s's resume from RV %s at %s (410 Gone)", filepath.Base(rs.File), rs.RV, r.instant(rs.Time))
		case rs.Predicted == timeline.Refused:
			return fmt.Sprintf("the models refuse %s's resume from RV %s at %s: %s", filepath.Base(rs.File), rs.RV, r.instant(rs.Time), rs.Reason)
		}
	}
	for _, e := range r.Errors {
		if e.Code == 410 {
			return fmt.Sprintf("%s got 410 Gone at %s: %s", filepath.Base(e.File), r.instant(e.Time), e.Message)
		}
	}
	return ""
}

// AtRisk is Refused, or else why a reconnect is at risk of a 410: what
// --fail-on risk tests.
func (r *Report) AtRisk() string {
	if why := r.Refused(); why != "" {
		return why
	}
	if n := r.WhatIf.AtRiskWith; n > 0 {
		return fmt.Sprintf("%d of the %d reconnects as recorded were at risk of a 410", n, r.WhatIf.Reconnects)
	}
	for _, q := range r.ResumeAt {
		if q.Outcome == timeline.AtRisk {
			return fmt.Sprintf("a reconnect of %s's %s cursor at %s (--resume-at) would be at risk of a 410: %s", filepath.Base(q.File), q.Cursor, r.instant(q.Time), q.Reason)
		}
	}
	for _, rs := range r.Resumes {
		if rs.Predicted == timeline.AtRisk {
			return fmt.Sprintf("the models put %s's resume from RV %s at %s at risk of a 410: %s", filepath.Base(rs.File), rs.RV, r.instant(rs.Time), rs.Reason)
		}
	}
	return ""
}
