package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// defaultSample opens on a first visit with no file, so a new user sees a
// real result at once: a broad watch with bookmarks and real arrival times.
const defaultSample = "w1-broad-configmaps-bookmarks.ts.http"

// Page is the app's only page: a page-wide drop zone around the controls and
// the results.
type Page struct {
	goapp.Compo

	samples         []string
	loading         *progress
	results         []*fileResult
	problem         string
	dragging        bool
	updateAvailable bool
}

// progress is the state of the file being read.
type progress struct {
	name   string
	size   int64
	read   int64
	events int
}

// source is a capture to read: a Blob on the JS side and what to call it.
type source struct {
	name string
	blob goapp.Value
}

func (p *Page) OnMount(ctx goapp.Context) {
	// A cache-first service worker can serve a stale build; asking twice
	// matters because the first call may run before registration resolves.
	goapp.TryUpdate()
	ctx.After(3*time.Second, func(goapp.Context) { goapp.TryUpdate() })

	wanted := ctx.Page().URL().Query().Get("sample")
	if wanted == "" {
		wanted = defaultSample
	}
	ctx.Async(func() {
		names, err := fetchSampleNames(ctx)
		ctx.Dispatch(func(goapp.Context) {
			p.samples = names
			if err != nil {
				p.problem = "The built-in samples could not be listed: " + err.Error()
			}
		})
		if err == nil {
			p.openSample(ctx, wanted)
		}
	})
}

func (p *Page) OnAppUpdate(ctx goapp.Context) {
	p.updateAvailable = ctx.AppUpdateAvailable()
}

func (p *Page) Render() goapp.UI {
	return goapp.Div().
		Class("page").
		Class(classIf(p.dragging, "dragging")).
		OnDragOver(p.onDragOver).
		OnDragLeave(p.onDragLeave).
		OnDrop(p.onDrop).
		Body(
			goapp.Header().Class("bar").Body(
				goapp.H1().Text("watchlens"),
				goapp.P().Class("tagline").Text("Drop a recorded Kubernetes watch capture anywhere on this page. It is read here, in your browser, and never uploaded."),
				goapp.Div().Class("actions").Body(
					goapp.Button().ID("choose-file").Text("Choose file…").OnClick(p.onChoose),
					goapp.Input().ID("file-input").Class("hidden").Type("file").Multiple(true).OnChange(p.onFilesChosen),
					goapp.Label().For("sample-menu").Text("Open sample"),
					goapp.Select().ID("sample-menu").OnChange(p.onSampleChosen).Body(
						goapp.Option().Value("").Text("choose…"),
						goapp.Range(p.samples).Slice(func(i int) goapp.UI {
							return goapp.Option().Value(p.samples[i]).Text(p.samples[i])
						}),
					),
				),
			),
			goapp.If(p.updateAvailable, func() goapp.UI {
				return goapp.Div().Class("banner").Body(
					goapp.Text("A new version of watchlens is available. "),
					goapp.Button().Text("Reload").OnClick(func(ctx goapp.Context, _ goapp.Event) { ctx.Reload() }),
				)
			}),
			goapp.If(p.loading != nil, p.renderProgress),
			goapp.If(p.problem != "", func() goapp.UI {
				return goapp.Div().ID("problem").Class("problem").Role("alert").Text(p.problem)
			}),
			goapp.Main().ID("results").Body(
				goapp.Range(p.results).Slice(func(i int) goapp.UI { return p.results[i].render() }),
			),
		)
}

func (p *Page) renderProgress() goapp.UI {
	l := p.loading
	return goapp.Div().ID("progress").Class("progress").Body(
		goapp.Label().For("progress-bar").Text(fmt.Sprintf("Reading %s: %s of %s, %d events", l.name, humanBytes(l.read), humanBytes(l.size), l.events)),
		goapp.Progress().ID("progress-bar").Max(max(l.size, 1)).Attr("value", l.read),
	)
}

func (p *Page) onDragOver(ctx goapp.Context, e goapp.Event) {
	// Without preventDefault the browser would open the file itself.
	e.PreventDefault()
	p.dragging = true
}

func (p *Page) onDragLeave(ctx goapp.Context, e goapp.Event) {
	p.dragging = false
}

func (p *Page) onDrop(ctx goapp.Context, e goapp.Event) {
	e.PreventDefault()
	p.dragging = false
	p.openFiles(ctx, e.Get("dataTransfer").Get("files"))
}

func (p *Page) onChoose(ctx goapp.Context, e goapp.Event) {
	goapp.Window().GetElementByID("file-input").Call("click")
}

func (p *Page) onFilesChosen(ctx goapp.Context, e goapp.Event) {
	input := ctx.JSSrc()
	p.openFiles(ctx, input.Get("files"))
	// Clearing lets the same file be chosen again after it changed on disk.
	input.Set("value", "")
}

func (p *Page) onSampleChosen(ctx goapp.Context, e goapp.Event) {
	name := ctx.JSSrc().Get("value").String()
	if name == "" {
		return
	}
	ctx.Async(func() { p.openSample(ctx, name) })
}

// openFiles reads a FileList (from a drop or the file input).
func (p *Page) openFiles(ctx goapp.Context, files goapp.Value) {
	var sources []source
	for i := 0; i < files.Length(); i++ {
		f := files.Index(i)
		sources = append(sources, source{name: f.Get("name").String(), blob: f})
	}
	if len(sources) == 0 {
		p.problem = "Nothing was dropped that the browser could read as a file."
		return
	}
	ctx.Async(func() { p.read(ctx, sources) })
}

// openSample fetches a built-in sample and reads it. It runs in a goroutine.
func (p *Page) openSample(ctx goapp.Context, name string) {
	blob, err := fetchBlob(ctx.ResolveStaticResource("/web/samples/" + name))
	if err != nil {
		ctx.Dispatch(func(goapp.Context) { p.problem = fmt.Sprintf("The sample %s could not be opened: %v", name, err) })
		return
	}
	p.read(ctx, []source{{name: name, blob: blob}})
}

// read parses each source in turn, in a goroutine, and replaces the results
// shown once all are read.
func (p *Page) read(ctx goapp.Context, sources []source) {
	ctx.Dispatch(func(goapp.Context) { p.problem = "" })
	var results []*fileResult
	for _, src := range sources {
		results = append(results, readCapture(src, func(pr progress) {
			ctx.Dispatch(func(goapp.Context) { p.loading = &pr })
		}))
	}
	ctx.Dispatch(func(goapp.Context) {
		p.loading = nil
		p.results = results
	})
}

// fetchSampleNames lists the built-in samples from their manifest, which the
// build ships beside them.
func fetchSampleNames(ctx goapp.Context) ([]string, error) {
	blob, err := fetchBlob(ctx.ResolveStaticResource("/web/samples/MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	text, err := await(blob.Call("text"))
	if err != nil {
		return nil, err
	}
	var names []string
	for i, line := range strings.Split(text.String(), "\n") {
		name, _, _ := strings.Cut(line, "\t")
		if i > 0 && name != "" {
			names = append(names, name)
		}
	}
	return names, nil
}

// fetchBlob GETs url and returns its body as a Blob. It runs in a goroutine.
func fetchBlob(url string) (goapp.Value, error) {
	resp, err := await(goapp.Window().Call("fetch", url))
	if err != nil {
		return nil, err
	}
	if !resp.Get("ok").Truthy() {
		return nil, fmt.Errorf("HTTP %d", resp.Get("status").Int())
	}
	return await(resp.Call("blob"))
}

func classIf(cond bool, class string) string {
	if cond {
		return class
	}
	return ""
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d B", n)
	}
}

// plural says "1 event" or "3 events".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
