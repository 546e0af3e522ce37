package canvas

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// FleetHit is what lies under the pointer in the fleet view: a tooltip,
// and the row a click opens (-1 for none).
type FleetHit struct {
	Text string
	Row  int
}

// HitTest answers for the pointer at (x, y) in CSS pixels of the canvas.
func (d *FleetData) HitTest(v *FleetViewport, l *FleetLayout, x, y float64) FleetHit {
	h := FleetHit{Row: -1}
	area := l.AreaAt(y)
	if area == FleetRows {
		h.Row = l.RowAt(y, v.ScrollY)
	}
	if x < l.PlotX-2 && h.Row < 0 {
		return h
	}
	s := v.Scale(l)
	at := s.At(max(l.PlotX, min(x, l.PlotX+l.PlotW)))
	slop := max(int64(math.Ceil(hitSlop*float64(s.To-s.From)/s.Width)), 1)
	var lines []string
	switch area {
	case FleetAxis:
		lines = append(lines, clock(at, d.zone))
	case FleetCurves:
		lines = d.curveLines(lines, at)
	case FleetHistogram:
		b := math.Floor((x - l.PlotX) / fleetBinPx)
		from, to := s.At(l.PlotX+b*fleetBinPx), s.At(l.PlotX+(b+1)*fleetBinPx)
		lines = append(lines, quantity.Plural(d.RelistsIn(from, to), "relist")+" seen from "+clock(from, d.zone)+" to "+clock(to, d.zone)+
			" (a client reading its whole list again)")
		if by := d.relistsByServer(from, to); by != "" {
			lines = append(lines, "answered by server: "+by)
		}
	case FleetRows:
		if h.Row >= 0 {
			when := at
			if x < l.PlotX {
				when = onName // the name column: no instant
			}
			lines = append(lines, d.rowText(h.Row, when, slop)...)
		} else if g := l.HeadAt(y, v.ScrollY); g >= 0 {
			lines = append(lines, d.groupText(g)...)
		}
	}
	if area == FleetCurves || area == FleetHistogram {
		for _, o := range d.Outages {
			switch {
			case at < o.From-slop || at > o.To+slop:
			case o.Silent:
				lines = append(lines, "No server reached: "+o.SilenceWords(func(t int64) string { return clock(t, d.zone) })+":", o.CauseWords()+".")
			default:
				clockAt := func(t int64) string { return clock(t, d.zone) }
				lines = append(lines, "No server reached: no request of the captured clients reached a server from "+clockAt(o.From)+
					" to "+clockAt(o.LastAttempt)+" ("+strconv.Itoa(o.Attempts)+" attempts by "+quantity.Plural(o.Clients, "client")+"),", o.FirstAnsweredWords(clockAt)+": "+o.CauseWords()+".")
				if o.Error != "" {
					lines = append(lines, "Commonest error: "+o.Error)
				}
				if back := o.BackWords(clockAt); back != "" {
					lines = append(lines, strings.ToUpper(back[:1])+back[1:]+".")
				}
			}
			if area == FleetCurves && at >= o.From && at < o.To {
				// The curves count each reconnect as answered then
				// (timeline's zones of drops that wait for an outage).
				lines = append(lines, "A reconnect then waits for a server: the counts above are the answers at "+clock(o.To, d.zone)+", once a client's request reached one again.")
			}
		}
		for _, r := range d.Restarts {
			if w := r.Window(); !r.Unreachable && at >= w.From-slop && at <= w.To+slop {
				what := "API server restart"
				if r.ServerName != "" {
					what = "API server " + r.ServerName + " restart"
				}
				if !r.Shown() {
					// The clients' watches alone suggest it.
					what = "Probable API server restart"
				}
				ended := quantity.Plural(len(r.Sessions), "watch") + " in " + quantity.Plural(r.Files, "client") + " ended"
				if r.Relists > 0 {
					// The histogram's bins under the pointer may split
					// the burst the restart caused: its own count says it.
					ended += fmt.Sprintf("; %d of those clients then got 410 Gone and relisted, %s in all", r.RelistClients, quantity.Plural(r.Relists, "relist"))
				}
				lines = append(lines, what+": its watches ended at "+clock(r.Ended, d.zone)+", "+r.ServedWords(clock(r.Served, d.zone))+" ("+ended+")")
			}
		}
	}
	h.Text = strings.Join(lines, "\n")
	return h
}

// curveLines appends what the curves say at instant at. Off the shared
// clock nothing was recorded and the curves stop: the hover says so and,
// past the clock's end, gives the counts of its last instant, the clients
// still recorded then. A client counts only while recorded (timeline
// File.EndsBefore), so past the end a reconnect of every client (Alt-click:
// Reconnect at) judges none: one client's cursor as it was left is its own
// timeline's answer.
func (d *FleetData) curveLines(lines []string, at int64) []string {
	switch {
	case at < d.clockStart:
		return append(lines, words.RecordingBegins(true, clock(d.clockStart, d.zone))+".")
	case at > d.clockEnd:
		lines = append(lines, words.RecordingEnds(true, clock(d.clockEnd, d.zone))+", and the curves stop there.")
		lines = d.stampedeLines(lines, d.clockEnd)
		return append(lines, "Past it nothing shows the clients still watching; a client's own timeline (click its row) judges its cursor as it was left.")
	}
	return d.stampedeLines(lines, at)
}

// stampedeLines appends the curves' counts at instant at of the clock.
func (d *FleetData) stampedeLines(lines []string, at int64) []string {
	st := d.StepAt(at)
	if d.Fleet.AllBookmarksUnseen() {
		// One answer: the cursor each client's log shows.
		lines = append(lines, "Had every watch dropped at "+clock(at, d.zone)+", the reconnects would have sent",
			quantity.Plural(st.Without, "client")+" to relist, each with the cursor its log shows",
			"(whether it asked for bookmarks, its log does not show).")
		if st.AtRiskWithout > 0 {
			lines = append(lines, strconv.Itoa(st.AtRiskWithout)+" more might be (dashed: the evidence cannot say whether the server still had their resourceVersion).")
		}
		if by := d.stampedeByServer(at, false); by != "" {
			lines = append(lines, "By the server each client was on: "+by+".")
		}
		return lines
	}
	lines = append(lines, "Had every watch dropped at "+clock(at, d.zone)+", the reconnects would have sent",
		quantity.Plural(st.Without, "client")+" to relist without bookmarks,",
		strconv.Itoa(st.With)+" with bookmarks.")
	if st.AtRiskWith > 0 || st.AtRiskWithout > 0 {
		lines = append(lines, "without bookmarks: "+strconv.Itoa(st.Without)+" sent to relist, "+strconv.Itoa(st.AtRiskWithout)+" might be;",
			"with bookmarks: "+strconv.Itoa(st.With)+" sent to relist, "+strconv.Itoa(st.AtRiskWith)+" might be",
			"(dashed: the evidence cannot say whether the server still had their resourceVersion).")
	}
	if by := d.stampedeByServer(at, false); by != "" {
		lines = append(lines, "Without bookmarks, by the server each client was on: "+by+".")
	}
	return lines
}

// groupText says what group g of the rows holds, under its header.
func (d *FleetData) groupText(g int) []string {
	gr := d.Groups[g]
	if gr.Server < 0 {
		return []string{quantity.Plural(gr.Rows, "client") + " that no audit log places on an API server:",
			"their requests are in none of the audit logs opened. Riskiest first."}
	}
	return []string{quantity.Plural(gr.Rows, "client") + " " + d.longestOn(gr.Server) + ":",
		"for most of the recording, the audit logs show it answering their requests. Riskiest first."}
}

// rowText describes a client's row at instant at.
// onName is rowText's instant for the pointer over the row's name: the
// row is told without an instant's answers.
const onName = math.MinInt64

func (d *FleetData) rowText(r int, at, slop int64) []string {
	row := &d.Rows[r]
	c := row.Client
	had, lacked := "without bookmarks", "with bookmarks"
	if c.Bookmarks {
		had, lacked = lacked, had
	}
	// The row's zones, as the curves, stop at the clock's end: past it
	// the verdicts are those of its last instant, said as such.
	judged := min(at, d.clockEnd)
	verdict := func(spans [][2]int64) string {
		if spanAt(spans, judged) {
			return "refused (410 Gone): a relist"
		}
		return "accepted"
	}
	lines := []string{words.Isolated(c.Name)}
	if row.MayMix {
		lines = append(lines, mayMixWords)
	}
	asked := map[bool]string{true: "yes", false: "no"}[c.Bookmarks]
	if c.BookmarksUnseen {
		// Its own log names no request's parameters: Bookmarks is its
		// library's default, not what it did.
		asked = "not shown (its log names no request's parameters)"
		had, lacked = "with the cursor its log shows", ""
	}
	seen := "asked for bookmarks: " + asked + "; relists seen: " + strconv.Itoa(len(c.Relists))
	if c.EndsAtGone {
		seen += "; one more due: its records end at a 410 Gone"
	}
	lines = append(lines, seen)
	switch {
	case at == onName:
	case c.NeverSynced:
		// No cursor to resume from: the reconnect-at answer's words.
		lines = append(lines, "a reconnect at "+clock(at, d.zone)+": no cursor to resume from (it never synced), so it reads its whole selection again; never refused with a 410")
	case at < d.clockStart:
		lines = append(lines, "a reconnect at "+clock(at, d.zone)+": the recordings begin at "+clock(d.clockStart, d.zone)+", nothing was recorded before it")
	case d.tl.Files[c.File].EndsBefore(judged):
		// Its spans stop there, as the curves count it.
		lines = append(lines, "its recording ends at "+clock(d.tl.Files[c.File].End, d.zone)+": nothing shows it still watching after it, and the curves do not count it then")
	case at > d.clockEnd:
		lines = append(lines, "the recordings end at "+clock(d.clockEnd, d.zone)+"; a reconnect then, "+had+" (as it ran): "+verdict(row.Own()))
		if lacked != "" {
			lines = append(lines, lacked+": "+verdict(row.Other()))
		}
	default:
		lines = append(lines, "a reconnect at "+clock(at, d.zone)+", "+had+" (as it ran): "+verdict(row.Own()))
		if lacked != "" {
			lines = append(lines, lacked+": "+verdict(row.Other()))
		}
	}
	if srv, inc := serverAt(row.stints, at); at != onName && srv >= 0 {
		lines = append(lines, "on server "+d.serverName(srv, inc)+" then; answered by "+row.Servers)
	}
	if p := c.Profile; p.Library != timeline.LibraryUnknown {
		lib := "client library: " + p.Words()
		if p.RecognisedBy != "" {
			lib += "; " + p.RecognisedBy
		}
		lines = append(lines, lib)
	}
	if c.NeverSynced {
		lines = append(lines, "never synced: its WatchList stream never sent the end of the initial list; it read its whole selection "+quantity.Plural(len(row.Reads), "time"))
	}
	lines = append(lines, c.ProfileDifferences...)
	for _, rl := range c.Relists {
		if at != onName && absInt64(rl.T-at) <= slop {
			lines = append(lines, "relisted at "+clock(rl.T, d.zone)+", after "+causeText(rl.Cause)+"; a "+rl.Kind.String()+" from "+rl.Source.Words())
		}
	}
	for k, t := range row.Reads {
		if at != onName && absInt64(t-at) <= slop {
			again := " again"
			if k == 0 {
				again = ""
			}
			lines = append(lines, "read its whole selection"+again+" at "+clock(t, d.zone)+": a WatchList request whose sync never ended")
		}
	}
	return append(lines, "click: open this client's timeline")
}

// causeText says in words why a client relisted.
func causeText(cause timeline.RelistCause) string {
	switch cause {
	case timeline.CauseGone:
		return "410 Gone: the server no longer had its cursor"
	case timeline.CauseError:
		return "an error"
	}
	return "nothing seen"
}

// clock shows an instant of the shared clock in a tooltip, the date being
// the axis's.
