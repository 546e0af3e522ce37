package app

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"watchlens/app/canvas"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// maxDiagnosticsShown keeps a garbage file from filling the page.
const maxDiagnosticsShown = 20

// maxFilesShown bounds the files the panel lists: each file is some 45
// DOM nodes, and go-app's tree of them in wasm memory, which a broad
// capture split into 10 000 virtual clients multiplies by 10 000. The
// others are counted and found by name.
const maxFilesShown = 50

// filesInFull is how many of the files listed show what was read from
// them at once; the others show their name and counts, and the rest when
// opened. The lab's 50 files listed in full were 4400 of the page's 6700
// DOM nodes, which go-app made in seconds of a load that shows the fleet
// first, with this panel hidden.
const filesInFull = 8

// FilesPanel is the Files and sessions tab: what was read from each
// capture file.
type FilesPanel struct {
	goapp.Compo
	Capture *capture
	// Kept is what the user typed and opened, which stays while another
	// tab is shown.
	Kept *filesKept
}

// filesKept is what the Files and sessions tab keeps while another tab
// is shown.
type filesKept struct {
	// find is what the user typed to find files by name.
	find string
	// opened are the files listed folded that the user opened, by name.
	opened map[string]bool
}

func (v *FilesPanel) Render() goapp.UI {
	c := v.Capture
	shown, matched := c.filesMatching(v.Kept.find, maxFilesShown)
	many := len(c.Timeline.Files) > maxFilesShown
	return goapp.Div().Body(
		goapp.If(many, func() goapp.UI {
			return goapp.P().Class("files-find").Body(
				goapp.Label().For("files-find").Text(fmt.Sprintf("%s open; find one by name: ", quantity.Plural(len(c.Timeline.Files), "file"))),
				goapp.Input().ID("files-find").Type("search").Placeholder("part of a name").Value(v.Kept.find).
					OnInput(func(ctx goapp.Context, e goapp.Event) { v.Kept.find = ctx.JSSrc().Get("value").String() }),
			)
		}),
		goapp.Range(shown).Slice(func(i int) goapp.UI {
			if i < filesInFull || v.Kept.opened[c.Timeline.Files[shown[i]].Name] {
				return c.renderFile(shown[i])
			}
			return v.renderFolded(shown[i])
		}),
		goapp.If(matched > len(shown), func() goapp.UI {
			return goapp.P().ID("files-more").Class("hint").Text(fmt.Sprintf("%s more not listed here", quantity.Plural(matched-len(shown), "file")))
		}),
		goapp.If(matched == 0 && len(c.Timeline.Files) > 0, func() goapp.UI {
			return goapp.P().ID("files-more").Class("hint").Text("No file open has that in its name.")
		}),
		goapp.If(c.Timeline.Metrics != nil, func() goapp.UI { return renderMetricsFiles(c.Timeline.Metrics) }),
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
func (v *FilesPanel) renderFolded(i int) goapp.UI {
	c := v.Capture
	f := c.Timeline.Files[i]
	return goapp.Section().Class("result").DataSet("file", f.Name).Body(
		goapp.Details().Class("file-folded").OnToggle(func(ctx goapp.Context, e goapp.Event) {
			if ctx.JSSrc().Get("open").Bool() {
				if v.Kept.opened == nil {
					v.Kept.opened = map[string]bool{}
				}
				v.Kept.opened[f.Name] = true
			}
		}).Body(
			goapp.Summary().Body(nameUI(f.Name), goapp.Text(": "+c.fileMeta(i))),
		),
	)
}

// renderMetricsFiles lists the Prometheus exports read: what each held,
// and the servers they name.
func renderMetricsFiles(m *timeline.Metrics) goapp.UI {
	return goapp.Section().ID("metrics-files").Class("result").Body(
		goapp.H3().Text("Prometheus exports"),
		goapp.P().Class("meta").Text(fmt.Sprintf("%d series in %s, servers named by their %q label: %s",
			len(m.Series), quantity.Plural(len(m.Files), "file"), m.ServerLabel, strings.Join(m.Servers, ", "))),
		goapp.Table().Class("sessions").Body(
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
		),
	)
}

// filesMatching are the first n files whose names hold find (every file
// for an empty find), and how many match in all.
func (c *capture) filesMatching(find string, n int) ([]int, int) {
	find = strings.ToLower(find)
	var shown []int
	matched := 0
	for i, f := range c.Timeline.Files {
		if find != "" && !strings.Contains(strings.ToLower(f.Name), find) {
			continue
		}
		matched++
		if len(shown) < n {
			shown = append(shown, i)
		}
	}
	return shown, matched
}

// renderFile shows what was read from one capture file: counts, the
// resourceVersion range, its sessions and the problems in its bytes.
func (c *capture) renderFile(i int) goapp.UI {
	f := c.Timeline.Files[i]
	return goapp.Section().Class("result").DataSet("file", f.Name).Body(
		goapp.H2().Body(nameUI(f.Name)),
		goapp.P().Class("meta").Text(c.fileMeta(i)),
		goapp.If(c.ReadErr[i] != nil, func() goapp.UI {
			return goapp.Div().Class("problem").Role("alert").Body(
				goapp.Text("Reading "), nameUI(f.Name), goapp.Text(fmt.Sprintf(" stopped: %v", c.ReadErr[i])))
		}),
		c.renderClient(i),
		goapp.If(f.Events == 0, func() goapp.UI { return renderNothingFound(f, c.Timeline.LooksLike(i)) }),
		goapp.If(f.Events > 0, func() goapp.UI { return renderCounts(f) }),
		goapp.If(len(f.Sessions) > 0, func() goapp.UI { return c.renderSessions(f) }),
		goapp.If(len(f.Diagnostics) > 0, func() goapp.UI { return renderDiagnostics(f.Diagnostics) }),
	)
}

// fileMeta says a file's size, events, sessions and clock.
func (c *capture) fileMeta(i int) string {
	f := c.Timeline.Files[i]
	return fmt.Sprintf("%s, %s in %s, times: %s", quantity.Bytes(c.Sizes[i]), quantity.Plural(f.Events, "event"), quantity.Plural(len(f.Sessions), "session"), clockText(f.Clock))
}

// renderClient says which client library made the file's requests, as
// its User-Agent says, what that library does by default, and where the
// requests differ from it.
func (c *capture) renderClient(i int) goapp.UI {
	p := c.Timeline.FileProfile(i)
	if p.Library == timeline.LibraryUnknown {
		return nil
	}
	asks := "does not ask for bookmarks"
	if p.AsksBookmarks {
		asks = "asks for bookmarks"
	}
	lines := []string{fmt.Sprintf("Client: %s. By default it %s; WatchList by default: %s; after a 410 it %s; watch timeout %s; backoff %s.",
		p.Words(), asks, p.WatchList, p.After410, p.WatchTimeout, p.Backoff)}
	lines = append(lines, c.Timeline.ProfileDifferences(i, p)...)
	return goapp.Div().Class("client-profile").DataSet("library", p.Library.String()).Body(
		goapp.Range(lines).Slice(func(k int) goapp.UI { return goapp.P().Class("meta").Text(lines[k]) }),
	)
}

// renderProblems puts what went wrong in the input at the top of the page,
// where it is seen before any chart built on it: one line per file.
func (c *capture) renderProblems() goapp.UI {
	var lines []string
	for _, err := range c.LogErr {
		lines = append(lines, fmt.Sprintf("reading stopped: %v", err))
	}
	for i, f := range c.Timeline.Files {
		if c.ReadErr[i] != nil {
			lines = append(lines, fmt.Sprintf("%s: reading stopped: %v", words.Isolated(f.Name), c.ReadErr[i]))
		}
		if ll := c.Timeline.LooksLike(i); ll != "" {
			lines = append(lines, fmt.Sprintf("%s is not a watch capture: it looks like %s.", words.Isolated(f.Name), ll))
		} else if len(f.Diagnostics) > 0 {
			lines = append(lines, fmt.Sprintf("%s: %s in the input, everything readable was read; %s", words.Isolated(f.Name), quantity.Plural(len(f.Diagnostics), "problem"), rootCause(f.Diagnostics)))
		}
	}
	return goapp.If(len(lines) > 0, func() goapp.UI {
		return goapp.Div().ID("input-problems").Class("problem").Role("alert").Body(
			goapp.Range(lines).Slice(func(i int) goapp.UI { return goapp.P().Text(lines[i]) }),
		)
	})
}

// rootCause picks the diagnostic that explains the others: a cut or capped
// decompression truncates everything after it, so it comes before the
// truncated framing it causes, whatever their offsets.
func rootCause(diags []parser.Diagnostic) string {
	for _, d := range diags {
		if d.Kind == parser.DiagBadCompression || d.Kind == parser.DiagTooBig {
			return "above all at " + d.String()
		}
	}
	return "the first at " + diags[0].String()
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
// instead when its start tells (looksLike, as timeline.Timeline.LooksLike
// says), else where the parser first failed.
func renderNothingFound(f timeline.File, looksLike string) goapp.UI {
	if looksLike != "" {
		return goapp.Div().Class("problem").ID("no-events").Role("alert").Body(
			nameUI(f.Name), goapp.Text(" is not a watch capture: it looks like "+looksLike+"."))
	}
	msg := "."
	if len(f.Diagnostics) > 0 {
		msg += " First problem at " + timeline.VisibleBidi(f.Diagnostics[0].String())
	}
	return goapp.Div().Class("problem").ID("no-events").Role("alert").Body(
		goapp.Text("No watch events were found in "), nameUI(f.Name), goapp.Text(msg))
}

type count struct {
	name string
	n    int
}

// typeCounts lists the event types seen, in protocol order.
func typeCounts(f timeline.File) []count {
	var out []count
	for t := parser.Added; t <= parser.Listed; t++ {
		if n := f.Counts[t.String()]; n > 0 {
			out = append(out, count{t.String(), n})
		}
	}
	return out
}

// kindCounts lists the object kinds seen, most frequent first. ERROR events
// carry a Status, which is no kind of watched object.
func kindCounts(f timeline.File) []count {
	var out []count
	for kind, byType := range f.CountsKind {
		n := 0
		for typ, k := range byType {
			if typ != parser.Error.String() {
				n += k
			}
		}
		if n > 0 {
			out = append(out, count{kind, n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].name < out[j].name
	})
	return out
}

func renderCounts(f timeline.File) goapp.UI {
	return goapp.Div().Class("counts").Body(
		countTable("Events by type", "type", typeCounts(f)),
		countTable("Events by kind", "kind", kindCounts(f)),
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

func countTable(caption, attr string, counts []count) goapp.UI {
	return goapp.Table().Class("count-table").DataSet("by", attr).Body(
		goapp.Caption().Text(caption),
		goapp.TBody().Body(
			goapp.Range(counts).Slice(func(i int) goapp.UI {
				c := counts[i]
				return goapp.Tr().DataSet(attr, c.name).Body(
					goapp.Th().Scope("row").Text(c.name),
					goapp.Td().DataSet("count", c.n).Text(strconv.Itoa(c.n)),
				)
			}),
		),
	)
}

func (c *capture) renderSessions(f timeline.File) goapp.UI {
	// With audit logs, a column names the server that answered each.
	servers := len(c.Timeline.Servers) > 0
	return goapp.Table().Class("sessions").Body(
		goapp.Caption().Text("Sessions"),
		goapp.THead().Body(goapp.Tr().Body(
			goapp.Th().Text("#"), goapp.Th().Text("request"), goapp.Th().Text("HTTP status"),
			goapp.Th().Text("events"), goapp.Th().Text("bookmarks"), goapp.Th().Text("reconnect after"), goapp.Th().Text("ended"),
			goapp.If(servers, func() goapp.UI { return goapp.Th().Text("server") }),
		)),
		goapp.TBody().Body(
			goapp.Range(f.Sessions).Slice(func(i int) goapp.UI {
				g := f.Sessions[i]
				s := c.Timeline.Sessions[g]
				return goapp.Tr().DataSet("session", s.Index).Body(
					goapp.Td().Text(strconv.Itoa(s.Index)),
					goapp.Td().Class("mono").Body(nameUI(requestText(s.Request))),
					goapp.Td().Text(statusText(s)),
					goapp.Td().Text(strconv.Itoa(s.Events)),
					goapp.Td().Text(strconv.Itoa(s.Bookmarks)),
					goapp.Td().Text(gapText(s.Gap)),
					goapp.Td().Text(endText(s)),
					goapp.If(servers, func() goapp.UI { return goapp.Td().Text(serverText(c.Timeline, g)) }),
				)
			}),
		),
	)
}

// serverText names the server, and its process, that answered session
// g: "c, process 1 of 2", "unknown" when no audit log holds its request.
func serverText(tl *timeline.Timeline, g int) string {
	if s := canvas.SessionServer(tl, g); s != "" {
		return s
	}
	return "unknown"
}

func requestText(r *parser.Request) string {
	if r == nil {
		return "(not captured)"
	}
	if r.Query == "" {
		return r.Method + " " + r.Path
	}
	return r.Method + " " + r.Path + "?" + r.Query
}

func statusText(s timeline.Session) string {
	if s.HTTPStatus == 0 {
		return "(no HTTP head)"
	}
	out := fmt.Sprintf("%d %s", s.HTTPStatus, s.StatusText)
	if s.Status != nil {
		out += ": " + s.Status.Message
	}
	return out
}

func gapText(gap int64) string {
	if gap < 0 {
		return "-"
	}
	return timeline.FormatDuration(gap)
}

func endText(s timeline.Session) string {
	switch s.EndReason {
	case timeline.EndEOF:
		return "clean end"
	case timeline.EndDeadline:
		return "server deadline"
	case timeline.EndError:
		if s.Error != nil {
			return fmt.Sprintf("ERROR %d: %s", s.Error.Code, s.Error.Message)
		}
		return "ERROR event"
	case timeline.EndCutOff:
		return "cut off mid-stream"
	case timeline.EndNewResponse:
		return "cut off, a new response follows"
	default:
		return "HTTP error"
	}
}

func renderDiagnostics(diags []parser.Diagnostic) goapp.UI {
	shown := diags[:min(len(diags), maxDiagnosticsShown)]
	return goapp.Details().Class("diagnostics").Open(true).Body(
		goapp.Summary().Text(quantity.Plural(len(diags), "problem")+" in the input"),
		goapp.Ul().Body(
			goapp.Range(shown).Slice(func(i int) goapp.UI {
				return goapp.Li().Class("mono").Text(timeline.VisibleBidi(shown[i].String()))
			}),
		),
	)
}
