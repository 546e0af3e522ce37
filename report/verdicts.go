package report

import (
	"math"

	"watchlens/timeline"
)

// CounterfactualReport is one file's had-bookmarks cursor.
// It is the JSON contract's `hadBookmarks[]` (REPORT.md).
type CounterfactualReport struct {
	File string `json:"file"`
	// Synthetic: bookmarks were added where the watch got none; false:
	// the cursor is the bookmark-aware one (Why says why).
	Synthetic bool   `json:"synthetic"`
	Why       string `json:"why"`
	Bookmarks int    `json:"bookmarks"`
	// Unknown counts the added bookmarks whose RV no capture shows, the
	// first at FirstUnknown ("" when none).
	Unknown      int    `json:"unknown"`
	FirstUnknown string `json:"firstUnknown"`
}

// HorizonReport is one drop's horizon for one cursor.
// It is the JSON contract's `horizons[]` (REPORT.md).
type HorizonReport struct {
	File    string `json:"file"`
	Session int    `json:"session"`
	Cursor  string `json:"cursor"`
	Drop    string `json:"drop"`
	RV      string `json:"rv"`
	// LastCurrent is when the cursor was last known current.
	LastCurrent string `json:"lastCurrent"`
	// AtRiskFrom and RefusedFrom are null when nothing the files show
	// puts a reconnect there.
	AtRiskFrom    *string `json:"atRiskFrom"`
	AtRiskModel   string  `json:"atRiskModel,omitempty"`
	AtRiskReason  string  `json:"atRiskReason,omitempty"`
	RefusedFrom   *string `json:"refusedFrom"`
	RefusedModel  string  `json:"refusedModel,omitempty"`
	RefusedReason string  `json:"refusedReason,omitempty"`
	// SafeAgainFrom and SafeAgainUntil are when the risk lifts before the
	// refusal, the cursor held again (timeline.Horizon.RiskLifts); both
	// null when it does not, the second when nothing the files show puts
	// it at risk again.
	SafeAgainFrom  *string `json:"safeAgainFrom"`
	SafeAgainUntil *string `json:"safeAgainUntil"`
	// Unknown says why there is no answer ("" when there is one).
	Unknown string `json:"unknown,omitempty"`
}

// DetectedRestartReport is a probable restart and its evidence.
// It is the JSON contract's `detectedRestarts[]` (REPORT.md).
type DetectedRestartReport struct {
	Ended     string `json:"ended"`
	LastEnded string `json:"lastEnded"`
	Served    string `json:"served"`
	Streams   int    `json:"streams"`
	Files     int    `json:"files"`
	// Flag is the value of `analyze -restart` that applies it.
	Flag string `json:"flag"`
	// AuditLogs names the audit log that ended and the one that started
	// after it, when audit logs show the restart; Server the server whose
	// own log shows it. Probable: neither does (timeline.DetectedRestart.Shown).
	AuditLogs []string `json:"auditLogs,omitempty"`
	Server    string   `json:"server,omitempty"`
	// SIGTERM is when the server's own log shows its old process told to
	// stop, null when no server log does.
	SIGTERM *string `json:"sigterm"`
	// Closing and ClosingBy bound when the old process stopped taking
	// new requests (timeline.DetectedRestart's), null when no record
	// shows it; ClosingFrom names that record ("log", "scrapes",
	// "audit-log"; "" for none).
	Closing     *string `json:"closing"`
	ClosingBy   *string `json:"closingBy"`
	ClosingFrom string  `json:"closingFrom"`
	Probable    bool    `json:"probable"`
	// Restarted names the server that restarted, as its audit logs or
	// its own log show it ("" when none does); Relists and Clients count
	// the relists it caused (timeline.DetectedRestart.Relists), and the
	// clients that made them.
	Restarted string `json:"restarted"`
	Relists   int    `json:"relists"`
	Clients   int    `json:"clientsRelisting"`
	// Unreachable: the clients' reconnects after the ends reached no
	// server for a while (timeline.DetectedRestart.Unreachable): every
	// server restarting, or the way to them cut.
	Unreachable bool `json:"unreachable"`
}

// ResumeAtReport answers `analyze --resume-at` for one file and cursor.
// It is the JSON contract's `resumeAt[]` (REPORT.md).
type ResumeAtReport struct {
	Time    string           `json:"time"`
	File    string           `json:"file"`
	Cursor  string           `json:"cursor"`
	RV      string           `json:"rv"`
	Outcome timeline.Outcome `json:"outcome"`
	Model   string           `json:"model,omitempty"`
	Reason  string           `json:"reason"`
	// Server is the server the reconnect would likely go to: the one of
	// the client's connection open then, while its process serves;
	// omitted when not known (the load balancer picks).
	Server string `json:"server,omitempty"`
	// PerServer are the verdicts on each API server the audit logs or
	// metrics show, when they show several, and ServerWords says them in
	// one phrase: "accepted by a and b, not judged by c".
	PerServer   []ServerVerdictReport `json:"perServer,omitempty"`
	ServerWords string                `json:"serverWords,omitempty"`
}

// ServerVerdictReport is a reconnect's verdict on one API server (the
// process serving then), with the evidence that decided it.
type ServerVerdictReport struct {
	Server  string           `json:"server"`
	Outcome timeline.Outcome `json:"outcome"`
	Reason  string           `json:"reason"`
}

func (r *Report) addVerdicts(a *timeline.Analysis) {
	tl := a.TL
	clk := func(file int) timeline.Clock { return tl.Files[file].Clock }
	name := func(file int) string { return tl.Files[file].Name }
	for _, z := range a.RiskZones {
		r.RiskZones = append(r.RiskZones, zoneReport(a, z))
	}
	for fi, cf := range a.HadBookmarks {
		if tl.NotCapture(fi) != timeline.IsCapture {
			continue
		}
		cr := CounterfactualReport{File: name(fi), Synthetic: cf.Synthetic, Why: cf.Why, Bookmarks: cf.Bookmarks, Unknown: cf.Unknown}
		if cf.Unknown > 0 {
			cr.FirstUnknown = timeline.FormatTime(cf.FirstUnknown, clk(fi))
		}
		r.HadBookmarks = append(r.HadBookmarks, cr)
	}
	for _, h := range a.Horizons {
		c := clk(h.File)
		hr := HorizonReport{File: name(h.File), Session: tl.Sessions[h.Session].Index, Cursor: h.Kind.String(), Drop: timeline.FormatTime(h.Drop, c), Unknown: h.Unknown}
		if h.HasCursor {
			hr.RV, hr.LastCurrent = timeline.FormatRV(h.RV), timeline.FormatTime(h.Since, c)
		}
		riskWhy, refusedWhy := a.HorizonReasons(h)
		risk, riskOK := h.RiskStart()
		if hr.AtRiskFrom = nullableTime(risk, riskOK, c); hr.AtRiskFrom != nil {
			hr.AtRiskModel, hr.AtRiskReason = h.RiskModel.String(), riskWhy
		}
		refused, refusedOK := h.RefusalStart()
		if hr.RefusedFrom = nullableTime(refused, refusedOK, c); hr.RefusedFrom != nil {
			hr.RefusedModel, hr.RefusedReason = h.RefusedModel.String(), refusedWhy
		}
		if from, until, ok := h.RiskLifts(); ok {
			hr.SafeAgainFrom, hr.SafeAgainUntil = nullableTime(from, true, c), nullableTime(until, until != math.MaxInt64, c)
		}
		r.Horizons = append(r.Horizons, hr)
	}
	for _, d := range a.Restarts {
		r.Restarts = append(r.Restarts, DetectedRestartReport{Ended: timeline.FormatTime(d.Ended, timeline.ClockArrival), LastEnded: timeline.FormatTime(d.LastEnded, timeline.ClockArrival),
			Served: timeline.FormatTime(d.Served, timeline.ClockArrival), Streams: len(d.Sessions), Files: d.Files,
			Flag: d.Flag(), AuditLogs: d.Logs, Server: d.Server, Probable: !d.Shown(),
			Restarted: d.ServerName, Relists: d.Relists, Clients: d.RelistClients, SIGTERM: nullableTime(d.SIGTERM, d.SIGTERM != 0, timeline.ClockArrival),
			Closing: nullableTime(d.Closing, d.Closing != 0, timeline.ClockArrival), ClosingBy: nullableTime(d.ClosingBy, d.ClosingBy != 0, timeline.ClockArrival),
			ClosingFrom: closingFrom(d.Closing, d.ClosingSource), Unreachable: d.Unreachable})
	}
	r.restartsLogged = len(a.Restarts) > 0 && timeline.AuditLogged(a.Restarts)
}

// addResumeAt answers, for every capture, what a reconnect at each
// instant asked would get; a relative instant is that long after each
// file's own end. The notes and tables given with the records are no
// capture and have no cursor to ask about: they are left out, as the
// page's Reconnect tab leaves them out.
func (r *Report) addResumeAt(a *timeline.Analysis, qs []timeline.ResumeQuery) {
	for _, v := range a.ResumeAnswers(qs) {
		if a.TL.NotCapture(v.File) != timeline.IsCapture {
			continue
		}
		f := a.TL.Files[v.File]
		rr := ResumeAtReport{Time: timeline.FormatTime(v.Asked(), f.Clock), File: f.Name, Cursor: v.Kind.String(), Outcome: v.Outcome, Reason: v.Reason}
		if v.HasCursor {
			rr.RV = timeline.FormatRV(v.RV)
		}
		if m, ok := v.Decisive(); ok && v.Outcome != timeline.Accepted {
			rr.Model = m.String()
		}
		if len(a.TL.Servers) > 1 {
			per, likely := a.ResumeAtServers(v.File, v.Kind, v.Asked())
			for _, sv := range per {
				rr.PerServer = append(rr.PerServer, ServerVerdictReport{Server: a.TL.Servers[sv.Server].Name, Outcome: sv.Outcome, Reason: sv.Reason})
			}
			rr.ServerWords = a.ServerWords(per)
			if likely >= 0 {
				rr.Server = a.TL.Servers[likely].Name
			}
		}
		r.ResumeAt = append(r.ResumeAt, rr)
	}
}
