package app

import (
	"strings"

	"watchlens/app/words"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderHeader is the page's one-line header: the files open, the ways to
// open others (files, a sample, a link), the search box, sharing and the
// exports. It wraps on a narrow screen, every control staying reachable.
func (p *Page) renderHeader() goapp.UI {
	return goapp.Header().Class("bar").Body(
		goapp.H1().Title("Drop recorded Kubernetes watch captures anywhere on this page: they are read here, in your browser, and never uploaded.").Text("watchlens"),
		goapp.Span().ID("open-files").Class("open-files").Title(strings.Join(p.fileNames(), "\n")).Text(p.filesText()),
		goapp.Details().ID("open-menu").Class("menu").Body(
			goapp.Summary().Title("Open files, a built-in sample or a link; or drop files anywhere on the page").Text("Open"),
			goapp.Div().Class("menu-items open-items").Body(
				goapp.Button().ID("choose-file").Title("Or drop files anywhere on the page").Text("Open files…").OnClick(p.onChoose),
				goapp.Input().ID("file-input").Class("hidden").Type("file").Multiple(true).OnChange(p.onFilesChosen),
				goapp.Label().For("sample-menu").Text("or a built-in sample"),
				goapp.Select().ID("sample-menu").Title("Open a built-in sample").OnChange(p.onSampleChosen).Body(
					goapp.Option().Value("").Text("Sample…"),
					goapp.Range(p.samples).Slice(func(i int) goapp.UI {
						sm := p.samples[i]
						return goapp.Option().Value(sm.name).Title(sm.about).Selected(sm.name == p.view.sample).Text(sm.name)
					}),
				),
				p.renderOpenURL(),
			),
		),
		goapp.If(p.capture != nil, p.renderViewSwitch),
		goapp.If(p.capture != nil, p.renderFind),
		goapp.If(p.capture != nil, p.renderShare),
	)
}

// fileNames are the names of the files open.
func (p *Page) fileNames() []string {
	if p.capture == nil {
		return nil
	}
	names := make([]string, len(p.capture.tl.Files))
	for i, f := range p.capture.tl.Files {
		names[i] = f.Name
	}
	return names
}

// filesText names the files open, for the header and the tab's title.
func (p *Page) filesText() string {
	names := p.fileNames()
	for i, n := range names {
		names[i] = words.ShortName(words.Isolated(n))
	}
	switch {
	case len(names) == 0:
		return ""
	case len(names) <= 3:
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:2], ", ") + " and " + words.Plural(len(names)-2, "other file")
}

// setTitle names the files open in the browser's tab.
func (p *Page) setTitle(ctx goapp.Context) {
	if t := p.filesText(); t != "" {
		ctx.Page().SetTitle("%s", t+" · watchlens")
	}
}

// renderOpenURL is the field that opens a capture from a link (?url=).
func (p *Page) renderOpenURL() goapp.UI {
	return goapp.Div().ID("open-url-form").Class("open-url").Body(
		goapp.Label().For("open-url").Class("tl-visually-hidden").Text("Open a capture from a link"),
		goapp.Input().ID("open-url").Type("url").Placeholder("link to a capture (https)").Value(p.view.url).OnKeyDown(p.onOpenURLKey),
		goapp.Button().ID("open-url-go").Text("Open URL").OnClick(p.onOpenURL),
	)
}

func (p *Page) onOpenURLKey(ctx goapp.Context, e goapp.Event) {
	if e.Get("key").String() != "Enter" {
		ctx.PreventUpdate()
		return
	}
	p.onOpenURL(ctx, e)
}

func (p *Page) onOpenURL(ctx goapp.Context, e goapp.Event) {
	u := strings.TrimSpace(goapp.Window().GetElementByID("open-url").Get("value").String())
	if u == "" {
		return
	}
	p.problem = ""
	ctx.Async(func() { p.openURL(ctx, u) })
}
