package app

import (
	"time"
	// The browser has no zone database of its own to read: the reader's
	// zone, named by the browser, is looked up in the one built in.
	_ "time/tzdata"

	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The zone the page writes absolute times in is the retention model's
// Params.Zone: UTC by default, or the reader's own zone from the
// settings (or a link's tz=). The analysis writes its sentences in it,
// the canvas its axes, and the panels write theirs in the zone the page
// asked the analysis with (analysis.zone), so one setting moves every
// time on the page.

// zoneLocal is the settings' and a link's name for the reader's zone.
const zoneLocal = "local"

// readerZone is the zone of the browser's reader, by its IANA name, so
// that a capture across a change of summer time is written right; Go's
// own local zone in a browser is a fixed offset ("UTC+1").
func readerZone() *time.Location {
	intl := goapp.Window().Get("Intl")
	if intl.Truthy() {
		name := intl.Get("DateTimeFormat").Invoke().Call("resolvedOptions").Get("timeZone")
		if name.Truthy() {
			if loc, err := time.LoadLocation(name.String()); err == nil {
				return loc
			}
		}
	}
	return time.Local
}

// zoneName is a zone as the settings and a link name it: "" for UTC,
// "local" for the reader's zone, else its IANA name.
func zoneName(loc *time.Location) string {
	switch {
	case loc == nil || loc == time.UTC:
		return ""
	case loc.String() == readerZone().String():
		return zoneLocal
	}
	return loc.String()
}

// parseZoneName reads zoneName's form; nil (UTC) for what it cannot read.
func parseZoneName(name string) *time.Location {
	if name == zoneLocal {
		return readerZone()
	}
	loc, err := timeline.ParseZone(name)
	if err != nil || loc == time.UTC {
		return nil
	}
	return loc
}

// zoneIn is the zone params write times in: UTC without one.
func zoneIn(p timeline.Params) *time.Location {
	if p.Zone == nil {
		return time.UTC
	}
	return p.Zone
}
