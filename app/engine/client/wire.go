package client

import (
	// A browser has no zone database to read: the zone named in a
	// question is looked up in the one built in, in the worker as on
	// the page.
	_ "time/tzdata"

	"watchlens/timeline"
)

// The questions' plain data as it crosses a postMessage, shared by the
// client and the worker's host (app/engine/worker): JSON of these.

// Params are timeline.Params as they cross: a *time.Location has no
// plain form, so the zone crosses by its name (timeline.ParseZone reads
// it; "" is UTC).
type Params struct {
	timeline.Params
	ZoneName string
}

// WireParams is p as it crosses.
func WireParams(p timeline.Params) Params {
	w := Params{Params: p}
	w.Zone = nil
	if p.Zone != nil {
		w.ZoneName = p.Zone.String()
	}
	return w
}

// Read is p read back, its zone found by name.
func (p Params) Read() (timeline.Params, error) {
	out := p.Params
	out.Zone = nil
	if p.ZoneName != "" && p.ZoneName != "UTC" {
		loc, err := timeline.ParseZone(p.ZoneName)
		if err != nil {
			return out, err
		}
		out.Zone = loc
	}
	return out, nil
}

// OpenOptions are engine.Options as an open question carries them: the
// host's funcs stay on the page (Cancelled is the client's to watch, the
// progress comes back as messages), and each File says whether it was
// found in a dropped folder.
type OpenOptions struct {
	Filter    timeline.Filter
	Split     *timeline.Split
	Params    Params
	MaxEvents int
	Found     []bool
}

// Progress is one step of a load on its way, as the host posts it while
// the open question runs (engine.Options's Reading, Progress and
// Building): Kind is "read" (Read says how far, in Source, an index into
// the files) or "building" (every file is read; Name is the last one's).
type Progress struct {
	Kind   string
	Source int
	Read   timeline.ReadProgress
	Name   string
}

// Supersedes says whether a question of kind is answered only while it
// is the latest of its kind (a later one cancels it: frames, hits, finds
// as one types, loads and analyses), rather than always, in turn (a
// panel's question, whose answer the panel waits for whatever came
// after it, and a click's hit test, "pick", which the hover after it
// must not cancel).
func Supersedes(kind string) bool {
	switch kind {
	case "warm", "pick", "files", "event", "findings", "rangestats", "reconnectat", "fleet", "fleetrange", "report":
		return false
	}
	return true
}
