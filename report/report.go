package report

import (
	"time"

	"watchlens/parser"
	"watchlens/timeline"
)

// Report is everything `watchlens analyze` prints, in one value the CLI
// and the browser app both render (WriteText, WriteMarkdown, WriteJSON).
// Its JSON form is a stable contract: see REPORT.md.
type Report struct {
	Version      int                       `json:"version"`
	Params       ParamsReport              `json:"params"`
	Files        []FileReport              `json:"files"`
	Counts       map[string]int            `json:"counts"`
	CountsByKind map[string]map[string]int `json:"countsByKind"`
	Sessions     []SessionReport           `json:"sessions"`
	Cadence      []CadenceReport           `json:"bookmarkCadence"`
	Errors       []ErrorReport             `json:"observedErrors"`
	// Gones counts every 410 Gone the records show (timeline.Gones):
	// those of Errors, 410 responses with no Status body, and those only
	// a client's own log shows or an audit log implies.
	Gones int `json:"gones"`
	// copiedGones counts those of Gones that a capture holds as a copy of
	// one given before it (timeline.Timeline.CopiedGone): the paste tells
	// each 410 once, as the verdict does.
	copiedGones int
	Cursors     []CursorReport     `json:"cursors"`
	Gaps        []GapReport        `json:"gaps"`
	GapCount    int                `json:"gapCount"`
	Zones       []ZoneReport       `json:"zones"`
	Resumes     []ResumeReport     `json:"resumes"`
	WhatIf      WhatIfReport       `json:"whatIf"`
	Anomalies   []AnomalyReport    `json:"anomalies"`
	Diagnostics []DiagnosticReport `json:"diagnostics"`
	// Summary is the verdict in plain words, at most six lines: what the
	// page and the text reports show first.
	Summary []timeline.SummaryLine `json:"summary"`
	// RiskZones are like Zones for reconnects at risk and not refused.
	RiskZones    []ZoneReport            `json:"riskZones"`
	HadBookmarks []CounterfactualReport  `json:"hadBookmarks"`
	Horizons     []HorizonReport         `json:"horizons"`
	Restarts     []DetectedRestartReport `json:"detectedRestarts"`
	ResumeAt     []ResumeAtReport        `json:"resumeAt"`
	// Fleet is the fleet section, null with fewer than two clients.
	Fleet *FleetReport `json:"fleet"`

	// AnomalyCounts counts the anomalies found of each kind; Anomalies
	// lists at most the first 1000 of each.
	AnomalyCounts map[string]int `json:"anomalyCounts"`
	// Relists are the LISTs and WatchLists after each client's first sync
	// or a 410 (timeline.Timeline.Relists).
	Relists []RelistReport `json:"relists"`
	// WatchLists are the WatchList requests, Unsynced the clients whose
	// WatchLists never synced, Outages the stretches when no request
	// reached a server.
	WatchLists []WatchListReport `json:"watchLists"`
	Unsynced   []UnsyncedReport  `json:"unsynced"`
	Outages    []OutageReport    `json:"outages"`
	// Servers are the API servers the audit logs show, and their
	// processes (omitted when no audit log was read).
	Servers []ServerReport `json:"servers,omitempty"`
	// ServerLogs are the API servers' own logs read; absent when none was.
	ServerLogs []ServerLogReport `json:"serverLogs,omitempty"`
	// Metrics are the Prometheus exports read; absent when none was.
	Metrics *MetricsReport `json:"metrics,omitempty"`

	// zone is where the text, Markdown and pasted renderings write times
	// (the analysis's Params.Zone); the JSON time fields are UTC.
	zone *time.Location
	// restartsLogged: the audit logs show every restart detected, and
	// the models apply each to the reconnects of its own server, with no
	// -restart (timeline.AuditLogged).
	restartsLogged bool
}

// RelistReport is a LIST after the client's first in the same file, and
// what caused it.
// It is the JSON contract's `relists[]` (REPORT.md).
type RelistReport struct {
	File    string `json:"file"`
	Session int    `json:"session"`
	Time    string `json:"time"` // the LIST's request
	RV      string `json:"rv"`   // the list's resourceVersion
	// Cause is "410" (a 410 Gone ended the watch before it) or "none
	// seen"; CauseTime is the 410's instant, "" when none.
	Cause        string `json:"cause"`
	CauseTime    string `json:"causeTime"`
	CauseMessage string `json:"causeMessage"`
	// Inferred: the 410 is read from an audit log's signature (a watch
	// that ended within a second, then a LIST), not seen. Reason says the
	// cause in words.
	Inferred bool   `json:"inferred"`
	Reason   string `json:"reason"`
	// Kind is "list" or "watchlist"; Source where the server served it:
	// "watch cache", "etcd" or "unknown"; Objects and Bytes what it read
	// as the capture holds it (0 from an audit log). Unread: its records
	// show the request, not what it read.
	Kind    string `json:"kind"`
	Source  string `json:"source"`
	Objects int    `json:"objects"`
	Bytes   int64  `json:"bytes"`
	Unread  bool   `json:"unread"`
}

// relistReport is a relist as the report gives it.
func relistReport(tl *timeline.Timeline, rl timeline.Relist) RelistReport {
	f := tl.Files[rl.File]
	rr := RelistReport{File: f.Name, Session: tl.Sessions[rl.Session].Index, Time: timeline.FormatTime(rl.T, f.Clock), RV: rl.RV,
		Cause: rl.Cause.String(), CauseMessage: rl.CauseMessage, Inferred: rl.Inferred, Reason: rl.Reason,
		Kind: rl.Kind.String(), Source: rl.Source.String(), Objects: rl.Objects, Bytes: rl.Bytes, Unread: rl.Unread}
	if rl.CauseSession >= 0 {
		rr.CauseTime = timeline.FormatTime(rl.CauseT, f.Clock)
	}
	return rr
}

// Version is bumped on any incompatible change of the JSON form.
const Version = 1

// FileReport describes one loaded capture.
// It is the JSON contract's `files[]` (REPORT.md).
type FileReport struct {
	Name     string `json:"name"`
	Clock    string `json:"clock"`
	Kind     string `json:"kind"`
	Filtered string `json:"filtered"`
	Events   int    `json:"events"`
	Sessions int    `json:"sessions"`
	Start    string `json:"start"`
	End      string `json:"end"`
	FirstRV  string `json:"firstRV"`
	LastRV   string `json:"lastRV"`
	// Broad: the capture saw every change of its kind; BroadInferred: so
	// judged from its objects' namespaces, as it has no request line.
	Broad         bool `json:"broad"`
	BroadInferred bool `json:"broadInferred"`
	// Audit: the file is a client's requests from audit logs, whose
	// sessions have no events (omitted when false).
	Audit bool `json:"audit,omitempty"`
	// NotCapture: nothing in the file was read as a watch record (a
	// README or a table given with the records, timeline.NotCapture); no
	// verdict counts it (omitted when false).
	NotCapture bool `json:"notCapture,omitempty"`
}

// RequestReport is a session's captured request.
// It is the JSON contract's `sessions[].request` (REPORT.md).
type RequestReport struct {
	Method               string `json:"method"`
	Path                 string `json:"path"`
	Query                string `json:"query"`
	Watch                bool   `json:"watch"`
	ResourceVersion      string `json:"resourceVersion"`
	ResourceVersionMatch string `json:"resourceVersionMatch,omitempty"`
	AllowWatchBookmarks  bool   `json:"allowWatchBookmarks"`
	SendInitialEvents    bool   `json:"sendInitialEvents"`
	LabelSelector        string `json:"labelSelector,omitempty"`
	FieldSelector        string `json:"fieldSelector,omitempty"`
	TimeoutSeconds       int    `json:"timeoutSeconds"`
}

// SessionReport is one watch connection.
// It is the JSON contract's `sessions[]` (REPORT.md).
type SessionReport struct {
	File       string         `json:"file"`
	Index      int            `json:"index"`
	Request    *RequestReport `json:"request"`
	HTTPStatus int            `json:"httpStatus"`
	Start      string         `json:"start"`
	End        string         `json:"end"`
	Offset     int64          `json:"offset"`
	EndOffset  int64          `json:"endOffset"`
	StartRV    string         `json:"startRV"`
	EndRV      string         `json:"endRV"`
	EndReason  string         `json:"endReason"`
	Error      string         `json:"error,omitempty"`
	Events     int            `json:"events"`
	Bookmarks  int            `json:"bookmarks"`
	Errors     int            `json:"errors"`
	// GapSeconds is the reconnect gap from the previous session of the
	// same file, null for a file's first session.
	GapSeconds *float64 `json:"gapSeconds"`
	// Server names the API server that answered (the audit log holding
	// the response's Audit-Id, or the log a client from audit logs came
	// from) and Incarnation its process, 1 for the first its logs show;
	// both omitted when not known.
	Server      string `json:"server,omitempty"`
	Incarnation int    `json:"incarnation,omitempty"`
}

// DiagnosticReport is one parser diagnostic.
// It is the JSON contract's `diagnostics[]` (REPORT.md).
type DiagnosticReport struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`
	Line   int    `json:"line"`
	// Time and RV are those of the first event read after the problem
	// (the file's end when none): where on the timeline it sits.
	Time string `json:"time"`
	RV   string `json:"rv"`
	Kind string `json:"kind"`
	Msg  string `json:"message"`
	// Doubt says the record is not a problem in the input but a doubt
	// about what it means (timeline.IsDoubt): the text lists it apart.
	Doubt bool `json:"doubt,omitempty"`
}

// diagnosticReport is a reader's diagnostic of the named file as the
// report gives it, placed at the instant at (placeDiagnostics moves a
// capture's to the first event read after it).
func diagnosticReport(file string, d parser.Diagnostic, at string) DiagnosticReport {
	return DiagnosticReport{File: file, Offset: d.Offset, Line: d.Line, Kind: string(d.Kind), Msg: d.Msg, Time: at, Doubt: timeline.IsDoubt(d)}
}

// AnomalyReport is one anomaly.
// It is the JSON contract's `anomalies[]` (REPORT.md).
type AnomalyReport struct {
	Kind    string `json:"kind"`
	File    string `json:"file"`
	Session int    `json:"session"`
	Time    string `json:"time"`
	RV      string `json:"rv"`
	Message string `json:"message"`
}

func secs(d int64) float64 { return float64(d) / 1e9 }

// New gathers the report of an analysis, with the answers to the
// reconnect instants asked about (`analyze --resume-at`; none from the
// page).
// Its text and Markdown renderings write times in the analysis's zone
// (Params.Zone), as its sentences do; its JSON time fields are UTC.
func New(a *timeline.Analysis, resumeAt []timeline.ResumeQuery) *Report {
	tl, p := a.TL, a.Params
	// Empty lists are [] rather than null: consumers index without checks.
	r := &Report{Version: Version, Counts: map[string]int{}, CountsByKind: map[string]map[string]int{},
		Files: []FileReport{}, Sessions: []SessionReport{}, Cadence: []CadenceReport{}, Errors: []ErrorReport{},
		Cursors: []CursorReport{}, Gaps: []GapReport{}, Zones: []ZoneReport{}, Resumes: []ResumeReport{},
		WhatIf: WhatIfReport{Points: []WhatIfPoint{}}, Anomalies: []AnomalyReport{}, Diagnostics: []DiagnosticReport{},
		Summary: []timeline.SummaryLine{}, RiskZones: []ZoneReport{}, HadBookmarks: []CounterfactualReport{}, Horizons: []HorizonReport{},
		Restarts: []DetectedRestartReport{}, ResumeAt: []ResumeAtReport{}, Relists: []RelistReport{},
		WatchLists: []WatchListReport{}, Unsynced: []UnsyncedReport{}, Outages: []OutageReport{}, zone: p.Zone}
	r.Params = paramsReport(p)
	r.Params.Servers = a.ServerCount()
	r.Params.EtcdCompactedEverySeconds = tl.Metrics.CompactionEvery().Seconds()
	r.Metrics = metricsReport(tl.Metrics)
	r.Diagnostics = append(r.Diagnostics, metricsDiagnostics(tl.Metrics)...)
	for fi, f := range tl.Files {
		r.Files = append(r.Files, FileReport{Name: f.Name, Clock: f.Clock.String(), Kind: f.Kind, Filtered: f.Filtered,
			Events: f.Events, Sessions: len(f.Sessions), Start: timeline.FormatTime(f.Start, f.Clock), End: timeline.FormatTime(f.End, f.Clock),
			FirstRV: f.FirstRV, LastRV: f.LastRV, Broad: f.Broad, BroadInferred: f.BroadInferred, Audit: f.Audit,
			NotCapture: tl.NotCapture(fi) != timeline.IsCapture})
		for k, n := range f.Counts {
			r.Counts[k] += n
		}
		for kind, m := range f.CountsKind {
			if r.CountsByKind[kind] == nil {
				r.CountsByKind[kind] = map[string]int{}
			}
			for k, n := range m {
				r.CountsByKind[kind][k] += n
			}
		}
		for _, d := range f.Diagnostics {
			r.Diagnostics = append(r.Diagnostics, diagnosticReport(f.Name, d, timeline.FormatTime(f.End, f.Clock)))
		}
	}
	for g, s := range tl.Sessions {
		f := tl.Files[s.File]
		sr := SessionReport{File: f.Name, Index: s.Index, HTTPStatus: s.HTTPStatus,
			Start: timeline.FormatTime(s.Start, f.Clock), End: timeline.FormatTime(s.End, f.Clock), Offset: s.Offset, EndOffset: s.EndOffset, StartRV: s.FirstRV, EndRV: s.LastRV,
			EndReason: s.EndReason.String(), Events: s.Events, Bookmarks: s.Bookmarks, Errors: s.Errors}
		sr.Server, sr.Incarnation = answeredBy(tl, g)
		if q := s.Request; q != nil {
			sr.Request = &RequestReport{Method: q.Method, Path: q.Path, Query: q.Query, Watch: q.Watch,
				ResourceVersion: q.ResourceVersion, ResourceVersionMatch: q.ResourceVersionMatch,
				AllowWatchBookmarks: q.AllowWatchBookmarks, SendInitialEvents: q.SendInitialEvents,
				LabelSelector: q.LabelSelector, FieldSelector: q.FieldSelector, TimeoutSeconds: q.TimeoutSeconds}
		}
		if s.Error != nil {
			sr.Error = s.Error.Message
		} else if s.Status != nil {
			sr.Error = s.Status.Message
		}
		if s.Gap >= 0 {
			g := secs(s.Gap)
			sr.GapSeconds = &g
		}
		r.Sessions = append(r.Sessions, sr)
	}
	for _, an := range tl.Anomalies {
		f := tl.Files[an.File]
		r.Anomalies = append(r.Anomalies, AnomalyReport{Kind: an.Kind, File: f.Name, Session: tl.Sessions[an.Session].Index,
			Time: timeline.FormatTime(an.T, f.Clock), RV: an.RV, Message: an.Msg})
	}
	r.AnomalyCounts = anomalyCounts(tl)
	for _, rl := range tl.Relists {
		r.Relists = append(r.Relists, relistReport(tl, rl))
	}
	r.addWatchLists(tl)
	r.addServerLogs(tl)
	r.placeDiagnostics(tl)
	for _, l := range tl.AuditLogs {
		for _, d := range l.Diagnostics {
			r.Diagnostics = append(r.Diagnostics, diagnosticReport(l.Name, d, timeline.FormatTime(l.Last, timeline.ClockArrival)))
		}
	}
	r.addServers(tl)
	r.addAnalysis(tl, a)
	r.addFleet(a)
	r.addVerdicts(a)
	r.addResumeAt(a, resumeAt)
	r.addFleetReconnects(a, resumeAt)
	r.Summary = a.Summary(resumeAt)
	return r
}

// anomalyCounts is timeline.Timeline.AnomalyCounts as the report gives it: a map,
// never null.
func anomalyCounts(tl *timeline.Timeline) map[string]int {
	m := make(map[string]int, len(tl.AnomalyCounts))
	for k, n := range tl.AnomalyCounts {
		m[k] = n
	}
	return m
}

// placeDiagnostics gives each file's diagnostic the time and RV of the
// first event read after it (the report lists the files' diagnostics
// first, in order).
func (r *Report) placeDiagnostics(tl *timeline.Timeline) {
	k := 0
	for fi, evs := range tl.DiagnosticEvents() {
		for _, i := range evs {
			if i >= 0 {
				e := tl.Event(i)
				r.Diagnostics[k].Time, r.Diagnostics[k].RV = timeline.FormatTime(e.T, tl.Files[fi].Clock), e.RV
			}
			k++
		}
	}
}

// CadenceReport is a session's bookmark cadence.
// It is the JSON contract's `bookmarkCadence[]` (REPORT.md).
type CadenceReport struct {
	File          string  `json:"file"`
	Session       int     `json:"session"`
	Bookmarks     int     `json:"bookmarks"`
	Measured      bool    `json:"measured"` // false: instants estimated (clock "estimated"), so is the cadence
	MedianSeconds float64 `json:"medianIntervalSeconds"`
	MaxGapSeconds float64 `json:"maxGapSeconds"`
	MaxGapFrom    string  `json:"maxGapFrom"`
	MaxGapFromRV  string  `json:"maxGapFromRV"`
}

// ErrorReport is one error the server sent: an in-stream ERROR event or a
// response whose body is a Status.
// It is the JSON contract's `observedErrors[]` (REPORT.md).
type ErrorReport struct {
	File    string `json:"file"`
	Session int    `json:"session"`
	Time    string `json:"time"`
	Code    int    `json:"code"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	// X and Y of `too old resource version: X (Y)`: X requested, Y the
	// lowest RV still accepted. Empty for other messages.
	X string `json:"x"`
	Y string `json:"y"`
	// MinHistorySeconds: the head first passed Y this long before the
	// error, so the server then kept at least this much history. Null when
	// not computable.
	MinHistorySeconds *float64 `json:"minHistorySeconds"`
}

// CursorReport is one cursor's final value and longest ages.
// It is the JSON contract's `cursors[]` (REPORT.md).
type CursorReport struct {
	File              string  `json:"file"`
	Cursor            string  `json:"cursor"`
	FinalRV           string  `json:"finalRV"`
	LongestAgeSeconds float64 `json:"longestAgeSeconds"`
	LongestAgeAt      string  `json:"longestAgeAt"`
	LongestAgeRV      string  `json:"longestAgeRV"`
	LongestAgeRVs     string  `json:"longestAgeRVs"`
	LongestAgeRVsAt   string  `json:"longestAgeRVsAt"`
}

// GapReport is a stretch where a cursor stood still while the head moved.
// It is the JSON contract's `gaps[]` (REPORT.md).
type GapReport struct {
	File       string  `json:"file"`
	Cursor     string  `json:"cursor"`
	From       string  `json:"from"`
	To         string  `json:"to"`
	RV         string  `json:"rv"`
	HeadRV     string  `json:"headRV"`
	AgeSeconds float64 `json:"ageSeconds"`
	AgeRVs     string  `json:"ageRVs"`
}

// ZoneReport is a red zone: drop instants whose resume would get 410.
// It is the JSON contract's `zones[]` and `riskZones[]` (REPORT.md).
type ZoneReport struct {
	File     string `json:"file"`
	Cursor   string `json:"cursor"`
	Model    string `json:"model"`
	FromTime string `json:"fromTime"`
	ToTime   string `json:"toTime"`
	FromRV   string `json:"fromRV"`
	ToRV     string `json:"toRV"`
	Reason   string `json:"reason"`
}

// zoneReport is a red or at-risk zone of the model as the report gives
// it (zones[] and riskZones[]).
func zoneReport(a *timeline.Analysis, z timeline.Zone) ZoneReport {
	f := &a.TL.Files[z.File]
	return ZoneReport{File: f.Name, Cursor: z.Kind.String(), Model: z.Model.String(),
		FromTime: timeline.FormatTime(z.From, f.Clock), ToTime: timeline.FormatTime(z.To, f.Clock), FromRV: timeline.FormatRV(z.FromRV), ToRV: timeline.FormatRV(z.ToRV), Reason: a.ZoneReason(z)}
}

// ResumeReport is an observed resume checked against the models.
// It is the JSON contract's `resumes[]` (REPORT.md).
type ResumeReport struct {
	File      string           `json:"file"`
	Session   int              `json:"session"`
	Time      string           `json:"time"`
	RV        string           `json:"rv"`
	Observed  timeline.Outcome `json:"observed"`
	Predicted timeline.Outcome `json:"predicted"`
	Agree     bool             `json:"agree"`
	// Contradicts: the models said refused where the server accepted, or
	// accepted where it refused (at risk contradicts neither).
	Contradicts bool   `json:"contradicts"`
	Reason      string `json:"reason"`
	// Server and Incarnation are the session's (SessionReport): the
	// prediction is for the server that answered.
	Server      string `json:"server,omitempty"`
	Incarnation int    `json:"incarnation,omitempty"`
}

// WhatIfReport is the bookmarks what-if over the capture as recorded.
// It is the JSON contract's `whatIf` (REPORT.md).
type WhatIfReport struct {
	Reconnects               int           `json:"reconnects"`
	RelistsWithBookmarks     int           `json:"relistsWithBookmarks"`
	RelistsWithoutBookmarks  int           `json:"relistsWithoutBookmarks"`
	LongestAgeWithSeconds    float64       `json:"longestCursorAgeWithSeconds"`
	LongestAgeWithoutSeconds float64       `json:"longestCursorAgeWithoutSeconds"`
	RelistsSaved             int           `json:"relistsSaved"`
	PercentSaved             float64       `json:"percentSaved"`
	UnknownWith              int           `json:"unknownWithBookmarks"`
	UnknownWithout           int           `json:"unknownWithoutBookmarks"`
	Points                   []WhatIfPoint `json:"points"`
	// The counterfactual ("had it asked for bookmarks") and the reconnects
	// at risk and not refused.
	RelistsHad           int     `json:"relistsHadBookmarks"`
	LongestAgeHadSeconds float64 `json:"longestCursorAgeHadSeconds"`
	UnknownHad           int     `json:"unknownHadBookmarks"`
	AtRiskWith           int     `json:"atRiskWithBookmarks"`
	AtRiskWithout        int     `json:"atRiskWithoutBookmarks"`
	AtRiskHad            int     `json:"atRiskHadBookmarks"`
}

// WhatIfPoint is one reconnect of the what-if.
// It is the JSON contract's `whatIf.points[]` (REPORT.md).
type WhatIfPoint struct {
	File          string           `json:"file"`
	Session       int              `json:"session"`
	Time          string           `json:"time"`
	WithRV        string           `json:"withRV"`
	With          timeline.Outcome `json:"with"`
	WithReason    string           `json:"withReason"`
	WithoutRV     string           `json:"withoutRV"`
	Without       timeline.Outcome `json:"without"`
	WithoutReason string           `json:"withoutReason"`
	HadRV         string           `json:"hadRV"`
	Had           timeline.Outcome `json:"had"`
	HadReason     string           `json:"hadReason"`
}

// maxGaps bounds the gaps listed (the longest first); GapCount has all.
const maxGaps = 20

func (r *Report) addAnalysis(tl *timeline.Timeline, a *timeline.Analysis) {
	clk := func(file int) timeline.Clock { return tl.Files[file].Clock }
	name := func(file int) string { return tl.Files[file].Name }
	r.addCadence(tl)
	r.addErrors(tl)
	for _, g := range a.Ages {
		if tl.NotCapture(g.File) != timeline.IsCapture {
			continue // a README or a table given with the records: no cursor
		}
		cr := CursorReport{File: name(g.File), Cursor: g.Kind.String(), LongestAgeSeconds: secs(g.MaxAge)}
		if g.HasFinal {
			cr.FinalRV = timeline.FormatRV(g.Final)
		}
		if g.MaxAge > 0 {
			cr.LongestAgeAt, cr.LongestAgeRV = timeline.FormatTime(g.MaxAgeAt, clk(g.File)), timeline.FormatRV(g.MaxAgeRV)
		}
		cr.LongestAgeRVs = timeline.FormatRV(g.MaxRVAge)
		if g.MaxRVAge > 0 {
			cr.LongestAgeRVsAt = timeline.FormatTime(g.MaxRVAgeAt, clk(g.File))
		}
		r.Cursors = append(r.Cursors, cr)
	}
	r.GapCount = a.GapCount
	for _, g := range a.Gaps[:min(len(a.Gaps), maxGaps)] {
		r.Gaps = append(r.Gaps, GapReport{File: name(g.File), Cursor: g.Kind.String(), From: timeline.FormatTime(g.From, clk(g.File)),
			To: timeline.FormatTime(g.To, clk(g.File)), RV: timeline.FormatRV(g.RV), HeadRV: timeline.FormatRV(g.HeadRV), AgeSeconds: secs(g.AgeTime), AgeRVs: timeline.FormatRV(g.AgeRV)})
	}
	for _, z := range a.Zones {
		r.Zones = append(r.Zones, zoneReport(a, z))
	}
	for _, rs := range a.Resumes {
		s := tl.Sessions[rs.Session]
		rr := ResumeReport{File: name(s.File), Session: s.Index, Time: timeline.FormatTime(s.Start, clk(s.File)), RV: rs.RV,
			Observed: rs.Observed, Predicted: rs.Predicted.Outcome, Agree: rs.Observed == rs.Predicted.Outcome,
			Contradicts: rs.Contradicts(), Reason: rs.Predicted.Reason}
		rr.Server, rr.Incarnation = answeredBy(tl, rs.Session)
		r.Resumes = append(r.Resumes, rr)
	}
	w := a.WhatIf
	r.WhatIf = WhatIfReport{Points: r.WhatIf.Points, Reconnects: w.Reconnects, RelistsWithBookmarks: w.RelistsWith, RelistsWithoutBookmarks: w.RelistsWithout,
		LongestAgeWithSeconds: secs(w.LongestAgeWith), LongestAgeWithoutSeconds: secs(w.LongestAgeWithout),
		RelistsSaved: w.Saved, PercentSaved: timeline.RoundPercent(w.SavedPercent), UnknownWith: w.UnknownWith, UnknownWithout: w.UnknownWithout,
		RelistsHad: w.RelistsHad, LongestAgeHadSeconds: secs(w.LongestAgeHad), UnknownHad: w.UnknownHad,
		AtRiskWith: w.AtRiskWith, AtRiskWithout: w.AtRiskWithout, AtRiskHad: w.AtRiskHad}
	for _, p := range w.Points {
		s := tl.Sessions[p.Session]
		vrv := func(v timeline.Verdict) string {
			if !v.HasCursor {
				return ""
			}
			return timeline.FormatRV(v.RV)
		}
		r.WhatIf.Points = append(r.WhatIf.Points, WhatIfPoint{File: name(s.File), Session: s.Index, Time: timeline.FormatTime(p.At, clk(s.File)),
			WithRV: vrv(p.With), With: p.With.Outcome, WithReason: p.With.Reason,
			WithoutRV: vrv(p.Without), Without: p.Without.Outcome, WithoutReason: p.Without.Reason,
			HadRV: vrv(p.Had), Had: p.Had.Outcome, HadReason: p.Had.Reason})
	}
}

func (r *Report) addCadence(tl *timeline.Timeline) {
	for _, c := range tl.BookmarkCadence() {
		s := &tl.Sessions[c.Session]
		f := &tl.Files[s.File]
		cr := CadenceReport{File: f.Name, Session: s.Index, Bookmarks: c.Bookmarks, Measured: f.Clock == timeline.ClockArrival,
			MedianSeconds: secs(c.Median), MaxGapSeconds: secs(c.MaxGap), MaxGapFromRV: c.MaxGapFromRV}
		if c.MaxGap > 0 {
			cr.MaxGapFrom = timeline.FormatTime(c.MaxGapFrom, f.Clock)
		}
		r.Cadence = append(r.Cadence, cr)
	}
}

func (r *Report) addErrors(tl *timeline.Timeline) {
	gones := tl.Gones()
	r.Gones = len(gones)
	for _, g := range gones {
		if tl.CopiedGone(g.Session) {
			r.copiedGones++
		}
	}
	for _, e := range tl.ObservedErrors() {
		s, t, st := tl.Sessions[e.Session], e.T, e.Status
		f := tl.Files[s.File]
		er := ErrorReport{File: f.Name, Session: s.Index, Time: timeline.FormatTime(t, f.Clock), Code: st.Code, Reason: st.Reason, Message: st.Message}
		if st.TooOld {
			er.X, er.Y = timeline.FormatRV(st.X), timeline.FormatRV(st.Y)
			if h, ok := tl.HeadPassed(st.Y); ok && h < t && f.Clock != timeline.ClockNone {
				v := secs(t - h)
				er.MinHistorySeconds = &v
			}
		}
		r.Errors = append(r.Errors, er)
	}
}

// nullableTime is t as the JSON writes an instant, nil when not ok or
// on no clock.
func nullableTime(t int64, ok bool, c timeline.Clock) *string {
	if !ok || c == timeline.ClockNone {
		return nil
	}
	s := timeline.FormatTime(t, c)
	return &s
}
