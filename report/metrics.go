package report

import (
	"fmt"
	"sort"
	"strings"

	"watchlens/timeline"
)

// MetricsReport is the Prometheus exports read: each file, each
// server with its restarts, and each metric's series.
// It is the JSON contract's `metrics` (REPORT.md).
type MetricsReport struct {
	// ServerLabel is the label whose value names a server.
	ServerLabel string                `json:"serverLabel"`
	Servers     []MetricsServerReport `json:"servers"`
	From        string                `json:"from"`
	To          string                `json:"to"`
	Files       []MetricsFileReport   `json:"files"`
	Series      []MetricReport        `json:"series"`
}

// MetricsServerReport is one server of the exports.
type MetricsServerReport struct {
	Name string `json:"name"`
	// Restarts are the instants a new process started (the first
	// process scraped is none).
	Restarts []string `json:"restarts"`
}

// MetricsFileReport is one export read.
type MetricsFileReport struct {
	Name string `json:"name"`
	// Format is "query_range", "query", "text" (a raw scrape),
	// "headers" (a scrape's response headers, kept beside it),
	// "grafana-csv" or "grafana-frame".
	Format  string `json:"format"`
	Series  int    `json:"series"`
	Points  int    `json:"points"`
	Skipped int    `json:"skipped"`
	// At is a scrape's instant, "" for a query's answer or when unknown.
	At string `json:"at"`
	// Server is the server a raw scrape is of.
	Server string `json:"server,omitempty"`
}

// MetricReport is one metric: its series over every file, files merged.
type MetricReport struct {
	Metric string `json:"metric"`
	// Used says the analysis reads it (timeline.Uses).
	Used    bool     `json:"used"`
	Series  int      `json:"series"`
	Points  int      `json:"points"`
	Servers []string `json:"servers"`
	From    string   `json:"from"`
	To      string   `json:"to"`
}

// metricsReport reports m; nil when no export was read.
func metricsReport(m *timeline.Metrics) *MetricsReport {
	if m == nil {
		return nil
	}
	at := func(t int64) string {
		if t == 0 {
			return ""
		}
		return timeline.FormatTime(t, timeline.ClockArrival)
	}
	mr := &MetricsReport{ServerLabel: m.ServerLabel, Servers: []MetricsServerReport{}, From: at(m.From), To: at(m.To),
		Files: []MetricsFileReport{}, Series: []MetricReport{}}
	for _, s := range m.Servers {
		sr := MetricsServerReport{Name: s, Restarts: []string{}}
		for _, t := range m.Restarts(s) {
			sr.Restarts = append(sr.Restarts, at(t))
		}
		mr.Servers = append(mr.Servers, sr)
	}
	for _, f := range m.Files {
		mr.Files = append(mr.Files, MetricsFileReport{Name: f.Name, Format: f.Format.String(), Series: f.Series, Points: f.Points,
			Skipped: f.Skipped, At: at(f.At), Server: f.Server})
	}
	byName := map[string]*MetricReport{}
	servers := map[string]map[string]bool{}
	for k := range m.Series {
		s := &m.Series[k]
		r := byName[s.Name]
		if r == nil {
			r = &MetricReport{Metric: s.Name, Used: timeline.Uses(s.Name), Servers: []string{}}
			byName[s.Name] = r
			servers[s.Name] = map[string]bool{}
		}
		r.Series++
		r.Points += len(s.T)
		if srv := s.Label(m.ServerLabel); srv != "" {
			servers[s.Name][srv] = true
		}
		if len(s.T) > 0 && s.T[0] != 0 {
			if f := at(s.T[0]); r.From == "" || f < r.From {
				r.From = f
			}
			if t := at(s.T[len(s.T)-1]); t > r.To {
				r.To = t
			}
		}
	}
	for _, name := range sortedKeys(byName) {
		r := byName[name]
		for srv := range servers[name] {
			r.Servers = append(r.Servers, srv)
		}
		sort.Strings(r.Servers)
		mr.Series = append(mr.Series, *r)
	}
	return mr
}

// metricsDiagnostics are the exports' diagnostics, as the parser's.
func metricsDiagnostics(m *timeline.Metrics) []DiagnosticReport {
	var out []DiagnosticReport
	if m == nil {
		return out
	}
	for _, f := range m.Files {
		for _, d := range f.Diagnostics {
			out = append(out, diagnosticReport(f.Name, d, ""))
		}
	}
	return out
}

// writeMetrics writes the metrics section, when exports were read.
func (r *Report) writeMetrics(p *printer) {
	m := r.Metrics
	if m == nil {
		return
	}
	p.section("Metrics (Prometheus exports)")
	var names []string
	for _, s := range m.Servers {
		n := s.Name
		if len(s.Restarts) > 0 {
			at := make([]string, len(s.Restarts))
			for k, t := range s.Restarts {
				at[k] = r.second(t)
			}
			n += " (restarted about " + strings.Join(at, ", ") + ")"
		}
		names = append(names, n)
	}
	p.printf("Servers by label %q: %s. From %s to %s.\n\n", m.ServerLabel, orDash(strings.Join(names, "; ")), r.instant(m.From), r.instant(m.To))
	var rows [][]string
	for _, f := range m.Files {
		rows = append(rows, []string{f.Name, f.Format, fmt.Sprint(f.Series), fmt.Sprint(f.Points), fmt.Sprint(f.Skipped), r.instant(f.At), orDash(f.Server)})
	}
	p.table([]string{"file", "format", "series", "points", "skipped", "scraped at", "server"}, rows)
	rows = nil
	others := 0
	for _, s := range m.Series {
		if !s.Used {
			others++
			continue
		}
		rows = append(rows, []string{s.Metric, fmt.Sprint(s.Series), fmt.Sprint(s.Points), orDash(strings.Join(s.Servers, ", ")), r.instant(s.From), r.instant(s.To)})
	}
	p.printf("\nThe metrics the analysis reads:\n\n")
	p.table([]string{"metric", "series", "points", "servers", "from", "to"}, rows)
	if others > 0 {
		p.printf("\n%d other metrics were read and are not used (the JSON report lists them).\n", others)
	}
}
