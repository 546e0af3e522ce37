package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/load"
	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/tidwall/gjson"
)

// detail is the selected event as the detail pane shows it.
type detail struct {
	ev      timeline.Event
	lane    *timeline.Lane
	uid     string // the lane's, "" when none
	json    []byte // the event's JSON, nil until fetched
	prev    int    // the previous event of the same object, -1 when none
	prevRV  string
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

// show shows event i (or nothing for -1), fetching its JSON and its
// object's previous version in a goroutine.
func (v *EventPanel) show(ctx goapp.Context, i int) {
	c := v.Capture
	if c == nil || i < 0 || i >= c.Timeline.Len() {
		v.detail = nil
		return
	}
	tl := c.Timeline
	d := &detail{ev: tl.Event(i), prev: -1}
	if d.ev.Lane >= 0 {
		ln := tl.Lanes.At(d.ev.Lane)
		d.lane, d.uid = &ln, tl.Lanes.UID(d.ev.Lane)
		events := tl.LaneEvents(d.ev.Lane)
		for k, e := range events {
			if int(e) == i && k > 0 {
				d.prev = int(events[k-1])
				d.prevRV = tl.Event(d.prev).RV
			}
		}
	}
	v.detail = d
	if c.Sources[d.ev.File].Blob == nil {
		d.err = "it comes from an audit log's record of a request, not from a capture's bytes"
		return
	}
	fold := !v.Kept.showManaged
	ctx.Async(func() {
		blob := c.Sources[d.ev.File].Blob
		evs := []timeline.Event{d.ev}
		if d.prev >= 0 {
			evs = append(evs, c.Timeline.Event(d.prev))
		}
		var cur []byte
		var changes []change
		js, err := load.EventsJSON(blob, evs...)
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
	tl := v.Capture.Timeline
	f := tl.Files[ev.File]
	return goapp.Section().ID("detail").Class("panel").DataSet("event", ev.Index).Body(
		goapp.H2().Body(goapp.Text(ev.Type.String()+" "), nameUI(objectName(d.lane))),
		goapp.Dl().Class("fields").Body(
			field("type", ev.Type.String()),
			nameField("object", objectName(d.lane)),
			field("uid", d.uid),
			field("resourceVersion", eventRV(ev)),
			nameField("file", f.Name),
			field("session", strconv.Itoa(tl.Sessions[ev.Session].Index)),
			goapp.If(canvas.SessionServer(tl, ev.Session) != "", func() goapp.UI {
				return field("answered by server", canvas.SessionServer(tl, ev.Session))
			}),
			field("time", eventTime(ev, f.Clock, v.Zone)),
			field("bytes", fmt.Sprintf("%d-%d of the decompressed stream", ev.Offset, ev.Offset+ev.Length)),
			goapp.If(ev.Status != nil, func() goapp.UI {
				return field("status", fmt.Sprintf("%d %s: %s", ev.Status.Code, ev.Status.Reason, ev.Status.Message))
			}),
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
		goapp.If(d.prev >= 0 && d.json != nil, func() goapp.UI { return renderDiff(d) }),
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
		goapp.Summary().Text(fmt.Sprintf("Changed since RV %s: %s", d.prevRV, quantity.Plural(len(d.changes), "field"))),
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

func objectName(l *timeline.Lane) string {
	switch {
	case l == nil:
		return ""
	case l.Namespace == "":
		return l.Kind + " " + l.Name
	default:
		return l.Kind + " " + l.Namespace + "/" + l.Name
	}
}

// eventRV is the event's resourceVersion; an ERROR carries none, and a
// 410 says instead which one was asked for and the oldest still kept.
func eventRV(ev timeline.Event) string {
	switch {
	case ev.RV != "":
		return ev.RV
	case ev.Status != nil && ev.Status.TooOld:
		return fmt.Sprintf("none; asked from %d, the oldest kept is %d", ev.Status.X, ev.Status.Y)
	}
	return "none"
}

func eventTime(ev timeline.Event, c timeline.Clock, loc *time.Location) string {
	if c == timeline.ClockNone {
		return "unknown (the capture has no times)"
	}
	t := timeline.FormatInstant(ev.T, loc)
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
// list, in place in its bytes, by a string that counts its entries.
func foldManagedFields(raw []byte) []byte {
	mf := gjson.GetBytes(raw, "object.metadata.managedFields")
	if !mf.IsArray() || mf.Index <= 0 || !bytes.Equal(raw[mf.Index:mf.Index+len(mf.Raw)], []byte(mf.Raw)) {
		return raw
	}
	folded := strconv.Quote(fmt.Sprintf("(%d entries folded)", len(mf.Array())))
	out := make([]byte, 0, len(raw)-len(mf.Raw)+len(folded))
	out = append(out, raw[:mf.Index]...)
	out = append(out, folded...)
	return append(out, raw[mf.Index+len(mf.Raw):]...)
}
