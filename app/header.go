package app

import (
	"slices"
	"strings"

	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Header is the page's one-line header: the files open, the ways to open
// others (files, a sample, a link), the search box (FindBox), sharing and
// the exports (ExportMenu). On a phone, or a window too short for it
// to wrap into, it is two lines: sharing and the exports fold into a menu
// (shareOpen), and the filters have a button that shows or hides them
// (actionFiltersShown), so the timeline keeps the window's height.
// What the user asks to open it posts for the page (actionOpenFiles,
// actionOpenSample, actionOpenURL).
type Header struct {
	goapp.Compo
	Capture  *capture // nil before the first capture is read
	Analysis analysis
	Samples  []sample
	// Sample and URL say where the capture open came from: a built-in
	// sample's name, a link.
	Sample, URL string
	From, To    int64 // the range shown, both 0 for the whole capture
	AxisRV      bool
	// Fleet says two clients or more are open; FleetShown, that the fleet
	// view is shown rather than the timeline.
	Fleet, FleetShown bool
	// FiltersShown says the filters are shown where they fold away.
	FiltersShown bool

	shareOpen bool // the folded sharing menu is open
	// names is the open files' names, a line each, for the capture
	// namesOf: made once a capture, not at each of the header's renders
	// (10 001 names for 10 000 virtual clients).
	names   string
	namesOf *capture
}

// The actions the header posts.
const (
	// actionOpenFiles: the user chose files; its value is a JS array of
	// them.
	actionOpenFiles = "open/files"
	// actionOpenSample: the user chose a built-in sample; its value is
	// its name.
	actionOpenSample = "open/sample"
	// actionOpenURL: the user asked for a capture by its link; its value
	// is the link.
	actionOpenURL = "open/url"
	// actionFiltersShown: the user showed or hid the filters where they
	// fold away; its value says which (bool).
	actionFiltersShown = "filters/shown"
)

// fileNames is the open files' names, a line each.
func (h *Header) fileNames() string {
	if h.namesOf != h.Capture {
		h.names, h.namesOf = strings.Join(h.Capture.fileNames(), "\n"), h.Capture
	}
	return h.names
}

func (h *Header) Render() goapp.UI {
	return goapp.Header().Class("bar").Class(classIf(h.shareOpen, "share-open")).Body(
		goapp.H1().Title("Drop recorded Kubernetes watch captures anywhere on this page: they are read here, in your browser, and never uploaded.").Text("watchlens"),
		goapp.Span().ID("open-files").Class("open-files").Title(h.fileNames()).Text(h.Capture.filesText()),
		goapp.Details().ID("open-menu").Class("menu").Body(
			goapp.Summary().Title("Open files, a built-in sample or a link; or drop files anywhere on the page").Text("Open"),
			goapp.Div().Class("menu-items open-items").Body(
				goapp.Button().ID("choose-file").Title("Or drop files anywhere on the page").Text("Open files…").OnClick(chooseFiles),
				goapp.Input().ID("file-input").Class("hidden").Type("file").Multiple(true).OnChange(h.onFilesChosen),
				goapp.Label().For("sample-menu").Text("or a built-in sample"),
				goapp.Select().ID("sample-menu").Title("Open a built-in sample").OnChange(h.onSampleChosen).Body(
					goapp.Option().Value("").Text("Sample…"),
					goapp.Range(h.Samples).Slice(func(i int) goapp.UI {
						sm := h.Samples[i]
						return goapp.Option().Value(sm.name).Title(sm.about).Selected(sm.name == h.Sample).Text(sm.name)
					}),
				),
				h.renderOpenURL(),
			),
		),
		goapp.If(h.Fleet, func() goapp.UI { return viewSwitch(h.FleetShown) }),
		goapp.If(h.Capture != nil, func() goapp.UI { return &FindBox{Engine: h.Capture.Engine, Zone: h.Analysis.zone} }),
		goapp.If(h.Capture != nil, h.renderFolds),
		goapp.If(h.Capture != nil, h.renderShare),
	)
}

// renderFolds is the two buttons a compact header has (web/app.css hides
// them elsewhere): one shows the filters, one the sharing menu.
func (h *Header) renderFolds() goapp.UI {
	return goapp.Span().Class("bar-folds").Body(
		goapp.Button().ID("filters-toggle").Class("quiet").Aria("expanded", h.FiltersShown).Aria("controls", "filters").
			Title("Show or hide the filters").Text("Filters").
			OnClick(func(ctx goapp.Context, e goapp.Event) { ctx.NewActionWithValue(actionFiltersShown, !h.FiltersShown) }),
		goapp.Button().ID("share-toggle").Class("quiet").Aria("expanded", h.shareOpen).Aria("haspopup", "true").
			Title("Copy a link or the summary, export").Text("Share ▾").
			OnClick(func(ctx goapp.Context, e goapp.Event) { h.shareOpen = !h.shareOpen }),
	)
}

// renderShare is the header's sharing and export controls.
func (h *Header) renderShare() goapp.UI {
	post := func(what string) goapp.EventHandler {
		return func(ctx goapp.Context, e goapp.Event) {
			// Folded, the menu closes: the notice of the copy shows.
			h.shareOpen = false
			ctx.NewActionWithValue(actionCopy, what)
		}
	}
	return goapp.Div().Class("share").Body(
		goapp.Button().ID("copy-link").Title("Copy a link that reopens this view").Text("Copy link").OnClick(post(copyLink)),
		// Nothing judged has no verdict to paste into a postmortem.
		goapp.If(h.Analysis.judged, func() goapp.UI {
			return goapp.Button().ID("copy-summary").Title("Copy the verdict, the key figures and the link, as Markdown for a postmortem").Text("Copy summary").OnClick(post(copySummary))
		}),
		goapp.If(h.Analysis.judged, func() goapp.UI {
			return &ExportMenu{Capture: h.Capture, Analysis: h.Analysis}
		}),
	)
}

// chooseFiles opens the browser's file chooser.
func chooseFiles(ctx goapp.Context, e goapp.Event) {
	goapp.Window().GetElementByID("file-input").Call("click")
}

func (h *Header) onFilesChosen(ctx goapp.Context, e goapp.Event) {
	input := ctx.JSSrc()
	// A copy: clearing the input empties its own list.
	files := goapp.Window().Get("Array").Call("from", input.Get("files"))
	// Clearing lets the same file be chosen again after it changed on disk.
	input.Set("value", "")
	ctx.NewActionWithValue(actionOpenFiles, files)
}

func (h *Header) onSampleChosen(ctx goapp.Context, e goapp.Event) {
	if name := ctx.JSSrc().Get("value").String(); name != "" {
		ctx.NewActionWithValue(actionOpenSample, name)
	}
}

// renderOpenURL is the field that opens a capture from a link (?url=).
func (h *Header) renderOpenURL() goapp.UI {
	return goapp.Div().ID("open-url-form").Class("open-url").Body(
		goapp.Label().For("open-url").Class("tl-visually-hidden").Text("Open a capture from a link"),
		goapp.Input().ID("open-url").Type("url").Placeholder("link to a capture (https)").Value(h.URL).OnKeyDown(h.onOpenURLKey),
		goapp.Button().ID("open-url-go").Text("Open URL").OnClick(h.onOpenURL),
	)
}

func (h *Header) onOpenURLKey(ctx goapp.Context, e goapp.Event) {
	if e.Get("key").String() != "Enter" {
		ctx.PreventUpdate()
		return
	}
	h.onOpenURL(ctx, e)
}

func (h *Header) onOpenURL(ctx goapp.Context, e goapp.Event) {
	if u := strings.TrimSpace(goapp.Window().GetElementByID("open-url").Get("value").String()); u != "" {
		ctx.NewActionWithValue(actionOpenURL, u)
	}
}

// fileNames are the names of the files open, the Prometheus exports
// last; none for no capture.
func (c *capture) fileNames() []string {
	if c == nil {
		return nil
	}
	names := make([]string, c.files())
	for i := range names {
		names[i] = c.fileName(i)
	}
	return names
}

// filesText names the files open, for the header and the tab's title:
// only the first few are named, so only they are shortened (a name's
// isolating and shortening, over the 10 001 files of 10 000 virtual
// clients, would hold the page's render). Those named are records when
// any is: every file of an incident's folder begins with its README and
// its notes, which named the incident as "README.md, SUMMARY.txt".
func (c *capture) filesText() string {
	if c == nil {
		return ""
	}
	n := c.files()
	named := n
	if n > 3 {
		named = 2
	}
	// The first files named, records first, then the others in order.
	pick := make([]int, 0, named)
	for _, records := range []bool{true, false} {
		for i := 0; i < n && len(pick) < named; i++ {
			if c.isRecord(i) == records {
				pick = append(pick, i)
			}
		}
	}
	slices.Sort(pick)
	short := make([]string, len(pick))
	for k, i := range pick {
		short[k] = words.ShortName(words.Isolated(c.fileName(i)))
	}
	if n > 3 {
		return strings.Join(short, ", ") + " and " + quantity.Plural(n-2, "other file")
	}
	return strings.Join(short, ", ")
}

// isRecord says whether the i-th file of fileNames is a record of the
// incident: a Prometheus export, or a file something in was read from
// (engine.File.NotCapture).
func (c *capture) isRecord(i int) bool {
	return i >= len(c.Opened.Files) || c.Opened.Files[i].NotCapture == timeline.IsCapture
}

// files is how many files are open, the Prometheus exports included.
func (c *capture) files() int { return len(c.Opened.Files) + len(c.Opened.Exports) }

// fileName is fileNames()[i], without the list made.
func (c *capture) fileName(i int) string {
	if i < len(c.Opened.Files) {
		return c.Opened.Files[i].Name
	}
	return c.Opened.Exports[i-len(c.Opened.Files)]
}
