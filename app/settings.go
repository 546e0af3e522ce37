package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// SettingsPanel is the Model settings tab: the retention-model form.
// Each change posts the new parameters (actionParams); the page re-runs
// the analysis, which is cheap: the timeline itself does not depend on
// it.
type SettingsPanel struct {
	goapp.Compo
	Params timeline.Params
	// Detected are the restarts the captures suggest.
	Detected []timeline.DetectedRestart
	// Servers are the API servers the records name: the count of servers
	// is at least theirs.
	Servers []string
	// EtcdCompactedEvery is how often the metrics show etcd compacting, 0
	// when they do not: the etcd interval's help says it.
	EtcdCompactedEvery time.Duration
	// Analyzing: the analysis of Params is on its way.
	Analyzing bool
	// Kept is whether the user opened the form, which stays while
	// another tab is shown.
	Kept *settingsKept

	problem string
}

// settingsKept is what the Model settings tab keeps while another tab is
// shown.
type settingsKept struct {
	open bool
}

// actionParams: the user changed the model's settings; its value is the
// new timeline.Params.
const actionParams = "settings/params"

func (s *SettingsPanel) Render() goapp.UI {
	pr := s.Params
	def := timeline.DefaultParams()
	return goapp.Details().ID("settings").Class("panel").Open(s.Kept.open).
		OnToggle(func(ctx goapp.Context, e goapp.Event) { s.Kept.open = ctx.JSSrc().Get("open").Bool() }).Body(
		goapp.Summary().Text("Retention model"),
		goapp.P().Class("hint").Text("When would the API server have answered a resume with 410 Gone? Set what you know of your server; the defaults are the Kubernetes defaults."),
		goapp.Div().Class("settings-grid").Body(
			numberField("set-window", "Watch cache history W (seconds)", pr.CacheWindow.Seconds(), def.CacheWindow.Seconds(),
				"eventFreshDuration: the cache keeps at least this much history (75 s by default).", s.onDuration(func(p *timeline.Params, d time.Duration) { p.CacheWindow = d })),
			numberField("set-count", "Watch cache capacity N (events, 0 = off)", float64(pr.CacheCount), float64(def.CacheCount),
				"The ring buffer holds the last N events of the resource type: exact only for an unfiltered capture.", s.onInt(func(p *timeline.Params, n int) { p.CacheCount = n })),
			numberField("set-etcd", "etcd compaction interval (seconds, 0 = off)", pr.EtcdInterval.Seconds(), def.EtcdInterval.Seconds(),
				s.etcdHelp(), s.onDuration(func(p *timeline.Params, d time.Duration) { p.EtcdInterval = d })),
			numberField("set-delay", "Reconnect delay (seconds)", pr.Delay.Seconds(), def.Delay.Seconds(),
				"A cursor dropped at t resumes at t + delay; client-go re-watches at once.", s.onDuration(func(p *timeline.Params, d time.Duration) { p.Delay = d })),
			goapp.Label().For("set-restarts").Body(
				goapp.Span().Text("API server restarts (RFC 3339 FROM/TO or instants, comma-separated)"),
				goapp.Input().ID("set-restarts").Type("text").Value(restartsText(pr.Restarts)).Placeholder("2026-11-30T00:58:00Z/2026-11-30T00:59:05Z").OnChange(s.onRestarts),
				goapp.Small().Text("From SIGTERM to the new process serving. With one server, every cursor last current before the new process served is refused."),
			),
			numberField("set-servers", "API servers behind the load balancer", float64(max(pr.Servers, 1, len(s.Servers))), float64(def.Servers),
				s.serversHelp(), s.onInt(func(p *timeline.Params, n int) { p.Servers = max(n, 1) })),
			goapp.Label().For("set-cache").Class("check").Body(
				goapp.Input().ID("set-cache").Type("checkbox").Checked(pr.WatchCache).OnChange(s.onWatchCache),
				goapp.Span().Text(" watch cache on (off: --watch-cache=false, every watch reads etcd)"),
			),
		),
		s.renderZone(),
		s.renderDetectedRestarts(),
		goapp.Button().ID("settings-reset").Text("Reset to defaults").OnClick(s.onReset),
		goapp.If(s.Analyzing, func() goapp.UI { return goapp.Span().Class("hint").Text(" re-computing the verdicts…") }),
		goapp.If(s.problem != "", func() goapp.UI {
			return goapp.P().Class("problem").Role("alert").Text(s.problem)
		}),
	)
}

// renderZone chooses where the page writes absolute times: UTC, as the
// JSON report and most logs do, or the reader's own zone; a link's other
// zone (tz=) is offered as it came.
func (s *SettingsPanel) renderZone() goapp.UI {
	chosen := zoneName(s.Params.Zone)
	option := func(value, text string) goapp.UI {
		return goapp.Option().Value(value).Selected(chosen == value).Text(text)
	}
	return goapp.Label().For("set-zone").Class("zone").Body(
		goapp.Span().Text("Times in "),
		goapp.Select().ID("set-zone").OnChange(s.onZone).Body(
			option("", "UTC"),
			option(zoneLocal, "your time zone ("+readerZone().String()+")"),
			goapp.If(chosen != "" && chosen != zoneLocal, func() goapp.UI { return option(chosen, chosen) }),
		),
		goapp.Small().Text(" Every time on the page and in its exports names its zone; the JSON report stays UTC."),
	)
}

func (s *SettingsPanel) onZone(ctx goapp.Context, e goapp.Event) {
	p := s.Params
	p.Zone = parseZoneName(ctx.JSSrc().Get("value").String())
	s.post(ctx, p)
}

// serversHelp says what the servers' count does, and, when the records
// name the servers, that the count is at least theirs.
func (s *SettingsPanel) serversHelp() string {
	const does = "With several, a restarted server's clients move to another whose cache kept its history."
	if len(s.Servers) < 2 {
		return does
	}
	return fmt.Sprintf("%s The records name %d (%s), each judged by its own evidence: the count is at least that.", does, len(s.Servers), strings.Join(s.Servers, ", "))
}

// etcdHelp says what the etcd interval is, and what the metrics show of
// it: the model uses the setting, not the exports' figure, which the
// report only suggests (-etcd-interval), so the field says it.
func (s *SettingsPanel) etcdHelp() string {
	help := "--etcd-compaction-interval: uncached watches keep 1 to 2 intervals of history."
	if e := s.EtcdCompactedEvery; e > 0 && e != s.Params.EtcdInterval {
		help += fmt.Sprintf(" The metrics exports show etcd compacting every %s: set %s to model that.", timeline.FormatDuration(int64(e)), strconv.FormatFloat(e.Seconds(), 'f', -1, 64))
	}
	return help
}

// renderDetectedRestarts offers the restarts the captures suggest, with
// their evidence; nothing is applied until the user asks. Restarts the
// audit logs show are applied already, each to its own server's
// verdicts: the panel says so and offers nothing.
func (s *SettingsPanel) renderDetectedRestarts() goapp.UI {
	if len(s.Detected) == 0 || len(s.Params.Restarts) > 0 {
		return goapp.Div().ID("detected-restarts")
	}
	if timeline.AuditLogged(s.Detected) {
		return goapp.Div().ID("detected-restarts").Class("hint").Text(fmt.Sprintf("The audit logs show %s, each applied to its own server's verdicts: nothing to set here.", quantity.Plural(len(s.Detected), "API server restart")))
	}
	d := s.Detected[0]
	lead := "The captures suggest an API server restart"
	switch {
	case d.Server != "":
		lead = "API server " + d.Server + "'s own log shows a restart"
	case d.Logs != nil:
		lead = "The audit logs show a restart of API server " + d.ServerName
	}
	text := fmt.Sprintf("%s: %d watches of %d clients ended with no error in their streams from %s, and %s.",
		lead, len(d.Sessions), d.Files, timeline.FormatClock(d.Ended, s.Params.Zone), d.ServedWords(timeline.FormatClock(d.Served, s.Params.Zone)))
	if d.Unreachable {
		text = fmt.Sprintf("The captures suggest an API server restart, or the way to the servers cut: %d watches of %d clients ended with no error in their streams at %s and no reconnect reached a server until %s.",
			len(d.Sessions), d.Files, timeline.FormatClock(d.Ended, s.Params.Zone), timeline.FormatClock(d.Served, s.Params.Zone))
	}
	if n := len(s.Detected) - 1; n > 0 {
		text += fmt.Sprintf(" (%s more.)", quantity.Plural(n, "restart"))
	}
	if d.AnotherServed() && s.Params.Servers < 2 {
		text += " A server answered sooner than a restarted one can: another served meanwhile, so applying them counts 2 API servers (set more below if you know)."
	}
	return goapp.Div().ID("detected-restarts").Class("hint").Body(
		goapp.Text(text+" "),
		goapp.Button().ID("apply-restarts").Text("Apply them").OnClick(s.onApplyRestarts),
	)
}

func (s *SettingsPanel) onApplyRestarts(ctx goapp.Context, e goapp.Event) {
	s.post(ctx, withRestarts(s.Params, s.Detected))
}

// withRestarts is p with the detected restarts applied. A reconnect
// answered sooner than a restarted server serves again went to another
// server: with one server counted, every cursor from before the restart
// would read as refused, so the count becomes at least 2.
func withRestarts(p timeline.Params, detected []timeline.DetectedRestart) timeline.Params {
	p.Restarts = nil
	for _, d := range detected {
		p.Restarts = append(p.Restarts, d.Window())
		if d.AnotherServed() {
			p.Servers = max(p.Servers, 2)
		}
	}
	return p
}

func numberField(id, label string, value, def float64, help string, onChange goapp.EventHandler) goapp.UI {
	return goapp.Label().For(id).Body(
		goapp.Span().Text(label),
		goapp.Input().ID(id).Type("number").Min(0).Attr("step", "any").Value(formatNumber(value)).OnChange(onChange),
		goapp.Small().Text(fmt.Sprintf("%s Default %s.", help, formatNumber(def))),
	)
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func (s *SettingsPanel) onDuration(set func(*timeline.Params, time.Duration)) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		v, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64)
		if err != nil || v < 0 {
			s.problem = "Durations are seconds, zero or more."
			return
		}
		p := s.Params
		set(&p, time.Duration(v*float64(time.Second)))
		s.post(ctx, p)
	}
}

func (s *SettingsPanel) onInt(set func(*timeline.Params, int)) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		v, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
		if err != nil || v < 0 {
			s.problem = "The capacity is a whole number of events, zero or more."
			return
		}
		p := s.Params
		set(&p, v)
		s.post(ctx, p)
	}
}

func (s *SettingsPanel) onRestarts(ctx goapp.Context, e goapp.Event) {
	restarts, err := parseRestarts(ctx.JSSrc().Get("value").String())
	if err != nil {
		s.problem = err.Error()
		return
	}
	p := s.Params
	p.Restarts = restarts
	s.post(ctx, p)
}

func (s *SettingsPanel) onWatchCache(ctx goapp.Context, e goapp.Event) {
	p := s.Params
	p.WatchCache = ctx.JSSrc().Get("checked").Truthy()
	s.post(ctx, p)
}

// onReset resets the model; the zone times are written in is the
// reader's, not the model's, and stays.
func (s *SettingsPanel) onReset(ctx goapp.Context, e goapp.Event) {
	p := timeline.DefaultParams()
	p.Zone = s.Params.Zone
	s.post(ctx, p)
}

// post hands the page the settings the user chose. The panel takes them
// at once: a second change before the page renders builds on them.
func (s *SettingsPanel) post(ctx goapp.Context, p timeline.Params) {
	s.Params = p
	s.problem = ""
	ctx.NewActionWithValue(actionParams, p)
}

func restartsText(restarts []timeline.Restart) string {
	var parts []string
	for _, r := range restarts {
		parts = append(parts, r.String())
	}
	return strings.Join(parts, ", ")
}

func parseRestarts(s string) ([]timeline.Restart, error) {
	var out []timeline.Restart
	for _, part := range strings.Split(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		r, err := timeline.ParseRestart(part)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
