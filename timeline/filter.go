package timeline

import (
	"sort"
	"strings"

	"watchlens/parser"
)

// Filter says which events and lanes the timeline shows.
type Filter struct {
	Types     uint32 // mask of 1<<parser.EventType; 0 = all
	Kind      string // exact kind, "" = all
	Namespace string // exact namespace, "" = all
	Text      string // case-insensitive substring of the object name, "" = all
	Label     string // label selector as kubectl -l takes it (k=v, k!=v, k, !k, comma-joined), "" = all
	// InView keeps only the objects with an event in the visible time
	// range, so a zoom into a late stretch does not open on empty rows.
	// It depends on the range, so Lane does not apply it: the view does.
	InView bool
}

// Lane reports whether a lane passes the filter. Types is not consulted: a
// lane is an object, and hiding an object because its marks are filtered
// would make its row vanish and the others jump as types are toggled.
func (f Filter) Lane(l Lane) bool {
	if f.Kind != "" && l.Kind != f.Kind {
		return false
	}
	if f.Namespace != "" && l.Namespace != f.Namespace {
		return false
	}
	if f.Label != "" && !matchLabels(f.Label, l.Labels) {
		return false
	}
	return f.Text == "" || containsFold(l.Name, f.Text)
}

// LanesActiveIn returns whether a lane has an event in [from, to), as
// Filter.InView asks: a lane's events are in time order, so one binary
// search per lane answers.
func LanesActiveIn(tl *Timeline, from, to int64) func(lane int) bool {
	return func(lane int) bool {
		evs := tl.LaneEvents(lane)
		k := sort.Search(len(evs), func(i int) bool { return tl.Point(int(evs[i])).T >= from })
		return k < len(evs) && tl.Point(int(evs[k])).T < to
	}
}

// matchLabels reports whether labels ("k=v" pairs, comma-joined, as
// Lane has them) satisfy a selector of equality and existence
// requirements, as kubectl's -l takes them: every requirement must hold.
func matchLabels(selector, labels string) bool {
	have := map[string]string{}
	for _, kv := range strings.Split(labels, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			have[k] = v
		}
	}
	for _, req := range strings.Split(selector, ",") {
		req = strings.TrimSpace(req)
		var ok bool
		switch {
		case req == "":
			continue
		case strings.Contains(req, "!="):
			k, v, _ := strings.Cut(req, "!=")
			got, present := have[strings.TrimSpace(k)]
			ok = !present || got != strings.TrimSpace(v)
		case strings.Contains(req, "="):
			k, v, _ := strings.Cut(strings.Replace(req, "==", "=", 1), "=")
			got, present := have[strings.TrimSpace(k)]
			ok = present && got == strings.TrimSpace(v)
		case strings.HasPrefix(req, "!"):
			_, present := have[strings.TrimSpace(req[1:])]
			ok = !present
		default:
			_, ok = have[req]
		}
		if !ok {
			return false
		}
	}
	return true
}

// Event reports whether events of type typ are shown.
func (f Filter) Event(typ parser.EventType) bool {
	return f.Types == 0 || f.Types&(1<<typ) != 0
}

// containsFold is a case-insensitive strings.Contains.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
