package app

import (
	"fmt"
	"strconv"

	"watchlens/parser"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// progressStep is how many input bytes pass between progress updates.
const progressStep = 1 << 20

// fileResult is what was read from one capture.
type fileResult struct {
	name        string
	size        int64
	tally       *tally
	sessions    []parser.Session
	diagnostics []parser.Diagnostic
	readErr     error
}

// readCapture streams src through the parser, reporting progress every
// progressStep bytes. It runs in a goroutine: each chunk awaits the browser,
// which keeps the page responsive.
func readCapture(src source, report func(progress)) *fileResult {
	size := int64(src.blob.Get("size").Float())
	r := parser.NewReader(newBlobReader(src.blob), parser.Options{})
	t := newTally()
	next := int64(progressStep)
	for r.Next() {
		t.add(r.Event())
		if n := r.InputBytes(); n >= next {
			next = n + progressStep
			report(progress{name: src.name, size: size, read: n, events: t.events})
		}
	}
	return &fileResult{
		name:        src.name,
		size:        size,
		tally:       t,
		sessions:    r.Sessions(),
		diagnostics: r.Diagnostics(),
		readErr:     r.Err(),
	}
}

// maxDiagnosticsShown keeps a garbage file from filling the page.
const maxDiagnosticsShown = 20

func (f *fileResult) render() goapp.UI {
	return goapp.Section().Class("result").DataSet("file", f.name).Body(
		goapp.H2().Text(f.name),
		goapp.P().Class("meta").Text(fmt.Sprintf("%s, %s in %s", humanBytes(f.size), plural(f.tally.events, "event"), plural(len(f.sessions), "session"))),
		goapp.If(f.readErr != nil, func() goapp.UI {
			return goapp.Div().Class("problem").Role("alert").Text(fmt.Sprintf("Reading %s stopped: %v", f.name, f.readErr))
		}),
		goapp.If(f.tally.events == 0, f.renderNothingFound),
		goapp.If(f.tally.events > 0, f.renderCounts),
		goapp.If(len(f.sessions) > 0, f.renderSessions),
		goapp.If(len(f.diagnostics) > 0, f.renderDiagnostics),
	)
}

func (f *fileResult) renderNothingFound() goapp.UI {
	msg := fmt.Sprintf("No watch events were found in %s.", f.name)
	if len(f.diagnostics) > 0 {
		msg += " First problem at " + f.diagnostics[0].String()
	}
	return goapp.Div().Class("problem").ID("no-events").Role("alert").Text(msg)
}

func (f *fileResult) renderCounts() goapp.UI {
	t := f.tally
	return goapp.Div().Class("counts").Body(
		countTable("Events by type", "type", t.types()),
		countTable("Events by kind", "kind", t.kinds()),
		goapp.Dl().Class("rv").Body(
			goapp.Dt().Text("first resourceVersion"),
			goapp.Dd().DataSet("rv", "first").Text(t.firstRV),
			goapp.Dt().Text("last resourceVersion"),
			goapp.Dd().DataSet("rv", "last").Text(t.lastRV),
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

func (f *fileResult) renderSessions() goapp.UI {
	return goapp.Table().Class("sessions").Body(
		goapp.Caption().Text("Sessions"),
		goapp.THead().Body(goapp.Tr().Body(
			goapp.Th().Text("#"), goapp.Th().Text("request"), goapp.Th().Text("HTTP status"), goapp.Th().Text("events"), goapp.Th().Text("ended"),
		)),
		goapp.TBody().Body(
			goapp.Range(f.sessions).Slice(func(i int) goapp.UI {
				s := f.sessions[i]
				return goapp.Tr().DataSet("session", s.Index).Body(
					goapp.Td().Text(strconv.Itoa(s.Index)),
					goapp.Td().Class("mono").Text(requestText(s.Request)),
					goapp.Td().Text(statusText(s)),
					goapp.Td().Text(strconv.Itoa(s.Events)),
					goapp.Td().Text(sessionEnd(s)),
				)
			}),
		),
	)
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

func statusText(s parser.Session) string {
	if s.HTTPStatus == 0 {
		return "(no HTTP head)"
	}
	out := fmt.Sprintf("%d %s", s.HTTPStatus, s.StatusText)
	if s.Status != nil {
		out += ": " + s.Status.Message
	}
	return out
}

func sessionEnd(s parser.Session) string {
	if s.Truncated {
		return "cut off mid-stream"
	}
	return "complete"
}

func (f *fileResult) renderDiagnostics() goapp.UI {
	shown := f.diagnostics[:min(len(f.diagnostics), maxDiagnosticsShown)]
	return goapp.Details().Class("diagnostics").Open(true).Body(
		goapp.Summary().Text(plural(len(f.diagnostics), "problem")+" in the input"),
		goapp.Ul().Body(
			goapp.Range(shown).Slice(func(i int) goapp.UI {
				return goapp.Li().Class("mono").Text(shown[i].String())
			}),
		),
	)
}
