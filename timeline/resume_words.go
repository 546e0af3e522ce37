package timeline

// ResumeAtWords is what the summary says of a reconnect at q, as it says
// it when the user asks q with --resume-at: for a fleet, what a reconnect
// of every client then would cost; else one line for the instant. The
// page says it beside a reconnect marker; the summary itself keeps at
// most six lines, which may leave it out.
func (a *Analysis) ResumeAtWords(q ResumeQuery) []SummaryLine {
	s := summarizer{a: a, qs: []ResumeQuery{q}}
	s.resumeAt()
	return s.lines
}
