package app

import (
	"sort"
	"strconv"
	"time"

	"watchlens/app/engine"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The Range tab: what a range of the timeline holds, as Perfetto's area
// selection shows it (engine.RangeStats): events by type and
// kind, bookmarks, errors, each cursor's oldest age, the zones and their
// length. A shift-drag over the timeline picks the range, and zooms to it:
// a range of time, or of resourceVersions on the RV axis.

// RangePanel is the Range tab. The range picked is the dock's, which
// hears the user's shift-drags over the timeline whichever tab is shown
// (actionBrush), and keeps it when the settings change the analysis; the
// panel asks the engine for its statistics (engine.RangeStats) under the
// analysis shown.
type RangePanel struct {
	goapp.Compo
	Capture *capture
	// Generation is the engine's analysis shown.
	Generation int
	Zone       *time.Location // the zone its times are written in
	From, To   int64          // the range shown, both 0 for the whole capture
	AxisRV     bool
	Brushed    *brush // the range picked, nil for none
}

// brush is a range picked of the capture of engine eng, on an axis, and
// its statistics under an analysis of it (the retention settings change
// the zones).
type brush struct {
	eng      engine.Answerer
	axisRV   bool
	from, to int64
	// stats are the statistics under the analysis answered, nil until
	// the first answer comes; asked is the analysis whose statistics are
	// shown or on their way (0: none, the engine counts its analyses
	// from 1).
	stats           *timeline.RangeStats
	answered, asked int
}

// pickRange is the range [from, to) on the axis shown, nil when there is
// none to pick.
func pickRange(c *capture, axisRV bool, from, to int64) *brush {
	if c == nil || to <= from {
		return nil
	}
	return &brush{eng: c.Engine, axisRV: axisRV, from: from, to: to}
}

func (v *RangePanel) OnMount(ctx goapp.Context)  { v.ask(ctx) }
func (v *RangePanel) OnUpdate(ctx goapp.Context) { v.ask(ctx) }

// OnDismount forgets a question whose answer is still on its way: the
// answer comes to this panel, which is no longer shown, so the panel
// shown again asks again.
func (v *RangePanel) OnDismount() {
	if b := v.Brushed; b != nil {
		b.asked = b.answered
	}
}

// ask has the engine answer the statistics of the range picked under
// the analysis shown, in a goroutine, unless they are shown or on their
// way.
func (v *RangePanel) ask(ctx goapp.Context) {
	b, gen := v.Brushed, v.Generation
	if b == nil || v.Capture == nil || b.eng != v.Capture.Engine || b.asked == gen {
		return
	}
	b.asked = gen
	ctx.Async(func() {
		st := b.eng.RangeStats(b.axisRV, b.from, b.to)
		ctx.Dispatch(func(goapp.Context) {
			if b.asked == gen {
				b.stats, b.answered = &st, gen
			}
		})
	})
}

// onRangeInView picks the range shown, as a shift-drag over it would.
func (v *RangePanel) onRangeInView(ctx goapp.Context, e goapp.Event) {
	if v.Capture == nil {
		return
	}
	from, to := v.From, v.To
	if from == 0 && to == 0 {
		from, to = v.Capture.Opened.Extent(v.AxisRV)
	}
	ctx.NewActionWithValue(actionBrush, [2]int64{from, to})
}

// axisName names an axis in the data attributes of the timeline's
// summary and of the Range tab.
func axisName(rv bool) string {
	if rv {
		return "rv"
	}
	return "time"
}

func (v *RangePanel) Render() goapp.UI {
	intro := goapp.P().Class("hint").Body(
		goapp.Text("Shift-drag over the timeline to see what a range holds (the view zooms to it), or "),
		goapp.Button().ID("range-in-view").Class("link").Text("take the range in view").OnClick(v.onRangeInView),
		goapp.Text("."),
	)
	b := v.Brushed
	if b == nil || v.Capture == nil || b.eng != v.Capture.Engine || b.stats == nil {
		// Another capture, whose range picked meant nothing there, or
		// the statistics on their way.
		return goapp.Section().ID("range").Class("panel").Body(goapp.H2().Text("Range"), intro)
	}
	st := *b.stats
	files := v.Capture.Opened.Files
	file := func(i int) string {
		if len(files) < 2 {
			return ""
		}
		return words.ShortName(words.Isolated(files[i].Name)) + ": "
	}
	var kinds []string
	for k := range st.ByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var types []string
	for t := range st.ByType {
		types = append(types, t)
	}
	sort.Strings(types)
	title := "Range " + timeline.FormatClock(st.From, v.Zone) + " to " + timeline.FormatClock(st.To, v.Zone) + " (" + timeline.FormatDuration(st.To-st.From) + ")"
	if st.AxisRV {
		title = "Range RV " + strconv.FormatInt(st.From, 10) + " to " + strconv.FormatInt(st.To-1, 10) + " (" + quantity.Plural(int(st.To-st.From), "resourceVersion") + ")"
	}
	return goapp.Section().ID("range").Class("panel").
		DataSet("from", strconv.FormatInt(st.From, 10)).DataSet("to", strconv.FormatInt(st.To, 10)).DataSet("axis", axisName(st.AxisRV)).
		DataSet("events", st.Events).DataSet("bookmarks", st.Bookmarks).DataSet("errors", st.Errors).Body(
		goapp.H2().Text(title),
		goapp.If(st.AxisRV, func() goapp.UI {
			return goapp.P().Class("hint").Text("Events and bookmarks with a resourceVersion in the range; errors, which carry none, in the time those events span; each cursor's oldest age at its values in the range; the 410 zones whose resourceVersions meet it, whole.")
		}),
		intro,
		goapp.Dl().Class("whatif").Body(
			goapp.Dt().Text("events (ADDED, MODIFIED, DELETED, OBSERVED, LISTED)"), goapp.Dd().Text(strconv.Itoa(st.Events)),
			goapp.Dt().Text("bookmarks"), goapp.Dd().Text(strconv.Itoa(st.Bookmarks)),
			goapp.Dt().Text("errors"), goapp.Dd().Text(strconv.Itoa(st.Errors)),
		),
		goapp.Div().Class("counts").Body(
			goapp.Table().DataSet("range-by", "type").Body(
				goapp.Caption().Text("Events by type"),
				goapp.TBody().Body(goapp.Range(types).Slice(func(i int) goapp.UI {
					return goapp.Tr().Body(goapp.Th().Scope("row").Text(types[i]), goapp.Td().DataSet("count", st.ByType[types[i]]).Text(strconv.Itoa(st.ByType[types[i]])))
				})),
			),
			goapp.Table().DataSet("range-by", "kind").Body(
				goapp.Caption().Text("Events by kind"),
				goapp.TBody().Body(goapp.Range(kinds).Slice(func(i int) goapp.UI {
					n := 0
					for _, c := range st.ByKind[kinds[i]] {
						n += c
					}
					return goapp.Tr().Body(goapp.Th().Scope("row").Text(rangeKindName(kinds[i])), goapp.Td().DataSet("count", n).Text(strconv.Itoa(n)))
				})),
			),
			goapp.Table().DataSet("range-by", "cursor").Body(
				goapp.Caption().Text("Oldest cursor age in the range"),
				goapp.TBody().Body(goapp.Range(st.Cursors).Slice(func(i int) goapp.UI {
					c := st.Cursors[i]
					age := "no value"
					if c.MaxAge > 0 {
						age = timeline.FormatDuration(c.MaxAge) + " at RV " + strconv.FormatUint(c.RV, 10)
					}
					return goapp.Tr().DataSet("max-age", c.MaxAge).Body(goapp.Th().Scope("row").Text(file(c.File)+c.Kind.Words()), goapp.Td().Text(age))
				})),
			),
			goapp.Table().DataSet("range-by", "zones").Body(
				goapp.Caption().Text("410 zones in the range"),
				goapp.TBody().Body(
					goapp.If(len(st.Zones) == 0, func() goapp.UI { return goapp.Tr().Body(goapp.Td().Text("none")) }),
					goapp.Range(st.Zones).Slice(func(i int) goapp.UI {
						z := st.Zones[i]
						return goapp.Tr().DataSet("count", z.Count).DataSet("length", z.Length).Body(
							goapp.Th().Scope("row").Text(file(z.File)+z.Kind.Words()+", "+timeline.OutcomeWords(z.Outcome)),
							goapp.Td().Text(quantity.Plural(z.Count, "zone")+", "+timeline.FormatDuration(z.Length)))
					}),
				),
			),
		),
	)
}

// rangeKindName is a kind as the range's table names it: an object with
// neither name nor uid has none.
func rangeKindName(kind string) string {
	if kind == timeline.NoKind {
		return "(object without name or uid)"
	}
	return words.ShortName(kind)
}
