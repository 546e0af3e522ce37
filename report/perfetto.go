package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"watchlens/parser"
	"watchlens/timeline"
)

// Perfetto's Chrome JSON trace format (the Trace Event Format: an object
// with a traceEvents list), which Perfetto UI and chrome://tracing open,
// so watch traffic can sit beside a cluster's other traces:
//   - a process per capture file;
//   - a thread per watch session, carrying the session as a slice and its
//     events, bookmarks and errors as instants (object, type and RV as
//     args, not a track per object);
//   - the head and each cursor as counters of their resourceVersion;
//   - the zones as slices on a thread per cursor, outcome and model, so
//     that the slices of one thread never overlap.
// Times are microseconds since the Unix epoch, as the captures recorded
// them, so that other traces of the same moments line up.

// traceEvent is one entry of traceEvents. Fields follow the format's
// names; empty ones are left out.
type traceEvent struct {
	Name  string         `json:"name"`
	Cat   string         `json:"cat,omitempty"`
	Phase string         `json:"ph"`
	TS    float64        `json:"ts"`
	Dur   *float64       `json:"dur,omitempty"`
	PID   int            `json:"pid"`
	TID   int            `json:"tid"`
	Scope string         `json:"s,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
}

type trace struct {
	TraceEvents     []traceEvent `json:"traceEvents"`
	DisplayTimeUnit string       `json:"displayTimeUnit"`
}

func micros(t int64) float64 { return float64(t) / 1e3 }

// Thread numbers: sessions count from sessionTID, the zone threads from
// zoneTID, in each file's process.
const (
	sessionTID = 1
	zoneTID    = 100000
)

// WritePerfetto writes the analysis as a trace Perfetto UI opens. A
// capture without a clock is written on its ordinals, as nanoseconds.
func WritePerfetto(w io.Writer, a *timeline.Analysis) error {
	tl := a.TL
	tr := trace{DisplayTimeUnit: "ms"}
	add := func(e traceEvent) { tr.TraceEvents = append(tr.TraceEvents, e) }
	meta := func(name string, pid, tid int, value string) {
		add(traceEvent{Name: name, Phase: "M", PID: pid, TID: tid, Args: map[string]any{"name": value}})
	}
	pidOf := func(file int) int { return file + 1 }
	for fi, f := range tl.Files {
		meta("process_name", pidOf(fi), 0, f.Name)
		for _, g := range f.Sessions {
			s := &tl.Sessions[g]
			tid := sessionTID + s.Index
			meta("thread_name", pidOf(fi), tid, fmt.Sprintf("session %d", s.Index))
			dur := micros(s.End - s.Start)
			args := map[string]any{"endReason": s.EndReason.String(), "events": s.Events, "bookmarks": s.Bookmarks}
			if q := s.Request; q != nil {
				args["resourceVersion"], args["allowWatchBookmarks"] = q.ResourceVersion, q.AllowWatchBookmarks
			}
			add(traceEvent{Name: "watch", Cat: "session", Phase: "X", TS: micros(s.Start), Dur: &dur, PID: pidOf(fi), TID: tid, Args: args})
		}
	}
	for i := 0; i < tl.Len(); i++ {
		e := tl.Event(i)
		s := &tl.Sessions[e.Session]
		args := map[string]any{"type": e.Type.String(), "rv": e.RV}
		name := e.Type.String()
		switch {
		case e.Lane >= 0:
			l := tl.Lanes.At(e.Lane)
			obj := l.Name
			if l.Namespace != "" {
				obj = l.Namespace + "/" + l.Name
			}
			args["object"], args["kind"] = obj, l.Kind
			name += " " + l.Kind + " " + obj
		case e.Type == parser.Error && e.Status != nil:
			args["code"], args["message"] = e.Status.Code, e.Status.Message
			name += " " + e.Status.Message
		}
		add(traceEvent{Name: name, Cat: "event", Phase: "i", Scope: "t", TS: micros(e.T), PID: pidOf(e.File), TID: sessionTID + s.Index, Args: args})
	}
	counter := func(pid int, name string, st *timeline.Steps) {
		for k := 0; k < st.Len(); k++ {
			if t, rv, ok := st.Known(k); ok {
				add(traceEvent{Name: name, Phase: "C", TS: micros(t), PID: pid, Args: map[string]any{"rv": float64(rv)}})
			}
		}
	}
	for fi := range tl.Files {
		counter(pidOf(fi), "head", tl.HeadSteps())
		for _, k := range timeline.CursorKinds {
			counter(pidOf(fi), "cursor "+k.String(), &tl.Cursors[2*fi+int(k)].Steps)
		}
		if cf := &a.HadBookmarks[fi]; cf.Synthetic {
			counter(pidOf(fi), "cursor "+timeline.HadBookmarks.String(), &cf.Steps)
		}
	}
	zoneThreads(&tr, a)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(tr)
}

// zoneThreads adds the zones: one thread per file, cursor, outcome and
// model, whose slices cannot overlap (a cursor pass grows at most one
// zone per model at a time).
func zoneThreads(tr *trace, a *timeline.Analysis) {
	type threadKey struct {
		file    int
		cursor  timeline.CursorKind
		outcome string
		model   timeline.Model
	}
	tids := map[threadKey]int{}
	var keys []threadKey
	var events []traceEvent
	for _, layer := range []struct {
		outcome string
		zones   []timeline.Zone
	}{{"refused", a.Zones}, {"at-risk", a.RiskZones}} {
		for _, z := range layer.zones {
			k := threadKey{z.File, z.Kind, layer.outcome, z.Model}
			tid, ok := tids[k]
			if !ok {
				tid = zoneTID + len(tids)
				tids[k] = tid
				keys = append(keys, k)
			}
			dur := micros(z.To - z.From)
			events = append(events, traceEvent{Name: layer.outcome + " (" + z.Model.String() + ")", Cat: "zone", Phase: "X", TS: micros(z.From), Dur: &dur,
				PID: z.File + 1, TID: tid, Args: map[string]any{"reason": a.ZoneReason(z), "fromRV": float64(z.FromRV), "toRV": float64(z.ToRV)}})
		}
	}
	sort.SliceStable(keys, func(i, j int) bool { return tids[keys[i]] < tids[keys[j]] })
	for _, k := range keys {
		tr.TraceEvents = append(tr.TraceEvents, traceEvent{Name: "thread_name", Phase: "M", PID: k.file + 1, TID: tids[k],
			Args: map[string]any{"name": fmt.Sprintf("410 %s · %s · %s", k.outcome, k.cursor, k.model)}})
	}
	tr.TraceEvents = append(tr.TraceEvents, events...)
}
