package report

import (
	"fmt"
	"strings"

	"watchlens/timeline"
)

// WatchListReport is one WatchList request (timeline.WatchList).
// It is the JSON contract's `watchLists[]` (REPORT.md).
type WatchListReport struct {
	File    string `json:"file"`
	Session int    `json:"session"`
	Time    string `json:"time"`
	RV      string `json:"rv"`
	// Sync is "synced", "never" (no bookmarks asked, so the end of the
	// initial events never comes), "missing" (asked, did not come) or
	// "presumed" (an audit log's, which cannot show it).
	Sync     string `json:"sync"`
	SyncedAt string `json:"syncedAt"`
	Objects  int    `json:"objects"`
	Bytes    int64  `json:"bytes"`
	Relist   bool   `json:"relist"`
	Retry    bool   `json:"retry"`
}

// UnsyncedReport is a client whose WatchLists never synced.
// It is the JSON contract's `unsynced[]` (REPORT.md).
type UnsyncedReport struct {
	File        string `json:"file"`
	Requests    int    `json:"requests"`
	Repeats     int    `json:"repeats"`
	Objects     int    `json:"objects"`
	Bytes       int64  `json:"bytes"`
	NoBookmarks bool   `json:"noBookmarks"`
}

// OutageReport is a stretch when no request reached a server, and the
// relists after it.
// It is the JSON contract's `outages[]` (REPORT.md).
type OutageReport struct {
	From          string  `json:"from"`
	To            string  `json:"to"`
	Attempts      int     `json:"attempts"`
	Clients       int     `json:"clients"`
	Relists       int     `json:"relists"`
	RelistClients int     `json:"relistClients"`
	FirstRelist   float64 `json:"firstRelistSeconds"`
	LastRelist    float64 `json:"lastRelistSeconds"`
	// LastAttempt is the last attempt that reached no server; End the
	// instant the delays after the end count from, EndIs which of the
	// two it is ("lastAttempt" or "firstAnswer", timeline.OutageReturn.End),
	// as the summary counts them.
	LastAttempt         string  `json:"lastAttempt"`
	End                 string  `json:"end"`
	EndIs               string  `json:"endIs"`
	FirstRelistAfterEnd float64 `json:"firstRelistAfterEndSeconds"`
	LastRelistAfterEnd  float64 `json:"lastRelistAfterEndSeconds"`
	// Error and ErrorAttempts, ServersUp, AnsweredMeanwhile,
	// OthersMeanwhile and ServerLogsNoRestart are timeline.Outage's
	// Error, ErrorAttempts, Up, Answered, Others and Logged.
	Error               string   `json:"error"`
	ErrorAttempts       int      `json:"errorAttempts"`
	ServersUp           []string `json:"serversUp"`
	AnsweredMeanwhile   int      `json:"answeredMeanwhile"`
	OthersMeanwhile     int      `json:"otherRequestsMeanwhile"`
	ServerLogsNoRestart bool     `json:"serverLogsShowNoRestart"`
	// LastBack, FailedBack, BackError and BackErrorAttempts are
	// timeline.Outage's Back, BackFailed, BackError and
	// BackErrorAttempts: how its clients came back.
	LastBack          string `json:"lastBack"`
	FailedBack        int    `json:"failedBack"`
	BackError         string `json:"backError"`
	BackErrorAttempts int    `json:"backErrorAttempts"`
	// ToLogged and LastBackLogged are timeline.Outage's ToLogged and
	// BackLogged: To and LastBack are as a client's own log dates them.
	ToLogged       bool `json:"toLogged"`
	LastBackLogged bool `json:"lastBackLogged"`
	// Silent and LastEnded are timeline.Outage's: an outage the audit
	// logs show as a silence, with no attempt (LastAttempt "").
	Silent    bool   `json:"silent"`
	LastEnded string `json:"lastEnded,omitempty"`
}

// outagesTitle heads the text and Markdown reports' outage table.
const outagesTitle = "Outages (no request of the clients reached a server: attempts the captures show, or a silence the audit logs show)"

// The values of OutageReport.EndIs.
const (
	endIsLastAttempt = "lastAttempt"
	endIsFirstAnswer = "firstAnswer"
)

// addWatchLists fills the WatchList requests, the clients that never
// synced and the outages.
func (r *Report) addWatchLists(tl *timeline.Timeline) {
	for _, w := range tl.WatchLists {
		f := &tl.Files[w.File]
		wr := WatchListReport{File: f.Name, Session: tl.Sessions[w.Session].Index, Time: timeline.FormatTime(w.T, f.Clock), RV: w.RV,
			Sync: w.Sync.String(), Objects: w.Objects, Bytes: w.Bytes, Relist: w.Relist, Retry: w.Retry}
		if w.SyncedAt != 0 {
			wr.SyncedAt = timeline.FormatTime(w.SyncedAt, f.Clock)
		}
		r.WatchLists = append(r.WatchLists, wr)
	}
	for _, u := range tl.UnsyncedClients() {
		r.Unsynced = append(r.Unsynced, UnsyncedReport{File: tl.Files[u.File].Name, Requests: u.Requests, Repeats: u.Repeats,
			Objects: u.Objects, Bytes: u.Bytes, NoBookmarks: u.NoBookmarks})
	}
	for _, o := range tl.OutageReturns() {
		end, lastAttempt := o.End()
		endIs := endIsFirstAnswer
		if lastAttempt {
			endIs = endIsLastAttempt
		}
		first, last := o.AfterEnd()
		rep := OutageReport{From: timeline.FormatTime(o.From, timeline.ClockArrival), To: timeline.FormatTime(o.To, timeline.ClockArrival),
			Attempts: o.Attempts, Clients: o.Clients, Relists: o.Relists, RelistClients: o.RelistClients, FirstRelist: secs(o.First), LastRelist: secs(o.Last),
			LastAttempt: timeline.FormatTime(o.LastAttempt, timeline.ClockArrival), End: timeline.FormatTime(end, timeline.ClockArrival), EndIs: endIs,
			FirstRelistAfterEnd: secs(first), LastRelistAfterEnd: secs(last),
			Error: o.Error, ErrorAttempts: o.ErrorAttempts, ServersUp: append([]string{}, o.Up...), AnsweredMeanwhile: o.Answered, OthersMeanwhile: o.Others, ServerLogsNoRestart: o.Logged, ToLogged: o.ToLogged}
		if o.Back != 0 {
			rep.LastBack, rep.FailedBack, rep.BackError, rep.BackErrorAttempts = timeline.FormatTime(o.Back, timeline.ClockArrival), o.BackFailed, o.BackError, o.BackErrorAttempts
			rep.LastBackLogged = o.BackLogged
		}
		if o.Silent {
			rep.Silent, rep.LastAttempt, rep.LastEnded = true, "", timeline.FormatTime(o.LastEnded, timeline.ClockArrival)
		}
		r.Outages = append(r.Outages, rep)
	}
}

// writeWatchLists writes the WatchList requests and the outages.
func (r *Report) writeWatchLists(p *printer) {
	if len(r.WatchLists) > 0 {
		p.section("WatchList requests (a list streamed as a watch; synced when the bookmark ending the initial events came)")
		var rows [][]string
		for _, w := range r.WatchLists {
			what := "first sync"
			switch {
			case w.Relist:
				what = "relist"
			case w.Retry:
				what = "repeat of an unfinished first sync"
			}
			rows = append(rows, []string{w.File, fmt.Sprint(w.Session), r.instant(w.Time), orDash(w.RV), what, w.Sync, r.instant(w.SyncedAt), fmt.Sprint(w.Objects)})
		}
		p.table([]string{"file", "session", "time", "RV", "what", "sync", "synced at", "objects"}, rows)
	}
	if len(r.Outages) > 0 {
		// The end lies between the last refused attempt and the first
		// answer; the relists' delays count from the end the summary
		// counts them from, in its words.
		p.section(outagesTitle)
		var rows [][]string
		for _, o := range r.Outages {
			delays := timeline.RelistDelayWords(timeline.Nanoseconds(o.FirstRelistAfterEnd), timeline.Nanoseconds(o.LastRelistAfterEnd), o.EndIs == endIsLastAttempt)
			if o.Relists == 0 {
				delays = "-"
			}
			up := "-"
			if len(o.ServersUp) > 0 {
				up = strings.Join(o.ServersUp, ", ")
			}
			rows = append(rows, []string{r.instant(o.From), r.instant(o.LastAttempt), r.instant(o.To), fmt.Sprint(o.Attempts), fmt.Sprint(o.Clients), orDash(o.Error), up,
				r.instant(o.LastBack), fmt.Sprint(o.FailedBack), fmt.Sprint(o.Relists), fmt.Sprint(o.RelistClients), delays})
		}
		p.table([]string{"from", "last refused attempt", "first answer", "attempts", "clients", "commonest error", "servers up meanwhile", "all back by", "failed coming back", "relists after", "clients relisting", "when they relisted"}, rows)
	}
}
