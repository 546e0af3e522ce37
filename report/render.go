package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// WriteJSON writes the report as indented JSON (the contract in
// REPORT.md), with "<" and "&" as they are (messages hold them; this is
// not HTML), as it goes (see streamJSON).
func (r *Report) WriteJSON(w io.Writer) error {
	return streamJSON(w, r)
}

// WriteText writes the report for a terminal.
func (r *Report) WriteText(w io.Writer) error {
	return r.write(w, false)
}

// WriteMarkdown writes the report as Markdown (tables), for issues and docs.
func (r *Report) WriteMarkdown(w io.Writer) error {
	return r.write(w, true)
}

// printer writes one section either as aligned text or as a Markdown table.
type printer struct {
	w   io.Writer
	md  bool
	err error
	// tail is the last two bytes written: a Markdown table needs a blank
	// line before it, or it reads as its paragraph's last lines.
	tail [2]byte
	// afterTable: a Markdown table was the last thing written, and the
	// line after it needs a blank line before it, or it reads as the
	// table's last row.
	afterTable bool
}

func (p *printer) printf(format string, a ...any) {
	if p.err != nil {
		return
	}
	s := fmt.Sprintf(format, a...)
	if p.afterTable {
		p.afterTable = false
		if !strings.HasPrefix(s, "\n") {
			s = "\n" + s
		}
	}
	_, p.err = io.WriteString(p.w, s)
	switch n := len(s); {
	case n >= 2:
		p.tail = [2]byte{s[n-2], s[n-1]}
	case n == 1:
		p.tail = [2]byte{p.tail[1], s[0]}
	}
}

func (p *printer) section(title string) {
	if p.md {
		p.printf("\n## %s\n\n", title)
	} else {
		p.printf("\n%s\n%s\n", title, strings.Repeat("-", len(title)))
	}
}

func (p *printer) table(head []string, rows [][]string) {
	if len(rows) == 0 {
		p.printf("(none)\n")
		return
	}
	// Every cell may hold a capture's strings.
	p.safeRows(rows)
	if p.md {
		switch {
		case p.tail[1] != '\n':
			p.printf("\n\n")
		case p.tail[0] != '\n':
			p.printf("\n")
		}
		p.printf("| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
		for _, r := range rows {
			p.printf("| %s |\n", strings.Join(r, " | "))
		}
		p.afterTable = true
		return
	}
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = len(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(r)-1 { // the last column (often a sentence) is not padded
				width[i] = max(width[i], len(c))
			}
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			if i < len(cells)-1 {
				fmt.Fprintf(&b, "%-*s", width[i], c)
			} else {
				b.WriteString(c)
			}
		}
		p.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
	line(head)
	for _, r := range rows {
		line(r)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// instant shows a time field of the report (RFC 3339 UTC, the JSON
// contract) as every sentence writes an instant, in the report's zone;
// "-" when it has none.
func (r *Report) instant(s string) string {
	return r.render(s, func(t int64) string { return timeline.FormatInstant(t, r.zone) })
}

// closingWords writes when a process stopped taking new requests, as
// from (the JSON's closingFrom) shows it: "at T" where its own log
// shows it, "T to U (its scrapes)" where its scrapes bound it, "at T
// (its audit log)" where that shows it, "-" where no record shows it.
func (r *Report) closingWords(closing, by *string, from string) string {
	switch {
	case closing == nil || by == nil:
		return "-"
	case from == timeline.ClosingAudited.String():
		return "at " + r.instant(*closing) + " (its audit log)"
	case *by == *closing:
		return "at " + r.instant(*closing)
	}
	return r.instant(*closing) + " to " + r.instant(*by) + " (its scrapes)"
}

// render reads s, an instant as the JSON holds it, and writes it with
// format; s itself ("-" for "") where it is no instant.
func (r *Report) render(s string, format func(int64) string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return orDash(s)
	}
	return format(t.UnixNano())
}

// second is instant s to the second (timeline.FormatSecond).
func (r *Report) second(s string) string {
	return r.render(s, func(t int64) string { return timeline.FormatSecond(t, r.zone) })
}

// instantFrom is the instant a stretch begins at, rounded up to the
// millisecond shown (timeline.CeilMillisecond): a reconnect asked for at
// the instant read gets the stretch's answer.
func (r *Report) instantFrom(s string) string {
	return r.render(s, func(t int64) string { return timeline.FormatInstant(timeline.CeilMillisecond(t), r.zone) })
}

// write writes the report's sections in order, each by its own method.
func (r *Report) write(w io.Writer, md bool) error {
	p := &printer{w: w, md: md}
	for _, section := range []func(*printer){
		r.writeSummary, r.writeResumeAt, r.writeFleet, r.writeServers, r.writeMetrics,
		r.writeFiles, r.writeCounts, r.writeSessions, r.writeCadence, r.writeErrors,
		r.writeRelists, r.writeWatchLists, r.writeCursors, r.writeGaps, r.writeZones,
		r.writeRiskZones, r.writeHorizons, r.writeHadBookmarks, r.writeRestarts,
		r.writeResumes, r.writeWhatIf, r.writeAnomalies, r.writeDiagnostics,
	} {
		section(p)
	}
	return p.err
}

// writeSummary writes the title, the verdict in words and the models'
// parameters.
func (r *Report) writeSummary(p *printer) {
	if p.md {
		p.printf("# watchlens report\n")
	} else {
		p.printf("watchlens report\n================\n")
	}
	p.section("Summary")
	for _, l := range r.Summary {
		if p.md {
			p.printf("- %s\n", p.safe(l.Text))
		} else {
			p.printf("* %s\n", p.safe(l.Text))
		}
	}
	pr := r.Params
	var windows []string
	for _, w := range pr.RestartWindows {
		windows = append(windows, r.instant(w.From)+" to "+r.instant(w.To))
	}
	served := "watches served from the watch cache"
	if !pr.WatchCache {
		served = "watches served from etcd (no watch cache)"
	}
	restarts := orDash(strings.Join(windows, ", "))
	if len(windows) == 0 && r.restartsLogged {
		restarts = "those of the audit logs, each server's own"
	}
	etcd := timeline.FormatSeconds(pr.EtcdIntervalSeconds)
	if every := pr.EtcdCompactedEverySeconds; every > 0 && every != pr.EtcdIntervalSeconds {
		etcd += fmt.Sprintf(" (the exports show etcd compacting every %s: -etcd-interval %s models that)", timeline.FormatSeconds(every), timeline.FormatSeconds(every))
	}
	p.printf("\nModels: watch cache %s of history, %d events; etcd compaction %s; reconnect delay %s; %s; restarts %s; servers %d.\n",
		timeline.FormatSeconds(pr.CacheWindowSeconds), pr.CacheCount, etcd, timeline.FormatSeconds(pr.DelaySeconds),
		served, restarts, pr.Servers)
}

// writeResumeAt answers the reconnect instants asked with --resume-at,
// when any was.
func (r *Report) writeResumeAt(p *printer) {
	if len(r.ResumeAt) == 0 {
		return
	}
	p.section("Reconnect at the instants asked (--resume-at)")
	servers := false
	for _, q := range r.ResumeAt {
		servers = servers || q.ServerWords != ""
	}
	var rows [][]string
	for _, q := range r.ResumeAt {
		row := []string{r.instant(q.Time), q.File, q.Cursor, orDash(q.RV), q.Outcome.String()}
		if servers {
			row = append(row, orDash(q.ServerWords))
		}
		rows = append(rows, append(row, orDash(q.Model), q.Reason))
	}
	head := []string{"reconnect", "file", "cursor", "RV", "verdict"}
	if servers {
		head = append(head, "by server")
	}
	p.table(append(head, "model", "reason"), rows)
}

func (r *Report) writeFiles(p *printer) {
	p.section("Files")
	var rows [][]string
	for _, f := range r.Files {
		rows = append(rows, []string{f.Name, f.Clock, orDash(f.Kind), f.Filtered, fmt.Sprint(f.Events), fmt.Sprint(f.Sessions),
			orDash(f.FirstRV), orDash(f.LastRV), r.instant(f.Start), r.instant(f.End)})
	}
	p.table([]string{"file", "clock", "kind", "scope", "events", "sessions", "first RV", "last RV", "start", "end"}, rows)
	p.printf("\nClock: \"arrival\" = recorded arrival times; \"estimated\" = HTTP Date headers, managedFields times, timeoutSeconds deadlines and the 60s bookmark cadence, each to the second, but an event dated by its object's last update may have come well after it, so estimated instants and ages can be off by seconds or more; \"none\" = no time, time models answer unknown.\n")
}

func (r *Report) writeCounts(p *printer) {
	p.section("Counts")
	var rows [][]string
	// The totals over every kind, unless one kind holds them all, whose
	// rows would say each count twice.
	if len(r.CountsByKind) != 1 || !maps.Equal(r.Counts, r.CountsByKind[sortedKeys(r.CountsByKind)[0]]) {
		for _, t := range sortedKeys(r.Counts) {
			rows = append(rows, []string{"all kinds", t, fmt.Sprint(r.Counts[t])})
		}
	}
	for _, k := range sortedKeys(r.CountsByKind) {
		for _, t := range sortedKeys(r.CountsByKind[k]) {
			rows = append(rows, []string{k, t, fmt.Sprint(r.CountsByKind[k][t])})
		}
	}
	p.table([]string{"kind", "type", "count"}, rows)
}

func (r *Report) writeSessions(p *printer) {
	p.section("Sessions")
	var rows [][]string
	for _, s := range r.Sessions {
		req := "-"
		if q := s.Request; q != nil {
			req = fmt.Sprintf("rv=%q bookmarks=%v initial=%v timeout=%d", q.ResourceVersion, q.AllowWatchBookmarks, q.SendInitialEvents, q.TimeoutSeconds)
			if q.LabelSelector != "" {
				req += " labels=" + q.LabelSelector
			}
			if q.FieldSelector != "" {
				req += " fields=" + q.FieldSelector
			}
		}
		gap := "-"
		if s.GapSeconds != nil {
			gap = timeline.FormatSeconds(*s.GapSeconds)
		}
		end := s.EndReason
		if s.Error != "" {
			end += ": " + s.Error
		}
		rows = append(rows, []string{s.File, fmt.Sprint(s.Index), fmt.Sprint(s.HTTPStatus), r.instant(s.Start), r.instant(s.End),
			orDash(s.StartRV), orDash(s.EndRV), fmt.Sprint(s.Events), fmt.Sprint(s.Bookmarks), gap, req, end})
	}
	p.table([]string{"file", "#", "http", "start", "end", "first RV", "last RV", "events", "bookmarks", "gap", "request", "ended"}, rows)
}

func (r *Report) writeCadence(p *printer) {
	p.section("Bookmark cadence")
	var rows [][]string
	for _, c := range r.Cadence {
		m := "estimated"
		if c.Measured {
			m = "measured"
		}
		rows = append(rows, []string{c.File, fmt.Sprint(c.Session), fmt.Sprint(c.Bookmarks), timeline.FormatSeconds(c.MedianSeconds),
			timeline.FormatSeconds(c.MaxGapSeconds), r.instant(c.MaxGapFrom), orDash(c.MaxGapFromRV), m})
	}
	p.table([]string{"file", "session", "bookmarks", "median interval", "longest silence", "from", "at RV", "times"}, rows)
}

func (r *Report) writeErrors(p *printer) {
	p.section("Observed errors")
	var rows [][]string
	for _, e := range r.Errors {
		hist := "-"
		if e.MinHistorySeconds != nil {
			hist = "at least " + timeline.FormatSeconds(*e.MinHistorySeconds) + " of history"
		}
		rows = append(rows, []string{e.File, fmt.Sprint(e.Session), r.instant(e.Time), fmt.Sprint(e.Code), e.Reason, orDash(e.X), orDash(e.Y), hist, e.Message})
	}
	p.table([]string{"file", "session", "time", "code", "reason", "X", "Y", "implies", "message"}, rows)
	if n := r.Gones - r.listedGones(); n > 0 {
		lead := "Beside these, "
		if len(rows) == 0 {
			lead = "But "
		}
		p.printf("%s%d 410 Gone only the clients' own logs show or the audit logs imply (the summary tells them).\n", lead, n)
	}
}

// listedGones counts the 410s among the observed errors.
func (r *Report) listedGones() int {
	n := 0
	for _, e := range r.Errors {
		if e.Code == 410 {
			n++
		}
	}
	return n
}

func (r *Report) writeRelists(p *printer) {
	p.section("Relists (LISTs and WatchLists after a client's first sync, or after a 410)")
	var rows [][]string
	for _, rl := range r.Relists {
		objects := fmt.Sprint(rl.Objects)
		if rl.Unread {
			objects = "-" // its records do not show what it read
		}
		rows = append(rows, []string{rl.File, fmt.Sprint(rl.Session), r.instant(rl.Time), rl.Kind, rl.Source, objects, orDash(rl.RV), rl.Cause, r.instant(rl.CauseTime), orDash(rl.CauseMessage)})
	}
	p.table([]string{"file", "session", "time", "kind", "served from", "objects", "RV", "cause", "cause at", "cause's message"}, rows)
}

func (r *Report) writeCursors(p *printer) {
	p.section("Cursors")
	var rows [][]string
	for _, c := range r.Cursors {
		rows = append(rows, []string{c.File, c.Cursor, orDash(c.FinalRV), timeline.FormatSeconds(c.LongestAgeSeconds), orDash(c.LongestAgeRV),
			r.instant(c.LongestAgeAt), c.LongestAgeRVs, r.instant(c.LongestAgeRVsAt)})
	}
	p.table([]string{"file", "cursor", "final RV", "longest age", "at RV", "until", "most RVs behind", "at"}, rows)
}

func (r *Report) writeGaps(p *printer) {
	p.section(fmt.Sprintf("Gaps (cursor still while the head moved; %d in all, longest first)", r.GapCount))
	var rows [][]string
	for _, g := range r.Gaps {
		rows = append(rows, []string{g.File, g.Cursor, r.instant(g.From), r.instant(g.To), g.RV, g.HeadRV, timeline.FormatSeconds(g.AgeSeconds), g.AgeRVs})
	}
	p.table([]string{"file", "cursor", "from", "to", "cursor RV", "head RV", "age", "RVs behind"}, rows)
}

func (r *Report) writeZones(p *printer) {
	p.section("Red zones (a drop here, resumed after the delay, gets 410)")
	r.zones(p, r.Zones)
}

func (r *Report) writeRiskZones(p *printer) {
	p.section("At risk (past what the server is sure to keep; it may or may not refuse)")
	r.zones(p, r.RiskZones)
}

// zones writes the table of red or at-risk zones.
func (r *Report) zones(p *printer, zs []ZoneReport) {
	var rows [][]string
	for _, z := range zs {
		rows = append(rows, []string{z.File, z.Cursor, z.Model, r.instant(z.FromTime), r.instant(z.ToTime), z.FromRV, z.ToRV, z.Reason})
	}
	p.table([]string{"file", "cursor", "model", "from", "to", "from RV", "to RV", "reason"}, rows)
}

func (r *Report) writeHorizons(p *printer) {
	p.section("Horizons (how long after each drop a reconnect stays safe)")
	var rows [][]string
	for _, h := range r.Horizons {
		risk, refused := "-", "-"
		if h.AtRiskFrom != nil {
			risk = r.instant(*h.AtRiskFrom) + " (" + h.AtRiskModel + ")"
			if h.SafeAgainFrom != nil {
				risk += "; safe again from " + r.instant(*h.SafeAgainFrom)
				if h.SafeAgainUntil != nil {
					risk += " until " + r.instant(*h.SafeAgainUntil)
				}
			}
		}
		if h.RefusedFrom != nil {
			refused = r.instant(*h.RefusedFrom) + " (" + h.RefusedModel + ")"
		}
		if h.Unknown != "" {
			risk, refused = "unknown", h.Unknown
		}
		rows = append(rows, []string{h.File, fmt.Sprint(h.Session), h.Cursor, r.instant(h.Drop), orDash(h.RV), risk, refused})
	}
	p.table([]string{"file", "after session", "cursor", "drop", "RV", "at risk from", "refused from"}, rows)
}

func (r *Report) writeHadBookmarks(p *printer) {
	p.section("Had it asked for bookmarks")
	var rows [][]string
	for _, c := range r.HadBookmarks {
		rows = append(rows, []string{c.File, fmt.Sprint(c.Synthetic), fmt.Sprint(c.Bookmarks), fmt.Sprint(c.Unknown), c.Why})
	}
	p.table([]string{"file", "bookmarks added", "count", "head unknown", "how"}, rows)
}

func (r *Report) writeRestarts(p *printer) {
	switch {
	case len(r.Params.RestartWindows) > 0:
		p.section("Probable restarts (the models apply the -restart windows of the parameters above)")
	case r.restartsLogged:
		p.section("API server restarts (from the audit logs: each reconnect is judged by the restarts of the server it reached)")
	default:
		p.section("Probable restarts (not applied unless given with -restart)")
	}
	// When each server was told to stop, where a server log shows it
	// of some restart: without server logs the column is left out, not
	// all dashes.
	sigterms := slices.ContainsFunc(r.Restarts, func(d DetectedRestartReport) bool { return d.SIGTERM != nil })
	closings := slices.ContainsFunc(r.Restarts, func(d DetectedRestartReport) bool { return d.Closing != nil })
	head := []string{"server"}
	if sigterms {
		head = append(head, "told to stop (its log)")
	}
	if closings {
		head = append(head, "took no new request")
	}
	head = append(head, "watches ended", "last ended", "served again", "watches", "files", "relists it caused", "-restart")
	var rows [][]string
	caused := 0
	for _, d := range r.Restarts {
		row := []string{orDash(d.Restarted)}
		if sigterms {
			sigterm := "-"
			if d.SIGTERM != nil {
				sigterm = r.instant(*d.SIGTERM)
			}
			row = append(row, sigterm)
		}
		if closings {
			row = append(row, r.closingWords(d.Closing, d.ClosingBy, d.ClosingFrom))
		}
		rows = append(rows, append(row, r.instant(d.Ended), r.instant(d.LastEnded), r.instant(d.Served), fmt.Sprint(d.Streams), fmt.Sprint(d.Files),
			fmt.Sprintf("%d (%s)", d.Relists, quantity.Plural(d.Clients, "client")), d.Flag))
		caused += d.Relists
	}
	p.table(head, rows)
	if n := len(r.Relists); n > 0 && len(r.Restarts) > 0 {
		t := fmt.Sprintf("%d of the %d relists followed a 410 Gone at the reconnect after a watch one of these restarts ended.", caused, n)
		if caused < n {
			t += " The others followed watches that ended otherwise: at their deadline, or with an error."
		}
		p.printf("%s\n", t)
	}
}

func (r *Report) writeResumes(p *printer) {
	p.section("Observed resumes against the models")
	var rows [][]string
	servers := false
	for _, s := range r.Resumes {
		servers = servers || s.Server != ""
	}
	for _, s := range r.Resumes {
		agree := "yes"
		switch {
		case s.Contradicts:
			agree = "NO"
		case !s.Agree:
			agree = "undecided"
		}
		row := []string{s.File, fmt.Sprint(s.Session), r.instant(s.Time), s.RV, s.Observed.String(), s.Predicted.String(), agree, s.Reason}
		if servers {
			// The server that answered, which the prediction is for.
			row = append(row[:4], append([]string{orDash(serverLabel(s.Server, s.Incarnation))}, row[4:]...)...)
		}
		rows = append(rows, row)
	}
	head := []string{"file", "session", "time", "RV", "observed", "predicted", "agree", "reason"}
	if servers {
		head = []string{"file", "session", "time", "RV", "server", "observed", "predicted", "agree", "reason"}
	}
	p.table(head, rows)
}

// WhatIfBesideFleet says, beside the what-if's figures, why the fleet's
// differ, with both sides' numbers: the text report and the page's
// Findings both say it. asRecorded is the what-if's relists with the
// bookmarks received; made, allAsked and noneAsked the fleet's relists
// made, had every client asked for bookmarks and had none (the least it
// could be with atLeast); watchLists the WatchList clients that asked
// for bookmarks. Both sides' numbers are given: the two sets of figures
// answer different questions, and without them read as a
// contradiction. The fleet's side counts what a client did where it
// relisted, and each reconnect of a WatchList client that asked for
// bookmarks, where the what-if's judges every reconnect by the models.
func WhatIfBesideFleet(asRecorded, made, allAsked, noneAsked int, atLeast bool, watchLists int) string {
	least := ""
	if atLeast {
		least = "at least "
	}
	counted := "they count what a client did where it relisted"
	if watchLists > 0 {
		counted += ", and each reconnect of a WatchList client that asked for bookmarks, which without them would never have synced"
	}
	return fmt.Sprintf("These figures judge each recorded reconnect by the models alone, each client with the cursor it had: with the bookmarks the clients received (none for those that did not ask), %s would have needed a relist. The summary's figures count the relists the clients made (%d) and ask how many every client would have made had all asked for bookmarks (%d) or none (%s%d): %s, not the models' verdicts.",
		quantity.Plural(asRecorded, "reconnect"), made, allAsked, least, noneAsked, counted)
}

func (r *Report) writeWhatIf(p *printer) {
	p.section("What if (reconnects as recorded)")
	wi := r.WhatIf
	p.printf("reconnects: %d\nrelists with the bookmarks received: %d, at risk %d (longest cursor age at a reconnect %s)\nrelists ignoring bookmarks: %d, at risk %d (longest cursor age at a reconnect %s)\nrelists had it asked for bookmarks: %d, at risk %d, unknown %d (longest cursor age at a reconnect %s)\nrelists saved by the bookmarks received: %s\n",
		wi.Reconnects, wi.RelistsWithBookmarks, wi.AtRiskWith, timeline.FormatSeconds(wi.LongestAgeWithSeconds), wi.RelistsWithoutBookmarks, wi.AtRiskWithout, timeline.FormatSeconds(wi.LongestAgeWithoutSeconds),
		wi.RelistsHad, wi.AtRiskHad, wi.UnknownHad, timeline.FormatSeconds(wi.LongestAgeHadSeconds), timeline.SavedWords(wi.RelistsSaved, wi.RelistsWithoutBookmarks, wi.PercentSaved))
	if wi.UnknownWith+wi.UnknownWithout > 0 {
		p.printf("undecided (no clock or no cursor): %d with, %d without bookmarks\n", wi.UnknownWith, wi.UnknownWithout)
	}
	if r.Fleet != nil {
		// The summary's fleet figure answers another question, and its
		// numbers differ: say which.
		p.printf("%s\n", WhatIfBesideFleet(wi.RelistsWithBookmarks, r.Fleet.Observed, r.Fleet.With, r.Fleet.Without, r.Fleet.WithoutAtLeast, r.Fleet.WatchListsAsked))
	}
	if len(wi.Points) == 0 {
		return
	}
	p.printf("\n")
	var rows [][]string
	for _, pt := range wi.Points {
		rows = append(rows, []string{pt.File, fmt.Sprint(pt.Session), r.instant(pt.Time), orDash(pt.WithRV), pt.With.String(), orDash(pt.WithoutRV), pt.Without.String(), orDash(pt.HadRV), pt.Had.String(), pt.WithoutReason})
	}
	p.table([]string{"file", "after session", "reconnect", "with RV", "with", "without RV", "without", "had RV", "had", "why (without)"}, rows)
}

func (r *Report) writeAnomalies(p *printer) {
	p.section("Anomalies")
	var rows [][]string
	for _, a := range r.Anomalies {
		rows = append(rows, []string{a.File, fmt.Sprint(a.Session), r.instant(a.Time), orDash(a.RV), a.Kind, a.Message})
	}
	p.table([]string{"file", "session", "time", "RV", "kind", "message"}, rows)
	p.anomaliesLeftOut(r)
}

// writeDiagnostics writes the problems in the input, then, in a section
// of their own when there are any, the doubts about what the records
// mean: a doubt is no fault of the input, and an engineer counting the
// input's problems must not count it.
func (r *Report) writeDiagnostics(p *printer) {
	var problems, doubts [][]string
	for _, d := range r.Diagnostics {
		row := []string{d.File, fmt.Sprint(d.Offset), fmt.Sprint(d.Line), r.instant(d.Time), orDash(d.RV), d.Kind, d.Msg}
		if d.Doubt {
			doubts = append(doubts, row)
		} else {
			problems = append(problems, row)
		}
	}
	header := []string{"file", "offset", "line", "next event", "RV", "kind", "message"}
	p.section("Parser diagnostics")
	p.table(header, problems)
	if len(doubts) > 0 {
		p.section("Doubts: what the records cannot tell")
		p.table(header, doubts)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// anomaliesLeftOut writes, after the anomaly table, a line per kind of
// which the report lists only the first ones.
func (p *printer) anomaliesLeftOut(r *Report) {
	listed := map[string]int{}
	for _, a := range r.Anomalies {
		listed[a.Kind]++
	}
	kinds := make([]string, 0, len(r.AnomalyCounts))
	for k := range r.AnomalyCounts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		if more := r.AnomalyCounts[k] - listed[k]; more > 0 {
			p.printf("\nand %d more %q anomalies (the first %d are listed)\n", more, k, listed[k])
		}
	}
}
