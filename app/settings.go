package app

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"watchlens/app/words"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderSettings is the retention-model form. Every change re-runs the
// analysis, which is cheap: the timeline itself does not depend on it.
func (p *Page) renderSettings() goapp.UI {
	pr := p.params
	def := timeline.DefaultParams()
	return goapp.Details().ID("settings").Class("panel").Body(
		goapp.Summary().Text("Retention model"),
		goapp.P().Class("hint").Text("When would the API server have answered a resume with 410 Gone? Set what you know of your server; the defaults are the Kubernetes defaults."),
		goapp.Div().Class("settings-grid").Body(
			numberField("set-window", "Watch cache history W (seconds)", pr.CacheWindow.Seconds(), def.CacheWindow.Seconds(),
				"eventFreshDuration: the cache keeps at least this much history (75 s by default).", p.onDuration(func(d time.Duration) { p.params.CacheWindow = d })),
			numberField("set-count", "Watch cache capacity N (events, 0 = off)", float64(pr.CacheCount), float64(def.CacheCount),
				"The ring buffer holds the last N events of the resource type: exact only for an unfiltered capture.", p.onInt(func(n int) { p.params.CacheCount = n })),
			numberField("set-etcd", "etcd compaction interval (seconds, 0 = off)", pr.EtcdInterval.Seconds(), def.EtcdInterval.Seconds(),
				"--etcd-compaction-interval: uncached watches keep 1 to 2 intervals of history.", p.onDuration(func(d time.Duration) { p.params.EtcdInterval = d })),
			numberField("set-delay", "Reconnect delay (seconds)", pr.Delay.Seconds(), def.Delay.Seconds(),
				"A cursor dropped at t resumes at t + delay; client-go re-watches at once.", p.onDuration(func(d time.Duration) { p.params.Delay = d })),
			goapp.Label().For("set-restarts").Body(
				goapp.Span().Text("API server restarts (RFC 3339 FROM/TO or instants, comma-separated)"),
				goapp.Input().ID("set-restarts").Type("text").Value(restartsText(pr.Restarts)).Placeholder("2026-11-30T00:58:00Z/2026-11-30T00:59:05Z").OnChange(p.onRestarts),
				goapp.Small().Text("From SIGTERM to the new process serving. With one server, every cursor last current before the new process served is refused."),
			),
			numberField("set-servers", "API servers behind the load balancer", float64(max(pr.Servers, 1)), float64(def.Servers),
				"With several, a restarted server's clients move to another whose cache kept its history.", p.onInt(func(n int) { p.params.Servers = max(n, 1) })),
			goapp.Label().For("set-cache").Class("check").Body(
				goapp.Input().ID("set-cache").Type("checkbox").Checked(pr.WatchCache).OnChange(p.onWatchCache),
				goapp.Span().Text(" watch cache on (off: --watch-cache=false, every watch reads etcd)"),
			),
		),
		p.renderDetectedRestarts(),
		goapp.Button().ID("settings-reset").Text("Reset to defaults").OnClick(p.onResetSettings),
		goapp.If(p.analyzing, func() goapp.UI { return goapp.Span().Class("hint").Text(" re-computing the verdicts…") }),
		goapp.If(p.settingsProblem != "", func() goapp.UI {
			return goapp.P().Class("problem").Role("alert").Text(p.settingsProblem)
		}),
	)
}

// renderDetectedRestarts offers the restarts the captures suggest, with
// their evidence; nothing is applied until the user asks.
func (p *Page) renderDetectedRestarts() goapp.UI {
	an := p.analysis.an
	if an == nil || len(an.Restarts) == 0 || len(p.params.Restarts) > 0 {
		return goapp.Div().ID("detected-restarts")
	}
	d := an.Restarts[0]
	text := fmt.Sprintf("The captures suggest an API server restart: %d watches in %d files ended cleanly at %s and were answered again by %s.",
		len(d.Sessions), d.Files, time.Unix(0, d.Ended).UTC().Format("15:04:05.000"), time.Unix(0, d.Served).UTC().Format("15:04:05.000"))
	if n := len(an.Restarts) - 1; n > 0 {
		text += fmt.Sprintf(" (%s more.)", words.Plural(n, "restart"))
	}
	return goapp.Div().ID("detected-restarts").Class("hint").Body(
		goapp.Text(text+" "),
		goapp.Button().ID("apply-restarts").Text("Apply them").OnClick(p.onApplyRestarts),
	)
}

func (p *Page) onApplyRestarts(ctx goapp.Context, e goapp.Event) {
	an := p.analysis.an
	if an == nil {
		return
	}
	p.params.Restarts = nil
	for _, d := range an.Restarts {
		p.params.Restarts = append(p.params.Restarts, d.Window())
	}
	p.settingsChanged(ctx)
}

func numberField(id, label string, value, def float64, help string, onChange goapp.EventHandler) goapp.UI {
	return goapp.Label().For(id).Body(
		goapp.Span().Text(label),
		goapp.Input().ID(id).Type("number").Min(0).Attr("step", "any").Value(formatNumber(value)).OnChange(onChange),
		goapp.Small().Text(fmt.Sprintf("%s Default %s.", help, formatNumber(def))),
	)
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func (p *Page) onDuration(set func(time.Duration)) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		v, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64)
		if err != nil || v < 0 {
			p.settingsProblem = "Durations are seconds, zero or more."
			return
		}
		set(time.Duration(v * float64(time.Second)))
		p.settingsChanged(ctx)
	}
}

func (p *Page) onInt(set func(int)) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		v, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
		if err != nil || v < 0 {
			p.settingsProblem = "The capacity is a whole number of events, zero or more."
			return
		}
		set(v)
		p.settingsChanged(ctx)
	}
}

func (p *Page) onRestarts(ctx goapp.Context, e goapp.Event) {
	restarts, err := parseRestarts(ctx.JSSrc().Get("value").String())
	if err != nil {
		p.settingsProblem = err.Error()
		return
	}
	p.params.Restarts = restarts
	p.settingsChanged(ctx)
}

func (p *Page) onWatchCache(ctx goapp.Context, e goapp.Event) {
	p.params.WatchCache = ctx.JSSrc().Get("checked").Truthy()
	p.settingsChanged(ctx)
}

func (p *Page) onResetSettings(ctx goapp.Context, e goapp.Event) {
	p.params = timeline.DefaultParams()
	p.settingsChanged(ctx)
}

// settingsChanged re-runs the model in a goroutine: on a million events it
// takes a few hundred ms in wasm. Only the newest request's answer is kept.
func (p *Page) settingsChanged(ctx goapp.Context) {
	p.settingsProblem = ""
	p.saveURL(ctx)
	if p.capture == nil {
		return
	}
	tl, params := p.capture.tl, p.params
	p.analyzing = true
	ctx.Async(func() {
		a := analyze(tl, params)
		ctx.Dispatch(func(goapp.Context) {
			if p.capture == nil || p.capture.tl != tl || !reflect.DeepEqual(p.params, params) {
				return // a newer capture or setting is on its way
			}
			p.analysis, p.analyzing = a, false
		})
	})
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
