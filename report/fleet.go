package report

import (
	"fmt"
	"sort"
	"strings"

	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// FleetReport is the fleet section of the report (REPORT.md, `fleet`).
type FleetReport struct {
	Clients        int `json:"clients"`
	Observed       int `json:"relistsObserved"`
	With           int `json:"relistsWithBookmarks"`
	Without        int `json:"relistsWithoutBookmarks"`
	UnknownWith    int `json:"unknownWithBookmarks"`
	UnknownWithout int `json:"unknownWithoutBookmarks"`
	// SavingsKnown: the records tell what bookmarks would have saved
	// (timeline.Fleet.SavingsKnown); Saved and SavedPercent are 0 when
	// they do not.
	SavingsKnown bool    `json:"savingsKnown"`
	Saved        int     `json:"relistsSaved"`
	SavedPercent float64 `json:"percentSaved"`
	// WithoutAtLeast: Without, Saved and SavedPercent are the least they
	// could be (timeline.Fleet.WithoutAtLeast).
	WithoutAtLeast bool `json:"withoutAtLeast"`
	// WatchListsAsked counts the WatchList clients that asked for
	// bookmarks (timeline.Fleet.WatchListsAsked).
	WatchListsAsked int                 `json:"watchListsAsked"`
	Rows            []FleetClientReport `json:"perClient"`
	Steps           []FleetStepReport   `json:"stampede"`
	Stampedes       []StampedeReport    `json:"stampedes"`
	AuditLogs       []AuditLogReport    `json:"auditLogs"`
	// AuditShared is the user and the address every client of the
	// audit logs shares, "" for either when they differ: the clients'
	// names leave it out (timeline.AuditShared).
	AuditShared AuditSharedReport `json:"auditShared"`
	// Cost is what the relists read, and from where.
	Cost FleetCostReport `json:"cost"`
	// ReconnectAt answers --resume-at for the fleet as a whole.
	ReconnectAt []FleetReconnectReport `json:"reconnectAt"`
}

// FleetClientReport is one client's row.
type FleetClientReport struct {
	Client    string `json:"client"`
	File      string `json:"file"`
	Bookmarks bool   `json:"bookmarks"`
	// BookmarksUnseen: its records (its own log) show neither the
	// bookmarks it asked for nor those it received; Bookmarks is then
	// its library's default.
	BookmarksUnseen bool `json:"bookmarksUnseen"`
	// WithUnknown: it did not ask for bookmarks, and no model could judge
	// any of its reconnects as if it had (timeline.FleetClient.WithUnknown).
	WithUnknown    bool           `json:"withUnknown"`
	Watches        int            `json:"watches"`
	Lists          int            `json:"lists"`
	Drops          int            `json:"drops"`
	Reconnects     int            `json:"reconnects"`
	With           int            `json:"relistsWithBookmarks"`
	Without        int            `json:"relistsWithoutBookmarks"`
	UnknownWith    int            `json:"unknownWithBookmarks"`
	UnknownWithout int            `json:"unknownWithoutBookmarks"`
	LongestAge     float64        `json:"longestCursorAgeSeconds"`
	AgeKnown       bool           `json:"longestCursorAgeKnown"`
	Relists        []RelistReport `json:"relists"`
	// EndsAtGone: its records end at a watch refused with 410 Gone,
	// before the relist that 410 forces, which With or Without counts
	// (timeline.FleetClient.EndsAtGone).
	EndsAtGone bool `json:"endsAtGone"`
	// NeverSynced: its WatchList requests never ended its sync. Library,
	// LibraryVersion and Program are its client library as its
	// User-Agent says it ("client-go", "v0.37.2", "kubectl"), or as its
	// log or its requests show it, which RecognisedBy then says in words
	// ("" when the User-Agent names it); WatchList whether that lists
	// through WatchList by default ("on", "off", "unknown"; its log's
	// feature gate, where it gives one),
	// ProfileDifferences where its requests differ from the library's
	// defaults.
	NeverSynced        bool     `json:"neverSynced"`
	Library            string   `json:"library"`
	LibraryVersion     string   `json:"libraryVersion"`
	Program            string   `json:"program"`
	RecognisedBy       string   `json:"libraryRecognisedBy"`
	WatchList          string   `json:"watchListDefault"`
	ProfileDifferences []string `json:"profileDifferences"`
	// libraryWords is Library and LibraryVersion as the text's table
	// names them (timeline.ClientProfile.LibraryWords).
	libraryWords string
	// Servers are the server processes that answered the client, in
	// order, one entry per change ("c#1", "a#2": server a's second
	// process); omitted when no audit log says.
	Servers []string `json:"servers,omitempty"`
}

// FleetStepReport is one step of the stampede series.
type FleetStepReport struct {
	Time          string `json:"time"`
	With          int    `json:"withBookmarks"`
	Without       int    `json:"withoutBookmarks"`
	AtRiskWith    int    `json:"atRiskWithBookmarks"`
	AtRiskWithout int    `json:"atRiskWithoutBookmarks"`
}

// StampedeReport is a stretch where the most clients would relist at
// once, or be at risk of it.
type StampedeReport struct {
	From          string `json:"from"`
	To            string `json:"to"`
	With          int    `json:"withBookmarks"`
	Without       int    `json:"withoutBookmarks"`
	AtRiskWith    int    `json:"atRiskWithBookmarks"`
	AtRiskWithout int    `json:"atRiskWithoutBookmarks"`
	// Worst marks the stretch the summary's worst moment speaks of.
	Worst bool `json:"worst"`
	// Reasons are the models behind the counts at `from`, the details
	// of the summary's plain words.
	Reasons []StampedeReasonReport `json:"reasons"`
}

// StampedeReasonReport is one model's part in a stampede
// (timeline.StampedeReason).
type StampedeReasonReport struct {
	Model   string           `json:"model"`
	Outcome timeline.Outcome `json:"outcome"`
	Clients int              `json:"clients"`
	// Example is the model's exact reason for the first of the clients.
	Example string `json:"example"`
}

// FleetReconnectReport is what a reconnect of every client at one of the
// instants asked (--resume-at) would get: the cost of the API servers
// rolling then.
type FleetReconnectReport struct {
	// Time is the instant, or "+DUR" after each capture's own end.
	Time    string        `json:"time"`
	With    OutcomeReport `json:"withBookmarks"`
	Without OutcomeReport `json:"withoutBookmarks"`
	// AsRecorded: each client as it ran, with bookmarks where it asked.
	AsRecorded OutcomeReport `json:"asRecorded"`
}

// OutcomeReport counts clients by the outcome of their reconnect.
type OutcomeReport struct {
	Accepted int `json:"accepted"`
	AtRisk   int `json:"atRisk"`
	Refused  int `json:"refused"`
	Unknown  int `json:"unknown"`
	// Of the unknown, NoCursor had no resourceVersion to resume from,
	// BeforeRecording were asked about before their recordings begin and
	// AfterRecording after they ended.
	NoCursor        int `json:"noCursor"`
	BeforeRecording int `json:"beforeRecording"`
	AfterRecording  int `json:"afterRecording"`
	// UnnamedRV: of the unknown, clients read from their own logs, which
	// name no resourceVersion they held then; NoServer, clients asked
	// about when no API server took new requests, nor again in the
	// records.
	UnnamedRV int `json:"logNamesNoRV"`
	NoServer  int `json:"noServer"`
}

// AuditLogReport is one audit log read.
type AuditLogReport struct {
	Name     string         `json:"name"`
	First    string         `json:"first"`
	Last     string         `json:"last"`
	Records  int            `json:"records"`
	Requests int            `json:"requests"`
	ByVerb   map[string]int `json:"byVerb"`
}

// addFleet fills the fleet section when more than one client is loaded.
func (r *Report) addFleet(a *timeline.Analysis) {
	fl := a.Fleet()
	if fl == nil {
		return
	}
	tl := a.TL
	fr := &FleetReport{Clients: len(fl.Clients), Observed: fl.RelistsObserved, With: fl.RelistsWith, Without: fl.RelistsWithout,
		UnknownWith: fl.UnknownWith, UnknownWithout: fl.UnknownWithout, SavingsKnown: fl.SavingsKnown, Saved: fl.Saved, SavedPercent: timeline.RoundPercent(fl.SavedPercent), WithoutAtLeast: fl.WithoutAtLeast, WatchListsAsked: fl.WatchListsAsked,
		Rows: []FleetClientReport{}, Steps: []FleetStepReport{}, Stampedes: []StampedeReport{}, AuditLogs: []AuditLogReport{},
		ReconnectAt: []FleetReconnectReport{}, Cost: fleetCostReport(fl.Cost)}
	for _, c := range fl.Clients {
		row := FleetClientReport{Client: c.Name, File: tl.Files[c.File].Name, Bookmarks: c.Bookmarks, BookmarksUnseen: c.BookmarksUnseen, WithUnknown: c.WithUnknown(), Watches: c.Watches, Lists: c.Lists,
			Drops: c.Drops, Reconnects: c.Reconnects, With: c.RelistsWith, Without: c.RelistsWithout,
			UnknownWith: c.UnknownWith, UnknownWithout: c.UnknownWithout, LongestAge: secs(c.LongestAge), AgeKnown: c.AgeKnown, Relists: []RelistReport{}, EndsAtGone: c.EndsAtGone,
			NeverSynced: c.NeverSynced, Library: c.Profile.Library.String(), LibraryVersion: c.Profile.Version, Program: c.Profile.Program, RecognisedBy: c.Profile.RecognisedBy, WatchList: c.Profile.WatchList.String(),
			libraryWords:       c.Profile.LibraryWords(),
			ProfileDifferences: append([]string{}, c.ProfileDifferences...),
			Servers:            tl.ServerPath(c.File)}
		for _, rl := range c.Relists {
			row.Relists = append(row.Relists, relistReport(tl, rl))
		}
		fr.Rows = append(fr.Rows, row)
	}
	for _, s := range fl.Steps {
		fr.Steps = append(fr.Steps, FleetStepReport{Time: timeline.FormatTime(s.T, timeline.ClockArrival), With: s.With, Without: s.Without,
			AtRiskWith: s.AtRiskWith, AtRiskWithout: s.AtRiskWithout})
	}
	for k, s := range fl.Stampedes {
		sr := StampedeReport{From: timeline.FormatTime(s.From, timeline.ClockArrival), To: timeline.FormatTime(s.To, timeline.ClockArrival), With: s.With, Without: s.Without,
			AtRiskWith: s.AtRiskWith, AtRiskWithout: s.AtRiskWithout, Worst: k == fl.Worst, Reasons: []StampedeReasonReport{}}
		for _, m := range s.Reasons {
			sr.Reasons = append(sr.Reasons, StampedeReasonReport{Model: m.Model.String(), Outcome: m.Outcome, Clients: m.Clients, Example: m.Example})
		}
		fr.Stampedes = append(fr.Stampedes, sr)
	}
	for _, l := range tl.AuditLogs {
		fr.AuditLogs = append(fr.AuditLogs, AuditLogReport{Name: l.Name, First: timeline.FormatTime(l.First, timeline.ClockArrival), Last: timeline.FormatTime(l.Last, timeline.ClockArrival),
			Records: l.Records, Requests: l.Requests, ByVerb: l.ByVerb})
	}
	fr.AuditShared = AuditSharedReport(tl.AuditShared)
	r.Fleet = fr
}

// AuditSharedReport is what every client of the audit logs shares.
type AuditSharedReport struct {
	User    string `json:"user"`
	Address string `json:"address"`
}

// savingsUnknownWords says why the fleet's savings are not known when no
// client's records show bookmarks asked for and nothing shows the
// cluster's head at their reconnects (the summary says the same).
const savingsUnknownWords = "Whether bookmarks would have spared the relists of the clients that did not ask for them is not known: nothing recorded shows the cluster's head at their reconnects."

// writeFleet writes the fleet section.
func (r *Report) writeFleet(p *printer) {
	fr := r.Fleet
	if fr == nil {
		return
	}
	p.section(fmt.Sprintf("Fleet (%d clients)", fr.Clients))
	unseen := 0
	for _, c := range fr.Rows {
		if c.BookmarksUnseen {
			unseen++
		}
	}
	switch {
	case unseen == len(fr.Rows):
		p.printf("%d relists observed. The clients' logs show neither the bookmarks each asked for nor those it received: what bookmarks would have saved is not known.", fr.Observed)
	case !fr.SavingsKnown:
		p.printf("%d relists observed. %s", fr.Observed, savingsUnknownWords)
	default:
		p.printf("%d relists observed. %s", fr.Observed, fr.savingsWords())
	}
	if fr.UnknownWith+fr.UnknownWithout > 0 && unseen < len(fr.Rows) {
		p.printf(" Not judged (nothing shows the cluster's head then): %d reconnects with bookmarks, %d without.", fr.UnknownWith, fr.UnknownWithout)
	}
	if c := fr.Cost.BySource; fr.Observed > 0 {
		p.printf(" Served from the watch cache: %s; from etcd: %s", readWords(c.WatchCache), readWords(c.Etcd))
		if c.Unknown.Relists > 0 {
			p.printf("; unknown (no request recorded): %d", c.Unknown.Relists)
		}
		p.printf(".")
	}
	p.printf("\n")
	servers := false
	for _, c := range fr.Rows {
		servers = servers || len(c.Servers) > 0
	}
	var rows [][]string
	for _, c := range fr.Rows {
		var times []string
		for _, rl := range c.Relists {
			why := rl.Cause
			if rl.Inferred {
				why += ", inferred"
			}
			times = append(times, r.instant(rl.Time)+" ("+why+")")
		}
		if c.EndsAtGone {
			times = append(times, "one more due (its records end at a 410)")
		}
		lib := c.libraryWords
		synced := "yes"
		if c.NeverSynced {
			synced = "never"
		}
		asked, with := yesNo(c.Bookmarks), fmt.Sprint(c.With)
		switch {
		case c.BookmarksUnseen:
			asked, with = "unknown", "unknown"
		case c.WithUnknown:
			with = "unknown"
		}
		age := timeline.FormatSeconds(c.LongestAge)
		switch {
		case c.Reconnects == 0:
			age = "-"
		case !c.AgeKnown:
			age = "unknown"
		}
		relists := fmt.Sprint(len(c.Relists))
		if c.NeverSynced && !c.Bookmarks && c.Without > len(c.Relists) {
			// Its "had it not" is what it did: each reconnect of a
			// WatchList that never synced read everything again, no
			// relist, the same cost.
			relists += fmt.Sprintf(" (and %d whole reads)", c.Without-len(c.Relists))
		}
		row := []string{c.Client, lib, synced, asked, fmt.Sprint(c.Watches), fmt.Sprint(c.Lists), relists,
			with, fmt.Sprint(c.Without), age, orDash(strings.Join(times, ", "))}
		if servers {
			row = append(row, orDash(timeline.PathWords(c.Servers)))
		}
		rows = append(rows, row)
	}
	head := []string{"client", "library", "synced", "bookmarks", "watches", "lists", "relists", "had it asked for bookmarks", "had it not", "longest cursor age at a reconnect", "relists at"}
	if servers {
		head = append(head, "servers")
	}
	p.table(head, rows)
	writeRecognised(p, fr.Rows)
	r.writeCost(p)
	p.section("Stampedes (clients a reconnect would send to a relist, had every watch dropped then)")
	rows = nil
	for _, s := range fr.Stampedes {
		var models []string
		for _, m := range s.Reasons {
			models = append(models, fmt.Sprintf("%s %s %d", m.Model, m.Outcome, m.Clients))
		}
		from := r.instantFrom(s.From)
		if s.Worst {
			from += " (worst)"
		}
		rows = append(rows, []string{from, r.instant(s.To), fmt.Sprint(s.Without), fmt.Sprint(s.AtRiskWithout), fmt.Sprint(s.With), fmt.Sprint(s.AtRiskWith), orDash(strings.Join(models, ", "))})
	}
	p.table([]string{"from", "to", "had none asked for bookmarks", "at risk", "had every client asked", "at risk", "models (outcome, clients)"}, rows)
	if len(fr.ReconnectAt) > 0 {
		p.section("Every client reconnecting at once, at the instants asked (--resume-at)")
		rows = nil
		for _, q := range fr.ReconnectAt {
			rows = append(rows, []string{r.instant(q.Time), outcomesText(q.AsRecorded), outcomesText(q.Without), outcomesText(q.With)})
		}
		p.table([]string{"reconnect", "as each client ran", "had none asked for bookmarks", "had every client asked"}, rows)
	}
	if len(fr.AuditLogs) > 0 {
		p.section("Audit logs")
		rows = nil
		for _, l := range fr.AuditLogs {
			rows = append(rows, []string{l.Name, r.instant(l.First), r.instant(l.Last), fmt.Sprint(l.Records), fmt.Sprint(l.Requests), verbs(l.ByVerb)})
		}
		p.table([]string{"log", "first", "last", "records", "requests", "by verb"}, rows)
		if w := timeline.AuditShared(fr.AuditShared).Words(); w != "" {
			p.printf("\n%s\n", w)
		}
	}
}

// readWords says what relists read: "81 relists, 80 objects, 133.7
// KiB", and of those whose logs do not show it, so: "81 relists (the
// logs do not show what they read)".
func readWords(c CostReport) string {
	switch {
	case c.Unread == 0 || c.Relists == 0:
		return fmt.Sprintf("%d relists, %d objects, %s", c.Relists, c.Objects, quantity.Bytes(c.Bytes))
	case c.Unread == c.Relists:
		return fmt.Sprintf("%d relists (the logs do not show what they read)", c.Relists)
	}
	return fmt.Sprintf("%d relists, %d objects, %s (and %d more that the logs show, not what they read)", c.Relists-c.Unread, c.Objects, quantity.Bytes(c.Bytes), c.Unread)
}

// writeRecognised says, under the fleet's table, how the library column
// knows the clients whose User-Agents name none, with the first as an
// example.
func writeRecognised(p *printer, rows []FleetClientReport) {
	n, first := 0, -1
	for k, c := range rows {
		if c.RecognisedBy != "" {
			n++
			if first < 0 {
				first = k
			}
		}
	}
	if n == 0 {
		return
	}
	whose := fmt.Sprintf("%d clients' User-Agents name no library; theirs is", n)
	if n == 1 {
		whose = "1 client's User-Agent names no library; its library is"
	}
	p.printf("The library column: %s told by what the logs or the requests show (%s: %s).\n", whose, rows[first].Client, rows[first].RecognisedBy)
}

// addFleetReconnects answers the instants asked for the fleet as a whole.
func (r *Report) addFleetReconnects(a *timeline.Analysis, qs []timeline.ResumeQuery) {
	if r.Fleet == nil {
		return
	}
	for _, q := range qs {
		fc, ok := a.FleetReconnect(q)
		if !ok {
			return
		}
		t := timeline.FormatTime(q.At, timeline.ClockArrival)
		if q.Relative {
			t = "+" + q.After.String()
		}
		r.Fleet.ReconnectAt = append(r.Fleet.ReconnectAt, FleetReconnectReport{Time: t, With: OutcomeReport(fc.With), Without: OutcomeReport(fc.Without), AsRecorded: OutcomeReport(fc.AsRecorded)})
	}
}

// outcomesText says the counts in a table cell.
func outcomesText(o OutcomeReport) string {
	return fmt.Sprintf("%d refused, %d at risk, %d accepted, %d unknown", o.Refused, o.AtRisk, o.Accepted, o.Unknown)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// verbs lists the requests of a log by verb, most first.
func verbs(m map[string]int) string {
	vs := make([]string, 0, len(m))
	for v := range m {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return m[vs[i]] > m[vs[j]] || m[vs[i]] == m[vs[j]] && vs[i] < vs[j] })
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%s %d", v, m[v]))
	}
	return orDash(strings.Join(out, ", "))
}

// savingsWords says what bookmarks save, when the records tell it, with
// the verdict's figures: "Relists had every client asked for bookmarks:
// 0; had none: 81; bookmarks save 81 (100.0 %)."
func (fr *FleetReport) savingsWords() string {
	least := ""
	if fr.WithoutAtLeast {
		least = "at least "
		if fr.Saved <= 0 {
			// "Save at least 0" says nothing, as the verdict knows.
			return fmt.Sprintf("Relists had every client asked for bookmarks: %d; had none: at least as many; what bookmarks would save is not known.", fr.With)
		}
	}
	return fmt.Sprintf("Relists had every client asked for bookmarks: %d; had none: %s%d; bookmarks save %s%d (%s).", fr.With, least, fr.Without, least, fr.Saved, timeline.FormatPercent(fr.SavedPercent))
}
