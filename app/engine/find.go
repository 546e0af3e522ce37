package engine

import (
	// A worker has no zone files to read: the zone the page names is
	// looked up in the database built in.
	_ "time/tzdata"

	"watchlens/timeline"
)

// Find answers at most limit matches of the search box's query
// (timeline.Timeline.Find): an object's name, a resourceVersion, an
// instant or an error's message. An instant is read, and its match
// written, in the zone named zone (an IANA name, "UTC" or "Local", as
// time.Location.String names it), the reader's choice; one the engine
// does not know reads as UTC.
func (e *Engine) Find(query string, limit int, zone string) []timeline.Match {
	loc, err := timeline.ParseZone(zone)
	if err != nil {
		loc = nil
	}
	return e.tl.Find(query, limit, loc)
}
