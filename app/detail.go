package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"watchlens/app/engine"
	"watchlens/app/load"
	"watchlens/internal/quantity"
	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/tidwall/gjson"
)

// detail is the selected event as the detail pane shows it: the
// engine's answer, and the bytes the page read again of it and of its
// object's previous event.
type detail struct {
	ev      engine.EventDetail
	json    []byte // the event's JSON, nil until fetched
	changes []change
	err     string
}

// EventPanel is the Event tab: the selected event in full, its fields,
// its JSON fetched again from its file, and what changed since its
// object's previous version.
type EventPanel struct {
	goapp.Compo
	Capture  *capture
	Selected int // the event's index in the timeline, -1 for none
	// Zone is where times are written (the analysis's), nil for UTC.
	Zone *time.Location

	// Kept is what the panel keeps while hidden: the managedFields
	// choice.
	Kept *eventKept

	detail *detail
	// asked counts the events asked for: only the latest one shows.
	asked int
	// shownFor is what detail was made for.
	shownFor struct {
		capture  *capture
		selected int
		managed  bool
	}
}

func (v *EventPanel) OnMount(ctx goapp.Context)  { v.sync(ctx) }
func (v *EventPanel) OnUpdate(ctx goapp.Context) { v.sync(ctx) }

// eventKept is what the Event tab keeps while another tab is shown.
type eventKept struct {
	showManaged bool
}

// sync shows the selected event, if it is not shown already.
func (v *EventPanel) sync(ctx goapp.Context) {
	if v.shownFor.capture == v.Capture && v.shownFor.selected == v.Selected && v.shownFor.managed == v.Kept.showManaged {
		return
	}
	v.shownFor.capture, v.shownFor.selected, v.shownFor.managed = v.Capture, v.Selected, v.Kept.showManaged
	v.show(ctx, v.Selected)
}

// show shows event i (or nothing for -1) as the engine answers it,
// fetching its JSON and its object's previous version in a goroutine.
func (v *EventPanel) show(ctx goapp.Context, i int) {
	c := v.Capture
	v.detail = nil
	v.asked++
	n := v.asked
	if c == nil || i < 0 {
		return
	}
	fold := !v.Kept.showManaged
	ask(ctx, c.Engine, func() engine.EventDetail { return c.Engine.Event(i) }, func(ctx goapp.Context, ev engine.EventDetail) {
		if v.asked != n || ev.Index < 0 {
			return // the user selected another event meanwhile
		}
		d := &detail{ev: ev}
		v.detail = d
		v.fetchJSON(ctx, c, d, fold)
	})
}

// fetchJSON fetches the JSON of event d and its object's previous
// version in a goroutine, and shows them.
func (v *EventPanel) fetchJSON(ctx goapp.Context, c *capture, d *detail, fold bool) {
	ev := d.ev
	blob := c.Sources[ev.File].Blob
	if blob == nil {
		d.err = "it comes from an audit log's record of a request, not from a capture's bytes"
		return
	}
	ctx.Async(func() {
		spans := []parser.EventSpan{ev.Span}
		if ev.Prev >= 0 {
			spans = append(spans, ev.PrevSpan)
		}
		var cur []byte
		var changes []change
		js, err := load.EventsJSON(blob, spans...)
		if err == nil {
			cur = js[0]
			if len(js) > 1 {
				changes, err = diffJSON(js[1], cur, fold)
			}
		}
		ctx.Dispatch(func(goapp.Context) {
			if v.detail != d {
				return // the user selected another event meanwhile
			}
			d.json, d.changes = cur, changes
			if err != nil {
				d.err = err.Error()
			}
		})
	})
}

func (v *EventPanel) onToggleManaged(ctx goapp.Context, e goapp.Event) {
	v.Kept.showManaged = !v.Kept.showManaged
	v.sync(ctx)
}

func (v *EventPanel) onCopyJSON(ctx goapp.Context, e goapp.Event) {
	if v.detail == nil || v.detail.json == nil {
		return
	}
	goapp.Window().Get("navigator").Get("clipboard").Call("writeText", string(prettyJSON(v.detail.json, false)))
}

func (v *EventPanel) Render() goapp.UI {
	d := v.detail
	if d == nil {
		return goapp.Section().ID("detail").Class("panel").Body(
			goapp.H2().Text("Event"),
			goapp.P().Class("hint").Text("Click an event on the timeline to see it in full here, with what changed since its object's previous version."),
		)
	}
	ev := d.ev
	return goapp.Section().ID("detail").Class("panel").DataSet("event", ev.Index).Body(
		goapp.H2().Body(goapp.Text(ev.Type+" "), nameUI(ev.Object)),
		goapp.Dl().Class("fields").Body(
			field("type", ev.Type),
			nameField("object", ev.Object),
			field("uid", ev.UID),
			field("resourceVersion", ev.RV),
			nameField("file", ev.FileName),
			field("session", strconv.Itoa(ev.Session)),
			goapp.If(ev.Server != "", func() goapp.UI { return field("answered by server", ev.Server) }),
			field("time", eventTime(ev, v.Zone)),
			field("bytes", fmt.Sprintf("%d-%d of the file, uncompressed", ev.Span.Offset, ev.Span.Offset+ev.Span.Length)),
			goapp.If(ev.Status != "", func() goapp.UI { return field("status", ev.Status) }),
		),
		goapp.Div().Class("detail-actions").Body(
			goapp.Button().ID("copy-json").Text("Copy JSON").OnClick(v.onCopyJSON),
			goapp.Label().For("show-managed").Class("check").Body(
				goapp.Input().ID("show-managed").Type("checkbox").Checked(v.Kept.showManaged).OnChange(v.onToggleManaged),
				goapp.Span().Text(" show managedFields"),
			),
		),
		goapp.If(d.err != "", func() goapp.UI {
			return goapp.P().Class("problem").Role("alert").Text("The event's bytes could not be read again: " + d.err)
		}),
		goapp.If(d.ev.Prev >= 0 && d.json != nil, func() goapp.UI { return renderDiff(d) }),
		goapp.If(d.json != nil, func() goapp.UI {
			return goapp.Details().Open(true).Body(
				goapp.Summary().Text("Full JSON"),
				goapp.Pre().ID("detail-json").Class("json").Text(string(prettyJSON(d.json, !v.Kept.showManaged))),
			)
		}),
	)
}

func renderDiff(d *detail) goapp.UI {
	return goapp.Details().Open(true).Body(
		goapp.Summary().Text(fmt.Sprintf("Changed since RV %s: %s", d.ev.PrevRV, quantity.Plural(len(d.changes), "field"))),
		goapp.Table().ID("detail-diff").Class("diff").Body(
			goapp.THead().Body(goapp.Tr().Body(goapp.Th().Text("field"), goapp.Th().Text("before"), goapp.Th().Text("after"))),
			goapp.TBody().Body(
				goapp.Range(d.changes).Slice(func(i int) goapp.UI {
					ch := d.changes[i]
					return goapp.Tr().DataSet("path", ch.path).Body(
						goapp.Td().Class("mono").Text(ch.path),
						goapp.Td().Class("mono old").Text(orAbsent(ch.old)),
						goapp.Td().Class("mono new").Text(orAbsent(ch.new)),
					)
				}),
			),
		),
	)
}

func field(name, value string) goapp.UI {
	return goapp.Div().Body(goapp.Dt().Text(name), goapp.Dd().DataSet("field", name).Text(value))
}

// nameField is field for a name from the capture (see nameUI).
func nameField(name, value string) goapp.UI {
	return goapp.Div().Body(goapp.Dt().Text(name), goapp.Dd().DataSet("field", name).Body(nameUI(value)))
}

func eventTime(ev engine.EventDetail, loc *time.Location) string {
	if ev.Clock == timeline.ClockNone {
		return "unknown (the capture has no times)"
	}
	t := timeline.FormatInstant(ev.T, loc)
	if ev.Timed && ev.StampedLate != 0 {
		return fmt.Sprintf("%s (recorded arrival of its first bytes; the capture stamps its last %s later, as the next frame came: see the doubts)", t, timeline.FormatDuration(ev.StampedLate))
	}
	if ev.Timed {
		return t + " (recorded arrival)"
	}
	return t + " (estimated)"
}

func orAbsent(v string) string {
	if v == "" {
		return "(absent)"
	}
	return v
}

// prettyJSON indents an event for reading, its keys in the order the
// server sent them; with fold, managedFields is replaced by a count, since
// it is long and rarely what one looks for.
func prettyJSON(raw []byte, fold bool) []byte {
	if fold {
		raw = foldManagedFields(raw)
	}
	var out bytes.Buffer
	if json.Indent(&out, raw, "", "  ") != nil {
		return raw
	}
	return out.Bytes()
}

// foldManagedFields replaces the event's object.metadata.managedFields
// list (an item of a LIST's metadata.managedFields: it is the object
// alone), in place in its bytes, by a string that counts its entries.
func foldManagedFields(raw []byte) []byte {
	path := "object.metadata.managedFields"
	if !gjson.GetBytes(raw, "object").IsObject() {
		path = "metadata.managedFields"
	}
	mf := gjson.GetBytes(raw, path)
	if !mf.IsArray() || mf.Index <= 0 || !bytes.Equal(raw[mf.Index:mf.Index+len(mf.Raw)], []byte(mf.Raw)) {
		return raw
	}
	folded := strconv.Quote(fmt.Sprintf("(%d entries folded)", len(mf.Array())))
	out := make([]byte, 0, len(raw)-len(mf.Raw)+len(folded))
	out = append(out, raw[:mf.Index]...)
	out = append(out, folded...)
	return append(out, raw[mf.Index+len(mf.Raw):]...)
}
