package app

import (
	"sort"
	"strconv"

	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The Range tab: what a range of the timeline holds, as Perfetto's area
// selection shows it (timeline.Analysis.RangeStats): events by type and
// kind, bookmarks, errors, each cursor's oldest age, the zones and their
// length. A shift-drag over the timeline picks the range, and zooms to it:
// a range of time, or of resourceVersions on the RV axis.

// RangePanel is the Range tab. The range picked is the dock's, which
// hears the user's shift-drags over the timeline whichever tab is shown
// (actionBrush), and keeps it when the settings change the analysis.
type RangePanel struct {
	goapp.Compo
	Capture  *capture
	Analysis *timeline.Analysis
	From, To int64 // the range shown, both 0 for the whole capture
	AxisRV   bool
	Brushed  *brush // the range picked, nil for none
}

// brush is the range picked and its statistics, for the analysis an
// (the retention settings change the zones) of the capture c.
type brush struct {
	stats timeline.RangeStats
	an    *timeline.Analysis
	c     *capture
}

// pickRange is the statistics of [from, to) on the axis shown, nil when
// there are none to pick.
func pickRange(c *capture, an *timeline.Analysis, axisRV bool, from, to int64) *brush {
	if an == nil || to <= from {
		return nil
	}
	return &brush{stats: rangeStats(an, axisRV, from, to), an: an, c: c}
}

// rangeStats asks the model for the statistics of [from, to) on an axis.
func rangeStats(an *timeline.Analysis, axisRV bool, from, to int64) timeline.RangeStats {
	if axisRV {
		return an.RangeStatsRV(uint64(max(from, 0)), uint64(max(to, 0)))
	}
	return an.RangeStats(from, to)
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
	if b == nil || v.Capture == nil || b.c != v.Capture {
		// Another capture: the range picked meant nothing there.
		return goapp.Section().ID("range").Class("panel").Body(goapp.H2().Text("Range"), intro)
	}
	if an := v.Analysis; an != nil && b.an != an {
		// The settings changed the analysis: the same range, again.
		b.stats, b.an = rangeStats(an, b.stats.AxisRV, b.stats.From, b.stats.To), an
	}
	st := b.stats
	tl := v.Capture.Timeline
	file := func(i int) string {
		if len(tl.Files) < 2 {
			return ""
		}
		return words.ShortName(words.Isolated(tl.Files[i].Name)) + ": "
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
	title := "Range " + timeline.FormatClock(st.From, zoneOf(b.an)) + " to " + timeline.FormatClock(st.To, zoneOf(b.an)) + " (" + timeline.FormatDuration(st.To-st.From) + ")"
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
					return goapp.Tr().Body(goapp.Th().Scope("row").Text(words.ShortName(kinds[i])), goapp.Td().DataSet("count", n).Text(strconv.Itoa(n)))
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
					return goapp.Tr().DataSet("max-age", c.MaxAge).Body(goapp.Th().Scope("row").Text(file(c.File)+c.Kind.String()), goapp.Td().Text(age))
				})),
			),
			goapp.Table().DataSet("range-by", "zones").Body(
				goapp.Caption().Text("410 zones in the range"),
				goapp.TBody().Body(
					goapp.If(len(st.Zones) == 0, func() goapp.UI { return goapp.Tr().Body(goapp.Td().Text("none")) }),
					goapp.Range(st.Zones).Slice(func(i int) goapp.UI {
						z := st.Zones[i]
						return goapp.Tr().DataSet("count", z.Count).DataSet("length", z.Length).Body(
							goapp.Th().Scope("row").Text(file(z.File)+z.Kind.String()+", "+z.Outcome.String()),
							goapp.Td().Text(quantity.Plural(z.Count, "zone")+", "+timeline.FormatDuration(z.Length)))
					}),
				),
			),
		),
	)
}
