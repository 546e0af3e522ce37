package app

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/app/load"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// DefaultSample opens on a first visit with no file, so a new user sees a
// real result at once, and the point of the tool: a quiet object watched
// with bookmarks for 11 minutes, whose bookmark-aware cursor stays fresh
// and is accepted on resume while the bookmark-ignoring one goes red.
const DefaultSample = "w3-then-resume.ts.http"

// Page is the app's only page: a page-wide drop zone around the header,
// the verdict, the filters, the timeline and the dock of panels that
// explain it. It reads the captures the user opens, keeps the view a link
// reopens (see viewState), and hands each component what it shows; the
// components post what the user does as actions, which it handles here.
type Page struct {
	goapp.Compo

	samples         []sample
	loading         *load.Progress
	problem         string
	dragging        bool
	updateAvailable bool
	warm            bool // the parser has been warmed up (see warmUp)
	reads           int  // captures the page has read (the warm-up reads apart)
	// rehearsal is the capture whose fleet the warm-up shows out of
	// sight (rehearseFleet), nil but while it does.
	rehearsal *load.Capture

	view   viewState
	params timeline.Params

	capture   *capture
	analysis  analysis
	analyzing bool

	dock dockPrefs // the dock's side and size
	// low says the window is too low for the dock under the timeline (a
	// phone on its side): it goes beside, at besideSize (0: the default),
	// whatever the user chose for taller windows, which stays theirs.
	low        bool
	besideSize float64
	// filtersShown says the filters show where they fold away (a phone,
	// a short window: see Header).
	filtersShown bool
	copied       *copied
	fleet        fleetState
	// viewScrolls are the timeline panel's scroll in the timeline (0)
	// and in the fleet view (1), as the user left each (see showView).
	viewScrolls [2]float64
}

func (p *Page) OnMount(ctx goapp.Context) {
	// A cache-first service worker can serve a stale build; asking twice
	// matters because the first call may run before registration resolves.
	goapp.TryUpdate()
	ctx.After(3*time.Second, func(goapp.Context) { goapp.TryUpdate() })

	jsrt.BlobWorkerURL = ctx.ResolveStaticResource("/web/blobread.js")
	p.useEngineWorker(ctx)

	// The listener lives as long as the page, so it is never released.
	goapp.Window().Call("addEventListener", "keydown", goapp.FuncOf(onSearchKey))
	p.watchForNewVersion(ctx)
	p.handleActions(ctx)
	ctx.Handle(actionFleetShow, p.onFleetShow)
	ctx.Handle(actionFleetOpen, p.onFleetOpen)
	ctx.Handle(actionFleetRange, p.onFleetRange)
	p.dock = loadDockPrefs()
	p.measure()

	load.SetLimits()
	p.view = parseViewState(ctx.Page().URL().Query())
	p.params = p.view.params
	view := p.view
	// From the visit on: a user who acts before the warm-up ends is left
	// alone by its rehearsal.
	touched, stopNoting := noteTouches()
	ctx.Async(func() {
		samples, err := fetchSamples(ctx)
		ctx.Dispatch(func(goapp.Context) {
			p.samples = samples
			if err != nil {
				p.problem = "The built-in samples could not be listed: " + err.Error()
			}
		})
		// The visit's own read, if it opens one: the warm-up gives way to
		// any read begun after it.
		visit, sample := load.NewTurn(&p.reads), ""
		switch {
		case view.url != "":
			visit = p.openURL(ctx, view.url)
		case view.sample != "":
			sample = view.sample
		case view.needsFiles():
			// A link to dropped files: renderRestore asks for them.
			visitOpensNothing()
		case err == nil:
			sample = DefaultSample
		}
		if sample != "" {
			visit = p.openSample(ctx, sample)
		}
		p.warmUp(ctx, visit, sample, touched)
		stopNoting()
	})
}

// OnResize follows the window's height: see low.
func (p *Page) OnResize(ctx goapp.Context) {
	if p.measure() {
		relayout(ctx)
	}
}

// lowWindow is the height, CSS px, under which a window wider than a
// phone held upright has the dock beside the timeline: under it, the
// header, the verdict, the timeline's least height and the dock's did
// not fit (844x390, a phone on its side, left the event selected 80 px).
const lowWindow = 512

// measure reads whether the window is low (see low), and says whether
// that changed.
func (p *Page) measure() bool {
	w, h := goapp.Window().Size()
	low := h > 0 && h < lowWindow && w >= narrowWindow
	changed := low != p.low
	p.low = low
	return changed
}

// dockShown is the dock as shown: beside the timeline in a low window.
func (p *Page) dockShown() dockPrefs {
	if !p.low {
		return p.dock
	}
	return dockPrefs{side: true, size: p.besideSize}
}

// handleActions wires what the components post to what the page does.
func (p *Page) handleActions(ctx goapp.Context) {
	ctx.Handle(actionSelect, func(ctx goapp.Context, a goapp.Action) { p.selectEvent(ctx, a.Value.(int)) })
	ctx.Handle(actionRange, func(ctx goapp.Context, a goapp.Action) {
		r := a.Value.([2]int64)
		p.view.from, p.view.to = r[0], r[1]
		p.saveURL(ctx)
	})
	ctx.Handle(actionFileGroups, func(ctx goapp.Context, a goapp.Action) {
		g := a.Value.([2]string)
		p.view.fold, p.view.pin = g[0], g[1]
		p.saveURL(ctx)
	})
	ctx.Handle(actionFilter, func(ctx goapp.Context, a goapp.Action) {
		p.view.filter = a.Value.(timeline.Filter)
		p.saveURL(ctx)
	})
	ctx.Handle(actionAxis, func(ctx goapp.Context, a goapp.Action) {
		p.view.axisRV = !p.view.axisRV
		// A range on one axis means nothing on the other.
		p.view.from, p.view.to = 0, 0
		p.saveURL(ctx)
	})
	ctx.Handle(actionFocus, func(ctx goapp.Context, a goapp.Action) { p.focusOn(ctx, a.Value.(focus)) })
	ctx.Handle(actionGoTo, func(ctx goapp.Context, a goapp.Action) { p.goTo(ctx, a.Value.(timeline.Match)) })
	ctx.Handle(actionReconnectAt, p.onReconnectAt)
	ctx.Handle(actionParams, func(ctx goapp.Context, a goapp.Action) {
		p.params = a.Value.(timeline.Params)
		p.reanalyze(ctx)
	})
	ctx.Handle(actionDockSide, func(ctx goapp.Context, a goapp.Action) {
		if p.low {
			return // beside is the only room there is
		}
		p.dock.side = !p.dock.side
		p.dock.size = 0
		p.dock.save()
		relayout(ctx)
	})
	ctx.Handle(actionDockStep, func(ctx goapp.Context, a goapp.Action) {
		shown := p.dockShown()
		size := shown.size
		if size == 0 {
			size = dockElementSize(shown.side)
		}
		p.resized(max(size+a.Value.(float64), minDockSize))
		relayout(ctx)
	})
	ctx.Handle(actionDockSize, func(ctx goapp.Context, a goapp.Action) { p.resized(a.Value.(float64)) })
	ctx.Handle(actionDockLowered, func(ctx goapp.Context, a goapp.Action) {
		p.dock.lowered = a.Value.(bool)
		relayout(ctx)
	})
	ctx.Handle(actionFiltersShown, func(ctx goapp.Context, a goapp.Action) {
		p.filtersShown = a.Value.(bool)
		relayout(ctx)
	})
	ctx.Handle(actionCopy, func(ctx goapp.Context, a goapp.Action) { p.copy(ctx, a.Value.(string)) })
	ctx.Handle(actionProblem, func(ctx goapp.Context, a goapp.Action) { p.problem = a.Value.(string) })
	ctx.Handle(actionOpenFiles, func(ctx goapp.Context, a goapp.Action) { p.openFiles(ctx, a.Value.(goapp.Value)) })
	ctx.Handle(actionOpenSample, func(ctx goapp.Context, a goapp.Action) {
		p.problem = ""
		name := a.Value.(string)
		ctx.Async(func() { p.openSample(ctx, name) })
	})
	ctx.Handle(actionOpenURL, func(ctx goapp.Context, a goapp.Action) {
		p.problem = ""
		u := a.Value.(string)
		ctx.Async(func() { p.openURL(ctx, u) })
	})
}

// resized keeps the size the user gave the dock: the remembered one, or
// in a low window the one beside for this visit.
func (p *Page) resized(size float64) {
	if p.low {
		p.besideSize = size
		return
	}
	p.dock.size, p.dock.lowered = size, false
	p.dock.save()
}

// selectEvent selects event i, -1 for none.
func (p *Page) selectEvent(ctx goapp.Context, i int) {
	p.setSelected(ctx, i)
	p.saveURL(ctx)
	// On a phone the dock is a sheet the user may have lowered to its
	// tabs: it rises to show the event selected.
	if i >= 0 && p.dock.lowered {
		p.dock.lowered = false
		relayout(ctx)
	}
}

// setSelected selects event i, -1 for none. A selection gives the dock
// more room (web/app.css, .has-selection): the timeline then fits what
// is left.
func (p *Page) setSelected(ctx goapp.Context, i int) {
	if (p.view.selected >= 0) != (i >= 0) {
		relayout(ctx)
	}
	p.view.selected = i
}

// focusOn moves the timeline to a finding's moment, and selects the
// event it is about, if any.
func (p *Page) focusOn(ctx goapp.Context, f focus) {
	// A finding's moment is shown on the timeline, not the fleet view,
	// whose range it does not move.
	if p.fleetShown() {
		p.showView(ctx, fleetState{})
	}
	if f.timed && !p.view.axisRV {
		p.view.from = f.at - int64(focusSpan/2)
		p.view.to = f.at + int64(focusSpan/2)
	}
	if f.event >= 0 {
		p.setSelected(ctx, f.event)
	}
	p.saveURL(ctx)
	ctx.ScrollTo("timeline-panel")
}

// goTo moves the view to a match of the search box, keeping the span
// shown (two minutes from the whole capture), and selects its event, if
// any.
func (p *Page) goTo(ctx goapp.Context, m timeline.Match) {
	if !p.view.axisRV {
		span := p.view.to - p.view.from
		if span <= 0 {
			span = int64(focusSpan)
		}
		p.view.from = m.T - span/2
		p.view.to = p.view.from + span
	}
	if m.Event >= 0 {
		p.setSelected(ctx, m.Event)
	}
	p.saveURL(ctx)
}

// reanalyze re-runs the model in a goroutine after the settings changed:
// on a million events it takes a few hundred ms in wasm. Only the newest
// request's answer is kept.
func (p *Page) reanalyze(ctx goapp.Context) {
	p.saveURL(ctx)
	if p.capture == nil {
		return
	}
	eng, params := p.capture.Engine, p.params
	p.analyzing = true
	ctx.Async(func() {
		// The engine answers only the latest of the analyses asked.
		a, err := eng.Analyze(params, jsrt.YieldIfHeld)
		ctx.Dispatch(func(goapp.Context) {
			if err != nil || p.capture == nil || p.capture.Engine != eng {
				return // a newer capture or setting is on its way
			}
			p.analysis, p.analyzing = newAnalysis(a, params), false
		})
	})
}

// watchForNewVersion offers to reload once a new version of the site has
// taken over the page: a worker took control of a page that this site's
// own worker controlled when it opened. go-app's own notice (OnAppUpdate)
// was not enough: it listens for the new worker from when its script
// runs, and the browser, checking for a new version as the page opens,
// often installed it before that, so the notice never came. It also came
// where no version was replaced: when a site hosted under a sub-path first
// opened under the worker of the site at the origin's root. site.go's
// takeoverScript records both from the top of the page.
func (p *Page) watchForNewVersion(ctx goapp.Context) {
	// The listener lives as long as the page, so it is never released.
	tookOver := func() {
		ctx.Dispatch(func(ctx goapp.Context) { p.updateAvailable = openedUnderOwnWorker(ctx) })
	}
	goapp.Window().Call("addEventListener", "watchlens-takeover", goapp.FuncOf(func(goapp.Value, []goapp.Value) any {
		tookOver()
		return nil
	}))
	if goapp.Window().Get("watchlensTakenOver").Truthy() {
		tookOver()
	}
}

// openedUnderOwnWorker says whether this site's service worker controlled
// the page when it opened.
func openedUnderOwnWorker(ctx goapp.Context) bool {
	first := goapp.Window().Get("watchlensFirstWorker")
	if !first.Truthy() {
		return false
	}
	const probe = "/web/app.css"
	base := strings.TrimSuffix(ctx.ResolveStaticResource(probe), probe)
	own := goapp.Window().Get("URL").New(base+"/app-worker.js", goapp.Window().Get("location").Get("href"))
	return first.String() == own.Get("href").String()
}

func (p *Page) Render() goapp.UI {
	return goapp.Div().
		Class("page").
		// Set once the parser has been warmed up (see warmUp), for tools
		// that time a load as a user would, some time after opening.
		DataSet("warm", p.warm).
		// Where the capture shown was read and is asked about: "worker"
		// (the engine's Web Worker) or "page" (the page's own wasm, when
		// the worker could not start), for tools that check which.
		DataSet("engine", p.engineWhere()).
		Class(classIf(p.dragging, "dragging")).
		OnDragOver(p.onDragOver).
		OnDragLeave(p.onDragLeave).
		OnDrop(p.onDrop).
		Class(classIf(p.dockShown().side, "dock-side")).
		Class(classIf(p.capture != nil && p.view.selected >= 0, "has-selection")).
		Class(classIf(p.filtersShown, "filters-open")).
		Body(
			&Header{Capture: p.capture, Analysis: p.analysis, Samples: p.samples, Sample: p.view.sample, URL: p.view.url,
				From: p.view.from, To: p.view.to, AxisRV: p.view.axisRV, Fleet: p.hasFleet(), FleetShown: p.fleet.shown, FiltersShown: p.filtersShown},
			// go-app matches children by position: a notice coming or going
			// beside the results would shift them and remount them all, so
			// the notices keep a slot of their own.
			goapp.Div().Class("notices").Body(
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
				goapp.If(p.copied != nil, p.renderCopied),
			),
			goapp.If(p.capture != nil, p.renderCapture).
				ElseIf(p.view.needsFiles() && p.loading == nil, p.renderRestore),
			// Last, so that its coming and going shifts nothing.
			goapp.If(p.rehearsal != nil, p.renderRehearsal),
		)
}

func (p *Page) renderCapture() goapp.UI {
	c := p.capture
	about := p.sampleAbout()
	return goapp.Main().ID("results").Body(
		&Verdict{Lines: p.analysis.summary},
		// Like the notices, the sample's note and the input's problems
		// keep one slot whether shown or not. One coming or going shifted
		// the panels after it, so opening a file after a sample mounted
		// every panel anew: it closed the settings the user had opened,
		// and delayed the capture's showing by the remount.
		goapp.Div().Class("capture-notes").Body(
			goapp.If(about != "", func() goapp.UI {
				text := "Built-in sample " + p.view.sample + ": " + about + "."
				return goapp.P().ID("sample-about").Class("hint").Title(text).Text(text)
			}),
			c.renderProblems(),
		),
		// The filters and the axis act on the timeline alone: over the
		// fleet view they would seem to do nothing.
		goapp.If(p.fleetShown(), func() goapp.UI {
			return goapp.Div().ID("filters").Class("filters hint").Text("The filters and the axis act on the timeline of the files: Timeline, above, shows it.")
		}).Else(func() goapp.UI {
			return &FilterBar{Filter: p.view.filter, AxisRV: p.view.axisRV, Kinds: c.Kinds, Namespaces: c.Namespaces}
		}),
		goapp.Div().Class("work").Body(
			goapp.Section().ID("timeline-panel").Class("panel").Body(
				goapp.If(p.fleetShown(), p.fleetView).Else(func() goapp.UI {
					return &TimelineView{
						Engine:     c.Engine,
						Analyzed:   p.analysis.generation,
						Filter:     p.view.filter,
						From:       p.view.from,
						To:         p.view.to,
						AxisRV:     p.view.axisRV,
						Selected:   p.view.selected,
						PinnedFile: p.fleet.opened,
						Fold:       p.view.fold,
						Pin:        p.view.pin,
						Marker:     p.view.reconnectAt,
						First:      c.First,
					}
				}),
			),
			&Splitter{Side: p.dockShown().side},
			&Dock{Prefs: p.dockShown(), Capture: c, Analysis: p.analysis, Params: p.params, Analyzing: p.analyzing,
				Filter: p.view.filter, From: p.view.from, To: p.view.to, AxisRV: p.view.axisRV, Selected: p.view.selected, ReconnectAt: p.view.reconnectAt},
		),
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
	// What was dropped, as web/drop.js kept it while the drop ran.
	dropped := e.Get("watchlensDropped")
	if !dropped.Truthy() {
		// drop.js did not run (a page its cache served without it): the
		// drop's own files, readable if this runs while the drop does.
		p.openFiles(ctx, e.Get("dataTransfer").Get("files"))
		return
	}
	// A dropped folder is read as every file under it: the folder an
	// incident left is what a user has.
	if entries := droppedEntries(dropped.Get("entries")); entries != nil {
		ctx.Async(func() {
			files, problems := readDropped(entries)
			ctx.Dispatch(func(ctx goapp.Context) { p.openDropped(ctx, files, problems) })
		})
		return
	}
	p.openFiles(ctx, dropped.Get("files"))
}

// openFiles reads a FileList, or an array of files (from a drop or the
// file input), as one capture.
func (p *Page) openFiles(ctx goapp.Context, files goapp.Value) {
	dropped := make([]droppedFile, files.Length())
	for i := range dropped {
		f := files.Index(i)
		dropped[i] = droppedFile{name: f.Get("name").String(), blob: f}
	}
	p.openDropped(ctx, dropped, nil)
}

// openDropped reads files as one capture; problems are what the browser
// failed to hand over of a dropped folder. Chromium answers a chosen
// file's size from the disk, at its first asking, by a call that holds
// the page's thread, and for a recording's hundreds of files in one
// task that is a long one. So their sizes are asked in a goroutine that
// lets the page run every askSizesFor, and openSized opens them.
func (p *Page) openDropped(ctx goapp.Context, files []droppedFile, problems []string) {
	ctx.Async(func() {
		sizes := make([]int64, len(files))
		for i, f := range files {
			jsrt.YieldIfHeldFor(askSizesFor)
			sizes[i] = int64(f.blob.Get("size").Float())
		}
		ctx.Dispatch(func(ctx goapp.Context) { p.openSized(ctx, files, sizes, problems) })
	})
}

// askSizesFor is how long the page asks dropped files' sizes before it
// yields: one asking can take milliseconds, and a yield after the task
// had run the load's usual jsrt.HoldAtMost let the asking that came next
// take the task past 50 ms.
const askSizesFor = 10 * time.Millisecond

// openSized reads files, whose sizes are sizes, as one capture, leaving
// out those too big for the page.
func (p *Page) openSized(ctx goapp.Context, files []droppedFile, sizes []int64, problems []string) {
	var sources []load.Source
	var tooBig []string
	for i, f := range files {
		if size := sizes[i]; size > load.MaxBytes() {
			tooBig = append(tooBig, fmt.Sprintf("%s (%s)", words.Isolated(f.name), quantity.Bytes(size)))
			continue
		}
		sources = append(sources, load.Source{Name: f.name, Blob: f.blob, Found: f.found})
	}
	var said []string
	if len(tooBig) > 0 {
		said = append(said, fmt.Sprintf("Too big for the browser: %s. The page handles captures up to %s; for larger ones use the command line: watchlens analyze FILE.",
			strings.Join(tooBig, ", "), quantity.Bytes(load.MaxBytes())))
	}
	if len(problems) > 0 {
		said = append(said, "The browser did not hand over: "+words.Isolated(strings.Join(problems, "; "))+".")
	}
	if len(sources) == 0 && len(said) == 0 {
		said = append(said, "Nothing was dropped that the browser could read as a file.")
	}
	p.problem = strings.Join(said, " ")
	if len(sources) == 0 {
		return
	}
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name
	}
	turn := p.nextTurn()
	ctx.Async(func() { p.read(ctx, sources, viewState{files: names}, turn) })
}

// openSample fetches a built-in sample and reads it, and returns its
// read's turn once the read has ended. It runs in a goroutine.
func (p *Page) openSample(ctx goapp.Context, name string) load.Turn {
	turn := p.nextTurn()
	blob, err := fetchSample(ctx, name)
	if turn.Superseded() {
		load.Ended(name, load.Superseded)
		return turn
	}
	if err != nil {
		ctx.Dispatch(func(goapp.Context) { p.problem = fmt.Sprintf("The sample %s could not be opened: %v", name, err) })
		return turn
	}
	p.read(ctx, []load.Source{{Name: name, Blob: blob}}, viewState{sample: name}, turn)
	return turn
}

// nextTurn begins a read: the user asked for another capture, and any
// read or fetch begun before gives up.
func (p *Page) nextTurn() load.Turn {
	p.reads++
	return load.NewTurn(&p.reads)
}

// read parses the sources in a goroutine into one timeline and shows it,
// unless turn is superseded first. origin says where they came from, for
// the URL; a capture opened from a link keeps the link's range and
// selection, any other starts afresh.
func (p *Page) read(ctx goapp.Context, sources []load.Source, origin viewState, turn load.Turn) {
	params, filter := p.params, p.view.filter
	var split *timeline.Split
	if sp, err := timeline.ParseSplit(p.view.split); err == nil {
		split = &sp
	}
	jsrt.LoadGC.Start()
	// The bar shows at once, rendered while the first slice is read; the
	// reports move it without rendering the page (see moveProgress).
	start := load.Progress{Name: sources[0].Name, Size: int64(sources[0].Blob.Get("size").Float())}
	opts := load.Options{Filter: filter, Split: split, Params: params}
	if len(sources) <= canvas.MaxFileGroups {
		// More files open on the fleet, which draws no timeline.
		first := p.firstView(origin)
		opts.First, opts.ZoneRows = &first, maxZoneRows
	}
	ctx.Dispatch(func(goapp.Context) { p.loading = &start })
	opened, failure := load.Open(sources, opts, func(pr load.Progress) { p.showProgress(ctx, pr) }, turn)
	if errors.Is(failure, load.ErrOutOfMemory) {
		// The engine's worker ran out: the page says so as web/crash.js
		// does of its own memory, and still works.
		jsrt.LoadGC.Stop()
		load.Ended(sources[0].Name, load.Failed)
		ctx.Dispatch(func(ctx goapp.Context) {
			p.loading = nil
			p.prepareWorkersAfter(ctx, turn)
			if say := goapp.Window().Get("watchlensWorkerOutOfMemory"); say.Truthy() {
				say.Invoke()
			} else {
				p.problem = fmt.Sprintf("Reading %s ran out of memory. For captures this large use the command line: watchlens analyze FILE.", words.Isolated(sources[0].Name))
			}
		})
		return
	}
	if failure != nil && !errors.Is(failure, load.ErrSuperseded) {
		jsrt.LoadGC.Stop()
		load.Ended(sources[0].Name, load.Failed)
		ctx.Dispatch(func(ctx goapp.Context) {
			p.loading = nil
			p.prepareWorkersAfter(ctx, turn)
			p.problem = fmt.Sprintf("Reading %s failed on an error inside watchlens: %v. Nothing of it is shown; you can open another capture.", words.Isolated(sources[0].Name), failure)
		})
		return
	}
	if failure != nil {
		// The user opened another capture meanwhile: that one shows.
		jsrt.LoadGC.Stop()
		load.Ended(sources[0].Name, load.Superseded)
		return
	}
	load.Stamp(load.Answered)
	// The answer was read in the task that brought it, which is long
	// enough with a fleet's files: the capture renders in a task of its
	// own.
	jsrt.Yield()
	c := &capture{opened}
	a := newAnalysis(c.Opened.Analyzed, params)
	shown := make(chan struct{})
	ctx.Dispatch(func(ctx goapp.Context) {
		if turn.Superseded() {
			// Another capture was chosen since the answer came (it was
			// read in a task of its own): that one shows, and this one's
			// worker gives its memory back.
			ctx.PreventUpdate()
			load.Release(opened)
			load.Ended(sources[0].Name, load.Superseded)
			close(shown)
			return
		}
		load.Stamp(load.Rendering)
		old := p.capture
		ctx.Defer(func(ctx goapp.Context) {
			close(shown)
			load.Ended(sources[0].Name, load.Shown)
			ctx.Async(func() { p.afterFirstPaint(ctx, old) })
		})
		p.show(c, a, origin)
		if t := c.filesText(); t != "" {
			// The files open name the browser's tab.
			ctx.Page().SetTitle("%s", t+" · watchlens")
		}
		p.prepareWorkersAfter(ctx, turn)
	})
	// The collector gets its pacing back once the capture is on screen.
	// Given it back before, it came due in the task that shows the
	// capture and slowed it with its assists, and over a million events
	// a whole collection ran before the page could show anything. The
	// pacing comes back even when the wait gives up (waitShown).
	if waitShown(shown) {
		jsrt.AfterNextPaint()
	}
	jsrt.LoadGC.Stop()
}

// show makes c, read from origin and analysed as a says, the capture
// shown.
func (p *Page) show(c *capture, a analysis, origin viewState) {
	p.loading = nil
	p.capture, p.analysis = c, a
	// The notice of the last copy, and the text it keeps to copy by hand,
	// are of the capture shown before.
	p.copied = nil
	if len(c.Opened.Files) > canvas.MaxFileGroups {
		// More clients than the timeline draws: the fleet first.
		p.fleet = fleetState{shown: true}
	}
	if origin.sample != p.view.sample || origin.url != p.view.url || !sameFiles(origin, p.view) {
		// Another capture: the old range and selection mean nothing
		// there; the retention settings still describe the user's server.
		p.view.from, p.view.to, p.view.selected, p.view.reconnectAt = 0, 0, -1, 0
		p.view.fold, p.view.pin = "", ""
	} else if p.view.fleet {
		// The link's own capture: it opens on the view the link shows.
		p.fleet = fleetState{shown: true}
	}
	p.view.sample, p.view.url, p.view.files, p.view.filesDigest = origin.sample, origin.url, origin.files, ""
}

// waitShown waits for shown to close, once a dispatch has rendered what
// it shows, and says whether it did: the wait is bounded by
// renderWaitLimit, since go-app drops a dispatch to a component no
// longer mounted.
func waitShown(shown <-chan struct{}) bool {
	select {
	case <-shown:
		return true
	case <-time.After(renderWaitLimit):
		return false
	}
}

// renderWaitLimit bounds waitShown.
const renderWaitLimit = 2 * time.Second

// afterFirstPaint does, once the capture shown has painted its first
// frame, what its first paint need not wait for: it ends the worker of
// the capture old it replaced and writes the view into the address bar
// (saveURL), each work of the page's thread that, done as the capture
// rendered, made that task longer.
func (p *Page) afterFirstPaint(ctx goapp.Context, old *capture) {
	jsrt.AfterNextPaint()
	load.Stamp(load.Painted)
	if old != nil {
		load.Release(old.Capture)
	}
	// In a task of its own: dispatched, it ran in the task that rendered
	// whatever else was dispatched then (samples-lab's fleet, whose
	// answer comes about then), 4 of that task's 22 ms of CPU.
	jsrt.InTask(func() { p.saveURL(ctx) })
}

// prepareWorkersAfter starts the next read's workers (its reading
// worker and its spare engine worker) once the page has been still for
// spareWorkerAfter after a read ended, unless another read has begun
// meanwhile: a spare's start and warm-up take a core, which a read beside
// it, or the frames of a user moving the view, would otherwise share. A
// user who goes on moving gets the spare spareWorkerLatest after the
// read, so that the next drop does not wait for a worker's compiling.
func (p *Page) prepareWorkersAfter(ctx goapp.Context, turn load.Turn) {
	p.prepareWorkersStill(ctx, turn, time.Now().Add(spareWorkerLatest), spareWorkerAfter)
}

// prepareWorkersStill is prepareWorkersAfter's wait: wait, then again
// for what is left of spareWorkerAfter since the shown capture's worker
// was last asked a question, until latest.
func (p *Page) prepareWorkersStill(ctx goapp.Context, turn load.Turn, latest time.Time, wait time.Duration) {
	ctx.After(wait, func(ctx goapp.Context) {
		ctx.PreventUpdate()
		if turn.Superseded() {
			return
		}
		if p.capture != nil {
			if w, ok := p.capture.Engine.(workerEngine); ok {
				moving := spareWorkerAfter - time.Since(w.LastAsked())
				if left := time.Until(latest); moving > 0 && left > 0 {
					p.prepareWorkersStill(ctx, turn, latest, min(moving, left))
					return
				}
			}
		}
		jsrt.PrepareReadingWorker()
		load.PrepareEngineWorker()
	})
}

// spareWorkerAfter is how long the page must have been still (no
// question to the shown capture's worker) after a read ends before it
// starts the next read's worker: long after the capture's first paint.
const spareWorkerAfter = time.Second

// spareWorkerLatest is how long after a read ends the page starts the
// next read's worker however the user goes on moving the view.
const spareWorkerLatest = 10 * time.Second

// saveURL writes the view into the address bar without reloading, so that
// a copied link reopens the same view.
func (p *Page) saveURL(ctx goapp.Context) {
	p.view.params = p.params
	if p.capture != nil {
		p.view.fleet = p.fleetShown()
	}
	u := *ctx.Page().URL()
	u.RawQuery = p.view.query().Encode()
	goapp.Window().Get("history").Call("replaceState", nil, "", u.String())
}

func classIf(cond bool, class string) string {
	if cond {
		return class
	}
	return ""
}

// useEngineWorker has the page's loads read in the engine's Web Worker
// (load.UseEngineWorker), its spare warmed up on the warm samples, the
// warm-up's incident, and their first frames as wide as the window,
// unless the document asks
// for its own wasm (window.watchlensEngineWorker = false, set before the
// page's scripts run). A worker that cannot start leaves the loads in
// the page.
func (p *Page) useEngineWorker(ctx goapp.Context) {
	if off := goapp.Window().Get("watchlensEngineWorker"); !off.IsUndefined() && !off.Truthy() {
		return
	}
	urls := make([]string, len(warmSamples))
	for i, name := range warmSamples {
		urls[i] = ctx.ResolveStaticResource("/web/samples/" + name)
	}
	incident := make([]string, len(warmIncident))
	for i, name := range warmIncident {
		incident[i] = ctx.ResolveStaticResource("/web/warmup/" + name)
	}
	width := max(goapp.Window().Get("innerWidth").Float(), 320)
	dpr := max(goapp.Window().Get("devicePixelRatio").Float(), 1)
	load.UseEngineWorker(ctx.ResolveStaticResource("/web/engine-worker.js"), urls, incident, engine.ViewState{Width: width, PixelRatio: dpr, Selected: -1})
}

// firstView is the timeline's view as the capture read from origin will
// likely show it first, which the engine's worker draws with the load:
// the stage as the capture shown now leaves it once the new one replaces
// it (firstRoom; the window's width before any), and the link's range
// and selection when the capture is the link's own (see read). The view
// asks for its frame again if it measures another room.
func (p *Page) firstView(origin viewState) engine.ViewState {
	st := engine.ViewState{Filter: p.view.filter, AxisRV: p.view.axisRV, Selected: -1,
		Width:      max(goapp.Window().Get("innerWidth").Float(), 320),
		PixelRatio: max(goapp.Window().Get("devicePixelRatio").Float(), 1)}
	if origin.sample == p.view.sample && origin.url == p.view.url && sameFiles(origin, p.view) {
		st.From, st.To, st.Selected = p.view.from, p.view.to, p.view.selected
	}
	if cv := goapp.Window().Get("document").Call("querySelector", "#timeline canvas"); cv.Truthy() {
		stage := cv.Get("parentElement")
		st.Width = max(stage.Get("clientWidth").Float(), 320)
		if h := firstRoom(stage, p.aboutOf(origin.sample) != "", st.Selected >= 0); h >= 100 {
			st.MaxHeight = h
		}
	}
	return st
}

// firstRoom is the height the stage will give the timeline once the
// next capture shows: the stage's now, laid out without what the capture
// shown has and the next will not, read before the browser paints again.
// The next capture's input problems are not known yet, and seldom come:
// the shown one's give their room back. Its sample's note stays when the
// next has one (hasNote): it is one line, whatever the sample; a note
// the shown capture has not is not foreseen. A selection raises the dock
// (web/app.css, .has-selection), and the next capture keeps one only
// when it is the same capture (selected). What the next capture writes
// is not known either: its verdict, where it is not folded to a line
// (a tall window), and its summary are taken to be as high as the shown
// one's.
func firstRoom(stage goapp.Value, hasNote, selected bool) float64 {
	doc := goapp.Window().Get("document")
	var hidden []goapp.Value
	hide := func(selector string) {
		if el := doc.Call("querySelector", selector); el.Truthy() {
			el.Get("style").Set("display", "none")
			hidden = append(hidden, el)
		}
	}
	hide("#input-problems")
	if !hasNote {
		hide("#sample-about")
	}
	page := doc.Call("querySelector", ".page").Get("classList")
	had := page.Call("contains", "has-selection").Bool()
	if had && !selected {
		page.Call("remove", "has-selection")
	}
	h := stage.Get("clientHeight").Float()
	for _, el := range hidden {
		el.Get("style").Set("display", "")
	}
	if had && !selected {
		page.Call("add", "has-selection")
	}
	return h
}

// engineWhere says where the capture shown is held: "worker", "page",
// or "" with none.
func (p *Page) engineWhere() string {
	switch {
	case p.capture == nil:
		return ""
	case inWorker(p.capture.Engine):
		return "worker"
	}
	return "page"
}
