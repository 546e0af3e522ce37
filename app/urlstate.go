package app

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"watchlens/parser"
	"watchlens/timeline"
)

// viewState is everything a copied link has to reopen: the source, the
// retention model, the visible range, the filters and the selection. Only
// what differs from the defaults goes into the URL, so links stay short.
type viewState struct {
	sample string // a built-in sample's name
	url    string // a capture the browser fetches (?url=)
	// files names the files dropped or chosen, which a link cannot
	// carry: it opens a page asking for them (Page.renderRestore).
	// filesDigest stands for them when a link had too many to name
	// (files_digest.go): files is then nil until they are dropped.
	files       []string
	filesDigest string
	// split, when set, splits each capture read into virtual clients
	// (?split=, as the CLI's --split-by: nodeName, namespace, label=KEY,
	// field=PATH).
	split    string
	params   timeline.Params
	from, to int64 // visible range on the axis; both 0 for the whole capture
	axisRV   bool
	filter   timeline.Filter
	selected int // event index, -1 for none
	// fold and pin are the files whose groups of tracks are folded and
	// pinned to the top (see file_groups.go); "" is the default.
	fold, pin string
	// reconnectAt is the instant marked to reconnect at (Unix ns), 0
	// for none (see reconnect_at.go).
	reconnectAt int64
	// fleet says the fleet view is shown rather than the timeline
	// (?view=fleet).
	fleet bool
}

func defaultViewState() viewState {
	return viewState{params: timeline.DefaultParams(), selected: -1}
}

func (v viewState) query() url.Values {
	q := url.Values{}
	set := func(key, value string) {
		if value != "" {
			q.Set(key, value)
		}
	}
	set("sample", v.sample)
	set("url", v.url)
	set("split", v.split)
	if v.sample == "" && v.url == "" {
		switch {
		case len(v.files) > maxNamedFiles:
			set("files", filesDigestOf(v.files))
		case len(v.files) > 0:
			q["file"] = v.files
		default:
			set("files", v.filesDigest)
		}
	}
	def := timeline.DefaultParams()
	p := v.params
	if p.CacheWindow != def.CacheWindow {
		set("w", seconds(p.CacheWindow))
	}
	if p.CacheCount != def.CacheCount {
		set("n", strconv.Itoa(p.CacheCount))
	}
	if p.EtcdInterval != def.EtcdInterval {
		set("etcd", seconds(p.EtcdInterval))
	}
	if p.Delay != def.Delay {
		set("delay", seconds(p.Delay))
	}
	if !p.WatchCache {
		set("cache", "off")
	}
	if len(p.Restarts) > 0 {
		set("restarts", strings.ReplaceAll(restartsText(p.Restarts), " ", ""))
	}
	if p.Servers != def.Servers {
		set("servers", strconv.Itoa(p.Servers))
	}
	set("tz", zoneName(p.Zone))
	if v.from != 0 || v.to != 0 {
		set("from", strconv.FormatInt(v.from, 10))
		set("to", strconv.FormatInt(v.to, 10))
	}
	if v.axisRV {
		set("axis", "rv")
	}
	if v.filter.Types != 0 {
		names := []string{}
		for _, t := range filterTypes {
			if v.filter.Event(t) {
				names = append(names, strings.ToLower(t.String()))
			}
		}
		if len(names) == 0 {
			names = append(names, "none")
		}
		set("types", strings.Join(names, ","))
	}
	set("kind", v.filter.Kind)
	set("ns", v.filter.Namespace)
	set("q", v.filter.Text)
	set("l", v.filter.Label)
	if v.filter.InView {
		set("inview", "1")
	}
	if v.selected >= 0 {
		set("sel", strconv.Itoa(v.selected))
	}
	set("fold", v.fold)
	set("pin", v.pin)
	if v.reconnectAt != 0 {
		set("at", strconv.FormatInt(v.reconnectAt, 10))
	}
	if v.fleet {
		set("view", "fleet")
	}
	return q
}

// parseViewState reads a link's query. A malformed value keeps its default:
// a hand-edited link should open something rather than nothing.
func parseViewState(q url.Values) viewState {
	v := defaultViewState()
	v.sample = q.Get("sample")
	v.url = q.Get("url")
	if v.sample == "" && v.url == "" {
		v.files = q["file"]
		if _, ok := filesDigestCount(q.Get("files")); ok && len(v.files) == 0 {
			v.filesDigest = q.Get("files")
		}
	}
	if _, err := timeline.ParseSplit(q.Get("split")); err == nil {
		v.split = q.Get("split")
	}
	if d, ok := parseSeconds(q.Get("w")); ok {
		v.params.CacheWindow = d
	}
	if n, err := strconv.Atoi(q.Get("n")); err == nil && n >= 0 {
		v.params.CacheCount = n
	}
	if d, ok := parseSeconds(q.Get("etcd")); ok {
		v.params.EtcdInterval = d
	}
	if d, ok := parseSeconds(q.Get("delay")); ok {
		v.params.Delay = d
	}
	if q.Get("cache") == "off" {
		v.params.WatchCache = false
	}
	if r, err := parseRestarts(q.Get("restarts")); err == nil {
		v.params.Restarts = r
	}
	if n, err := strconv.Atoi(q.Get("servers")); err == nil && n >= 1 {
		v.params.Servers = n
	}
	v.params.Zone = parseZoneName(q.Get("tz"))
	from, errFrom := strconv.ParseInt(q.Get("from"), 10, 64)
	to, errTo := strconv.ParseInt(q.Get("to"), 10, 64)
	if errFrom == nil && errTo == nil && from < to {
		v.from, v.to = from, to
	}
	v.axisRV = q.Get("axis") == "rv"
	if types := q.Get("types"); types != "" {
		v.filter.Types = parseTypes(types)
	}
	v.filter.Kind = q.Get("kind")
	v.filter.Namespace = q.Get("ns")
	v.filter.Text = q.Get("q")
	v.filter.Label = q.Get("l")
	v.filter.InView = q.Get("inview") == "1"
	if sel, err := strconv.Atoi(q.Get("sel")); err == nil && sel >= 0 {
		v.selected = sel
	}
	if f := q.Get("fold"); validFold(f) {
		v.fold = f
	}
	if p := q.Get("pin"); validPin(p) {
		v.pin = p
	}
	if at, err := strconv.ParseInt(q.Get("at"), 10, 64); err == nil {
		v.reconnectAt = at
	}
	v.fleet = q.Get("view") == "fleet"
	return v
}

func seconds(d time.Duration) string { return formatNumber(d.Seconds()) }

func parseSeconds(s string) (time.Duration, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return time.Duration(v * float64(time.Second)), true
}

// parseTypes reads the types list of a link.
func parseTypes(list string) uint32 {
	var mask uint32
	for _, name := range strings.Split(list, ",") {
		if t := parser.ParseEventType(strings.ToUpper(name)); t != parser.TypeUnknown {
			mask |= 1 << t
		}
	}
	return typesMask(mask)
}
