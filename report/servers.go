package report

import (
	"strings"

	"watchlens/timeline"
)

// ServerReport is one API server as its audit logs show it.
// It is the JSON contract's `servers[]` (REPORT.md).
type ServerReport struct {
	Name         string              `json:"name"`
	Incarnations []IncarnationReport `json:"incarnations"`
}

// IncarnationReport is one process of a server: the span its audit logs
// cover, when it stopped taking new requests (timeline.Incarnation's
// Closing and ClosingBy, nil when no record shows it, and ClosingFrom
// the record that does), and those logs.
type IncarnationReport struct {
	From        string   `json:"from"`
	To          string   `json:"to"`
	Closing     *string  `json:"closing"`
	ClosingBy   *string  `json:"closingBy"`
	ClosingFrom string   `json:"closingFrom"`
	Logs        []string `json:"logs"`
}

// closingFrom names the record that shows a closing, "" for none.
func closingFrom(closing int64, source timeline.ClosingSource) string {
	if closing == 0 {
		return ""
	}
	return source.String()
}

// addServers lists the servers the audit logs show.
func (r *Report) addServers(tl *timeline.Timeline) {
	for _, s := range tl.Servers {
		sr := ServerReport{Name: s.Name}
		for _, inc := range s.Incarnations {
			ir := IncarnationReport{From: timeline.FormatTime(inc.From, timeline.ClockArrival), To: timeline.FormatTime(inc.To, timeline.ClockArrival),
				Closing: nullableTime(inc.Closing, inc.Closing != 0, timeline.ClockArrival), ClosingBy: nullableTime(inc.ClosingBy, inc.ClosingBy != 0, timeline.ClockArrival),
				ClosingFrom: closingFrom(inc.Closing, inc.ClosingSource)}
			for _, l := range inc.Logs {
				ir.Logs = append(ir.Logs, tl.AuditLogs[l].Name)
			}
			sr.Incarnations = append(sr.Incarnations, ir)
		}
		r.Servers = append(r.Servers, sr)
	}
}

// answeredBy is the server and process (1-based) that answered session g,
// "" and 0 when not known.
func answeredBy(tl *timeline.Timeline, g int) (string, int) {
	s, inc, ok := tl.ServerOf(g)
	if !ok {
		return "", 0
	}
	return tl.Servers[s].Name, inc + 1
}

// serverLabel names a server's process (incarnation counts from 1, as
// the report's JSON does) as timeline.ProcessName does: "a#2".
func serverLabel(server string, incarnation int) string {
	if server == "" {
		return ""
	}
	return timeline.ProcessName(server, incarnation-1)
}

// writeServers writes the servers section, when the audit logs show any.
func (r *Report) writeServers(p *printer) {
	if len(r.Servers) == 0 {
		return
	}
	from := "their metrics"
	for _, s := range r.Servers {
		for _, inc := range s.Incarnations {
			if len(inc.Logs) > 0 {
				from = "their audit logs"
			}
		}
	}
	p.section("API servers (from " + from + ")")
	// When each process stopped taking new requests, where a record shows
	// it of some: the column is left out otherwise, not all dashes.
	closings := false
	for _, s := range r.Servers {
		for _, inc := range s.Incarnations {
			closings = closings || inc.Closing != nil
		}
	}
	var rows [][]string
	for _, s := range r.Servers {
		for k, inc := range s.Incarnations {
			row := []string{serverLabel(s.Name, k+1), r.instant(inc.From), r.instant(inc.To)}
			if closings {
				row = append(row, r.closingWords(inc.Closing, inc.ClosingBy, inc.ClosingFrom))
			}
			rows = append(rows, append(row, strings.Join(inc.Logs, ", ")))
		}
	}
	head := []string{"server", "from", "to"}
	if closings {
		head = append(head, "took no new request")
	}
	p.table(append(head, "logs"), rows)
}
