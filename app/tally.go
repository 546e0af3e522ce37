package app

import (
	"sort"

	"watchlens/parser"
)

// tally is what the first screen shows of one capture: counts and the
// resourceVersion range, accumulated while the parser streams.
type tally struct {
	events  int
	byType  [parser.Observed + 1]int
	byKind  map[string]int
	firstRV string
	lastRV  string
}

func newTally() *tally { return &tally{byKind: map[string]int{}} }

func (t *tally) add(ev parser.Event) {
	t.events++
	if int(ev.Type) < len(t.byType) {
		t.byType[ev.Type]++
	}
	if ev.Kind != "" && ev.Type != parser.Error {
		t.byKind[ev.Kind]++
	}
	if ev.RV != "" && ev.Type != parser.Error {
		if t.firstRV == "" {
			t.firstRV = ev.RV
		}
		t.lastRV = ev.RV
	}
}

type count struct {
	name string
	n    int
}

// types lists the event types seen, in protocol order.
func (t *tally) types() []count {
	var out []count
	for typ, n := range t.byType {
		if n > 0 {
			out = append(out, count{parser.EventType(typ).String(), n})
		}
	}
	return out
}

// kinds lists the kinds seen, most frequent first.
func (t *tally) kinds() []count {
	out := make([]count, 0, len(t.byKind))
	for k, n := range t.byKind {
		out = append(out, count{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].name < out[j].name
	})
	return out
}
