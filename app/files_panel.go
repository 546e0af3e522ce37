package app

import (
	"fmt"
	"strconv"
	"strings"

	"watchlens/app/engine"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// maxFilesShown bounds the files the panel lists: each file is some 45
// DOM nodes, and go-app's tree of them in wasm memory, which a broad
// capture split into 10 000 virtual clients multiplies by 10 000. The
// others are counted and found by name.
const maxFilesShown = 50

// filesInFull is how many of the files listed show what was read from
// them at once; the others show their name and counts, and the rest when
// opened. The lab's 50 files listed in full would be most of the page's
// DOM nodes, which go-app makes in one long task of a load that shows
// the fleet first, with this panel hidden.
const filesInFull = 8

// FilesPanel is the Files and sessions tab: what was read from each
// capture file, as the engine answers it for the files the user finds.
type FilesPanel struct {
	goapp.Compo
	Capture *capture
	// Kept is what the user typed and opened, which stays while another
	// tab is shown.
	Kept *filesKept

	// report is the engine's answer for reportFor.
	report    engine.FilesReport
	reportFor struct {
		capture *capture
		find    string
	}
}

// filesKept is what the Files and sessions tab keeps while another tab
// is shown.
type filesKept struct {
	// find is what the user typed to find files by name.
	find string
	// opened are the files listed folded that the user opened, by name.
	opened map[string]bool
}

// OnInit asks an engine in the page's wasm before the panel's first
// render, which then shows the answer rather than an empty panel first;
// one in a worker is asked once the panel is mounted (see workerEngine).
func (v *FilesPanel) OnInit() {
	if v.Capture != nil && !inWorker(v.Capture.Engine) {
		v.sync(goapp.Context{}) // answered at once: no context is needed
	}
}
func (v *FilesPanel) OnMount(ctx goapp.Context)  { v.sync(ctx) }
func (v *FilesPanel) OnUpdate(ctx goapp.Context) { v.sync(ctx) }

// sync asks the engine for the files the user finds, if its answer is
// not for them already.
func (v *FilesPanel) sync(ctx goapp.Context) {
	if v.Capture == nil || (v.reportFor.capture == v.Capture && v.reportFor.find == v.Kept.find) {
		return
	}
	c, find := v.Capture, v.Kept.find
	v.reportFor.capture, v.reportFor.find = c, find
	ask(ctx, c.Engine, func() engine.FilesReport { return c.Engine.Files(find, maxFilesShown) }, func(ctx goapp.Context, r engine.FilesReport) {
		if v.reportFor.capture == c && v.reportFor.find == find {
			v.report = r
		}
	})
}

func (v *FilesPanel) Render() goapp.UI {
	c, r := v.Capture, &v.report
	many, shared := r.Total > maxFilesShown, r.AuditShared.Words()
	return goapp.Div().Body(
		goapp.If(many, func() goapp.UI {
			return goapp.P().Class("files-find").Body(
				// Each capture is one, and so is each client read from an
				// audit log or a client's log: a count of files would read
				// 225 for six audit logs. The notes and tables given with
				// the records are counted apart: they are no clients.
				goapp.Label().For("files-find").Text(openCountText(r)),
				goapp.Input().ID("files-find").Type("search").Placeholder("part of a name").Value(v.Kept.find).
					OnInput(func(ctx goapp.Context, e goapp.Event) {
						v.Kept.find = ctx.JSSrc().Get("value").String()
						v.sync(ctx)
					}),
			)
		}),
		goapp.If(shared != "", func() goapp.UI {
			return goapp.P().ID("files-audit-shared").Class("hint").Text(shared)
		}),
		goapp.Range(r.Shown).Slice(func(i int) goapp.UI {
			f := &r.Shown[i]
			if i < filesInFull || v.Kept.opened[f.Name] {
				return renderFile(f, r.Servers)
			}
			return v.renderFolded(f)
		}),
		goapp.If(r.Matched > len(r.Shown), func() goapp.UI {
			return goapp.P().ID("files-more").Class("hint").Text(fmt.Sprintf("%d more not listed here", r.Matched-len(r.Shown)))
		}),
		goapp.If(r.Matched == 0 && r.Total > 0, func() goapp.UI {
			return goapp.P().ID("files-more").Class("hint").Text("No file open has that in its name.")
		}),
		goapp.If(len(r.Exports.Files) > 0, func() goapp.UI { return renderMetricsFiles(r.Exports) }),
		goapp.If(len(c.LeftOut) > 0, func() goapp.UI {
			return goapp.P().ID("files-left-out").Class("hint").Title(strings.Join(c.LeftOut, "\n")).Text(leftOutText(c.LeftOut))
		}),
	)
}

// leftOutText says which files of a dropped folder were left out for
// holding no watch record.
func leftOutText(names []string) string {
	return fmt.Sprintf("Left out of the folder, holding no watch record: %s.", words.Isolated(quantity.Listed(names, 3)))
}

// renderFolded shows a file's name and what it held in one line; opened,
// the file shows in full.
func (v *FilesPanel) renderFolded(f *engine.FileReport) goapp.UI {
	name := f.Name
	return goapp.Section().Class("result").DataSet("file", name).Body(
		goapp.Details().Class("file-folded").OnToggle(func(ctx goapp.Context, e goapp.Event) {
			if ctx.JSSrc().Get("open").Bool() {
				if v.Kept.opened == nil {
					v.Kept.opened = map[string]bool{}
				}
				v.Kept.opened[name] = true
			}
		}).Body(
			goapp.Summary().Body(nameUI(name), goapp.Text(": "+fileMeta(f))),
		),
	)
}

// renderMetricsFiles lists the Prometheus exports read: what each held,
// and the servers they name.
func renderMetricsFiles(m engine.Exports) goapp.UI {
	return goapp.Section().ID("metrics-files").Class("result").Body(
		goapp.H3().Text("Prometheus exports"),
		goapp.P().Class("meta").Text(fmt.Sprintf("%d series in %s, servers named by their %q label: %s",
			m.Series, quantity.Plural(len(m.Files), "file"), m.ServerLabel, strings.Join(m.Servers, ", "))),
		goapp.Div().Class("table-scroll").Body(goapp.Table().Class("sessions").Body(
			goapp.THead().Body(goapp.Tr().Body(
				goapp.Th().Text("file"), goapp.Th().Text("format"), goapp.Th().Text("series"), goapp.Th().Text("points"), goapp.Th().Text("left out"),
			)),
			goapp.TBody().Body(
				goapp.Range(m.Files).Slice(func(i int) goapp.UI {
					f := m.Files[i]
					return goapp.Tr().DataSet("file", f.Name).Body(
						goapp.Td().Body(nameUI(f.Name)),
						goapp.Td().Text(f.Format.String()),
						goapp.Td().Text(strconv.Itoa(f.Series)),
						goapp.Td().Text(strconv.Itoa(f.Points)),
						goapp.Td().Text(strconv.Itoa(f.Skipped)),
					)
				}),
			),
		)),
	)
}

// renderFile shows what was read from one capture file: counts, the
// resourceVersion range, its sessions and the problems in its bytes;
// with servers, the sessions say which server answered each.
func renderFile(f *engine.FileReport, servers bool) goapp.UI {
	return goapp.Section().Class("result").DataSet("file", f.Name).Body(
		goapp.H2().Body(nameUI(f.Name)),
		goapp.P().Class("meta").Text(fileMeta(f)),
		goapp.If(f.ReadErr != "", func() goapp.UI {
			return goapp.Div().Class("problem").Role("alert").Body(
				goapp.Text("Reading "), nameUI(f.Name), goapp.Text(" stopped: "+f.ReadErr))
		}),
		renderClient(f),
		goapp.If(f.Events == 0 && f.ReadFrom == "", func() goapp.UI { return renderNothingFound(f) }),
		goapp.If(f.Events > 0, func() goapp.UI { return renderCounts(f) }),
		goapp.If(len(f.Sessions) > 0, func() goapp.UI { return renderSessions(f.Sessions, servers) }),
		goapp.If(len(f.Doubts) > 0, func() goapp.UI { return renderDoubts(f.Doubts) }),
		goapp.If(len(f.Notes) > 0, func() goapp.UI { return renderInputNotes(f.Notes) }),
		goapp.If(f.Problems > 0, func() goapp.UI { return renderProblemList(f.Diagnostics, f.Problems) }),
	)
}

// renderInputNotes says, quietly, how a file was read where its input
// says nothing of it (timeline.IsNote): no problem in it.
func renderInputNotes(notes []parser.Diagnostic) goapp.UI {
	return goapp.Div().Class("input-notes").Body(
		goapp.Range(notes).Slice(func(i int) goapp.UI {
			return goapp.P().Class("meta note").Text("Note, " + timeline.VisibleBidi(notes[i].String()))
		}),
	)
}

// renderDoubts says, a sentence each, what the records leave unsure
// about a file (two informers an audit log cannot tell apart): no
// problem in its input, so not among them.
func renderDoubts(doubts []string) goapp.UI {
	return goapp.Div().Class("doubts").Body(
		goapp.Range(doubts).Slice(func(i int) goapp.UI {
			return goapp.P().Class("doubt").Text(doubts[i])
		}),
	)
}

// fileMeta says a file's size, events, sessions and clock; of a client
// read from the logs, where from, and that they hold no events; of a
// virtual client, the capture it was split from, whose bytes are its.
func fileMeta(f *engine.FileReport) string {
	if f.ReadFrom != "" {
		return fmt.Sprintf("%s read from %s: logs record a client's requests, not the events it received; times: %s",
			quantity.Plural(len(f.Sessions), "session"), words.Isolated(f.ReadFrom), clockText(f.Clock))
	}
	if f.SplitOf != "" {
		return fmt.Sprintf("%s in %s, split from %s, times: %s", quantity.Plural(f.Events, "event"), quantity.Plural(len(f.Sessions), "session"),
			words.Isolated(f.SplitOf), clockText(f.Clock))
	}
	return fmt.Sprintf("%s, %s in %s, times: %s", quantity.Bytes(f.Size), quantity.Plural(f.Events, "event"), quantity.Plural(len(f.Sessions), "session"), clockText(f.Clock))
}

// renderClient says which client library made the file's requests, as
// its User-Agent says or else how it was told, what that library does by
// default, and where the requests differ from it.
func renderClient(f *engine.FileReport) goapp.UI {
	p := f.Profile
	if p.Library == timeline.LibraryUnknown {
		return nil
	}
	who := p.Words()
	if p.RecognisedBy != "" {
		who += " (" + p.RecognisedBy + ")"
	}
	asks := "does not ask for bookmarks"
	if p.AsksBookmarks {
		asks = "asks for bookmarks"
	}
	watchList := p.WatchList.String()
	if p.WatchListSaidBy != "" {
		watchList += " (" + p.WatchListSaidBy + ")"
	}
	lines := []string{fmt.Sprintf("Client: %s. By default it %s; WatchList by default: %s; after a 410 it %s; watch timeout %s; backoff %s.",
		who, asks, watchList, p.After410, p.WatchTimeout, p.Backoff)}
	lines = append(lines, f.Differences...)
	return goapp.Div().Class("client-profile").DataSet("library", p.Library.String()).Body(
		goapp.Range(lines).Slice(func(k int) goapp.UI { return goapp.P().Class("meta").Text(lines[k]) }),
	)
}

// renderProblems puts what went wrong in the input at the top of the page,
// where it is seen before any chart built on it: one line per file whose
// input has problems, then one for the files that are no capture at all
// (notCapturesLine); and
// under it, quietly, the notes on how a file was read (engine.File.Notes),
// which are no problem.
func (c *capture) renderProblems() goapp.UI {
	var lines, notes []string
	for _, err := range c.LogErr {
		lines = append(lines, fmt.Sprintf("reading stopped: %v", err))
	}
	for i := range c.Opened.Files {
		f := &c.Opened.Files[i]
		if f.ReadErr != "" {
			lines = append(lines, fmt.Sprintf("%s: reading stopped: %s", words.Isolated(f.Name), f.ReadErr))
		}
		if f.LooksLike == "" {
			for _, note := range f.Notes {
				notes = append(notes, fmt.Sprintf("Note: %s: %s.", words.Isolated(f.Name), note))
			}
		}
		if f.Problems > 0 && f.NotCapture == timeline.IsCapture {
			lines = append(lines, fmt.Sprintf("%s: %s in the input, everything readable was read; %s", words.Isolated(f.Name), quantity.Plural(f.Problems, "problem"), f.RootCause))
		}
	}
	if l := notCapturesLine(c.Opened.Files); l != "" {
		lines = append(lines, l)
	}
	// One element whatever it holds: see renderCapture's capture-notes.
	return goapp.Div().Class("input-report").Body(
		goapp.If(len(lines) > 0, func() goapp.UI {
			return goapp.Div().ID("input-problems").Class("problem").Role("alert").Body(
				goapp.Range(lines).Slice(func(i int) goapp.UI { return goapp.P().Title(lines[i]).Text(lines[i]) }),
			)
		}),
		goapp.If(len(notes) > 0, func() goapp.UI {
			return goapp.Div().ID("input-notes").Class("input-notes hint").Body(
				goapp.Range(notes).Slice(func(i int) goapp.UI { return goapp.P().Title(notes[i]).Text(notes[i]) }),
			)
		}),
	)
}

// openCountText says how many files are open, the clients apart from the
// files that are no capture, before the find box.
func openCountText(r *engine.FilesReport) string {
	if r.NotCaptures == 0 {
		return fmt.Sprintf("%d open (each capture, and each client read from a log); find one by name: ", r.Total)
	}
	return fmt.Sprintf("%d open (each capture, and each client read from a log), and %s that %s no capture, listed last; find one by name: ",
		r.Total-r.NotCaptures, quantity.Plural(r.NotCaptures, "file"), map[bool]string{true: "is", false: "are"}[r.NotCaptures == 1])
}

func clockText(c timeline.Clock) string {
	switch c {
	case timeline.ClockArrival:
		return "recorded arrival times"
	case timeline.ClockEstimated:
		return "estimated (no arrival times in the capture)"
	default:
		return "none (events in order only)"
	}
}

// renderNothingFound says that a file held no watch event: what it is
// instead when its start tells, else where the parser first failed.
func renderNothingFound(f *engine.FileReport) goapp.UI {
	if f.LooksLike != "" {
		return goapp.Div().Class("problem").ID("no-events").Role("alert").Body(
			nameUI(f.Name), goapp.Text(" is not a watch capture: it looks like "+f.LooksLike+"."))
	}
	msg := "."
	if len(f.Diagnostics) > 0 {
		msg += " First problem at " + timeline.VisibleBidi(f.Diagnostics[0].String())
	}
	return goapp.Div().Class("problem").ID("no-events").Role("alert").Body(
		goapp.Text("No watch events were found in "), nameUI(f.Name), goapp.Text(msg))
}

func renderCounts(f *engine.FileReport) goapp.UI {
	return goapp.Div().Class("counts").Body(
		countTable("Events by type", "type", f.ByType),
		countTable("Events by kind", "kind", f.ByKind),
		goapp.Dl().Class("rv").Body(
			goapp.Dt().Text("first resourceVersion"),
			goapp.Dd().DataSet("rv", "first").Text(f.FirstRV),
			goapp.Dt().Text("last resourceVersion"),
			goapp.Dd().DataSet("rv", "last").Text(f.LastRV),
			goapp.Dt().Text("scope"),
			goapp.Dd().Text(f.Filtered),
		),
	)
}

func countTable(caption, attr string, counts []engine.Count) goapp.UI {
	return goapp.Table().Class("count-table").DataSet("by", attr).Body(
		goapp.Caption().Text(caption),
		goapp.TBody().Body(
			goapp.Range(counts).Slice(func(i int) goapp.UI {
				c := counts[i]
				return goapp.Tr().DataSet(attr, c.Name).Body(
					goapp.Th().Scope("row").Text(c.Name),
					goapp.Td().DataSet("count", c.N).Text(strconv.Itoa(c.N)),
				)
			}),
		),
	)
}

// renderSessions is a file's sessions table; with servers (audit logs
// read), a column names the server that answered each.
func renderSessions(sessions []engine.SessionRow, servers bool) goapp.UI {
	return goapp.Div().Class("table-scroll").Body(goapp.Table().Class("sessions").Body(
		goapp.Caption().Text("Sessions"),
		goapp.THead().Body(goapp.Tr().Body(
			goapp.Th().Text("#"), goapp.Th().Text("request"), goapp.Th().Text("HTTP status"),
			goapp.Th().Text("events"), goapp.Th().Text("bookmarks"), goapp.Th().Text("reconnect after"), goapp.Th().Text("ended"),
			goapp.If(servers, func() goapp.UI { return goapp.Th().Text("server") }),
		)),
		goapp.TBody().Body(
			goapp.Range(sessions).Slice(func(i int) goapp.UI {
				s := sessions[i]
				return goapp.Tr().DataSet("session", s.Index).Body(
					goapp.Td().Text(strconv.Itoa(s.Index)),
					goapp.Td().Class("mono").Body(nameUI(s.Request)),
					goapp.Td().Text(s.Status),
					goapp.Td().Text(strconv.Itoa(s.Events)),
					goapp.Td().Text(strconv.Itoa(s.Bookmarks)),
					goapp.Td().Text(gapText(s.Gap)),
					goapp.Td().Text(s.Ended),
					goapp.If(servers, func() goapp.UI { return goapp.Td().Text(serverText(s.Server)) }),
				)
			}),
		),
	))
}

// serverText names the server, and its process, that answered a
// session: "c, process 1 of 2", "unknown" when no audit log holds its
// request.
func serverText(server string) string {
	if server != "" {
		return server
	}
	return "unknown"
}

func gapText(gap int64) string {
	if gap < 0 {
		return "-"
	}
	return timeline.FormatDuration(gap)
}

// renderProblemList lists the first problems in a file's input (shown)
// of all it has.
func renderProblemList(shown []parser.Diagnostic, all int) goapp.UI {
	return goapp.Details().Class("diagnostics").Open(true).Body(
		goapp.Summary().Text(quantity.Plural(all, "problem")+" in the input"),
		goapp.Ul().Body(
			goapp.Range(shown).Slice(func(i int) goapp.UI {
				return goapp.Li().Class("mono").Text(timeline.VisibleBidi(shown[i].String()))
			}),
		),
	)
}
