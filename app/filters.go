package app

import (
	"strconv"
	"strings"

	"watchlens/app/words"
	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// filterTypes are the event types the filter bar toggles, in protocol order.
var filterTypes = []parser.EventType{parser.Added, parser.Modified, parser.Deleted, parser.Observed, parser.Listed, parser.Bookmark, parser.Error}

// FilterBar is the bar above the timeline: event types, kind, namespace,
// a search over object names and a label selector, and the axis. The
// timeline and the findings follow it. It posts the filter the user
// chose (actionFilter) and the axis switch (actionAxis).
type FilterBar struct {
	goapp.Compo
	Filter timeline.Filter
	AxisRV bool
	// The kinds and namespaces of the capture's objects.
	Kinds, Namespaces []string
}

// The actions the filter bar posts.
const (
	// actionFilter: the user changed the filter; its value is the new
	// timeline.Filter.
	actionFilter = "filters/filter"
	// actionAxis: the user switched the x axis.
	actionAxis = "filters/axis"
)

func (b *FilterBar) Render() goapp.UI {
	f := b.Filter
	return goapp.Div().ID("filters").Class("filters").Body(
		goapp.Span().Class("filter-types").Body(
			goapp.Range(filterTypes).Slice(func(i int) goapp.UI {
				t := filterTypes[i]
				id := "filter-" + strings.ToLower(t.String())
				return goapp.Label().For(id).Class("check").Body(
					goapp.Input().ID(id).Type("checkbox").Checked(f.Event(t)).OnChange(b.onTypeToggled(t)),
					goapp.Span().Text(" "+t.String()),
				)
			}),
		),
		goapp.Label().For("search").Body(
			goapp.Span().Text("name "),
			goapp.Input().ID("search").Type("search").Placeholder("search names ( / )").Value(f.Text).
				OnInput(b.onText(func(f *timeline.Filter, v string) { f.Text = v })),
		),
		// The rarer filters fold into a menu, so the row stays one line
		// over the timeline; its summary says how many are on.
		goapp.Details().ID("filter-more").Class("menu").Body(
			goapp.Summary().Text(moreFiltersLabel(f)),
			goapp.Div().Class("menu-items").Body(
				choice("filter-kind", "kind", f.Kind, b.Kinds, b.onText(func(f *timeline.Filter, v string) { f.Kind = v })),
				choice("filter-ns", "namespace", f.Namespace, b.Namespaces, b.onText(func(f *timeline.Filter, v string) { f.Namespace = v })),
				goapp.Label().For("filter-label").Body(
					goapp.Span().Text("labels "),
					goapp.Input().ID("filter-label").Type("text").Placeholder("app=web,tier!=db").Value(f.Label).
						OnChange(b.onText(func(f *timeline.Filter, v string) { f.Label = v })),
				),
				goapp.Label().For("filter-inview").Class("check").Title("Hide the objects with no event in the visible time range").Body(
					goapp.Input().ID("filter-inview").Type("checkbox").Checked(f.InView).OnChange(b.onInViewToggled),
					goapp.Span().Text(" only objects active in view"),
				),
			),
		),
		goapp.Button().ID("axis-switch").Text(axisLabel(b.AxisRV)).Title("Switch the x axis between time and resourceVersion").
			OnClick(func(ctx goapp.Context, e goapp.Event) { ctx.NewAction(actionAxis) }),
	)
}

// moreFiltersLabel is the summary of the menu of rarer filters: how many
// of them are on.
func moreFiltersLabel(f timeline.Filter) string {
	on := 0
	for _, set := range []bool{f.Kind != "", f.Namespace != "", f.Label != "", f.InView} {
		if set {
			on++
		}
	}
	if on == 0 {
		return "More filters"
	}
	return "More filters (" + strconv.Itoa(on) + " on)"
}

func choice(id, label, value string, options []string, onChange goapp.EventHandler) goapp.UI {
	return goapp.Label().For(id).Body(
		goapp.Span().Text(label+" "),
		goapp.Select().ID(id).OnChange(onChange).Body(
			goapp.Option().Value("").Text("all"),
			goapp.Range(options).Slice(func(i int) goapp.UI {
				return goapp.Option().Value(options[i]).Selected(options[i] == value).Title(options[i]).Text(words.ShortName(options[i]))
			}),
		),
	)
}

func axisLabel(rv bool) string {
	if rv {
		return "x: resourceVersion → time"
	}
	return "x: time → resourceVersion"
}

func (b *FilterBar) onTypeToggled(t parser.EventType) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		var shown uint32
		for _, ft := range filterTypes {
			if b.Filter.Event(ft) != (ft == t) {
				shown |= 1 << ft
			}
		}
		f := b.Filter
		f.Types = typesMask(shown)
		b.post(ctx, f)
	}
}

// typesMask turns the set of types shown into timeline.Filter.Types, where 0 means
// every type: so all shown is 0 (the default, a short URL), and none shown
// is a mask with no event type's bit.
func typesMask(shown uint32) uint32 {
	var all uint32
	for _, t := range filterTypes {
		all |= 1 << t
	}
	switch shown & all {
	case 0:
		return 1 << (parser.Listed + 1)
	case all:
		return 0
	}
	return shown & all
}

func (b *FilterBar) onText(set func(*timeline.Filter, string)) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		f := b.Filter
		set(&f, ctx.JSSrc().Get("value").String())
		b.post(ctx, f)
	}
}

func (b *FilterBar) onInViewToggled(ctx goapp.Context, e goapp.Event) {
	f := b.Filter
	f.InView = ctx.JSSrc().Get("checked").Truthy()
	b.post(ctx, f)
}

// post hands the page the filter the user chose. The bar takes it at
// once: a second change before the page renders builds on it.
func (b *FilterBar) post(ctx goapp.Context, f timeline.Filter) {
	b.Filter = f
	ctx.NewActionWithValue(actionFilter, f)
}

// onSearchKey focuses the search box on "/", as many tools do, unless the
// user is typing somewhere already.
func onSearchKey(this goapp.Value, args []goapp.Value) any {
	e := args[0]
	if e.Get("key").String() != "/" {
		return nil
	}
	if tag := strings.ToLower(goapp.Window().Get("document").Get("activeElement").Get("tagName").String()); tag == "input" || tag == "select" || tag == "textarea" {
		return nil
	}
	if box := goapp.Window().GetElementByID("search"); box.Truthy() {
		e.Call("preventDefault")
		box.Call("focus")
	}
	return nil
}
