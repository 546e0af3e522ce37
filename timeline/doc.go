// Package timeline models recorded Kubernetes watch captures on one clock
// and answers where a reconnecting client would have got 410 Gone.
//
// Data flows file -> parser -> timeline -> app; this package knows nothing
// of the UI. Build a Timeline from one or more captures (several files
// share one clock), then Analyze it with window-model parameters:
//
//	b := timeline.NewBuilder()
//	err := b.AddReader(name, r, parser.Options{}) // or AddCapture, or AddFile + Add + Finish
//	tl := b.Build()
//	a := tl.Analyze(timeline.DefaultParams())     // cheap: rerun when a parameter changes
//	v := a.Verdict(file, timeline.BookmarkAware, t, delay)
//
// What the Timeline holds (parameter-free):
//   - Files and Sessions: one Session per watch connection, with its
//     request, start and end (instant and byte offset), how it ended and
//     the reconnect gap before it.
//   - Lanes: one per object (uid, else namespace/name) per file; a DELETED
//     closes a lane, a re-created object opens a new one. A table of
//     16-byte records with names and uids in shared blocks (lanes.go);
//     Lanes.At(i) reads one.
//   - Events in time order in a packed chunked table (a few bytes per
//     event, plus 4 for the lane index; see store.go); Event(i) decodes
//     one.
//   - Cursors: the bookmark-aware and bookmark-ignoring cursor of each
//     file as step series (Steps: T(k), RV(k)), stored as event indices.
//   - Head: the highest RV known to exist at each instant, from every
//     file's events and bookmarks and every `too old resource version`.
//   - Anomalies.
//
// What an Analysis adds: red Zones per cursor and window model, Gaps, the
// cursors' ages, observed Resumes checked against the models, and the
// bookmarks WhatIf. The window models and their sources in
// watch-protocol.md are documented on Model in models.go; how instants are
// estimated without arrival times is in clock.go.
//
// Drawing: TimeRange and RVRange find events, LaneEvents and Specials
// list a lane's events and the bookmarks and errors (LaneSpan its first
// and last instants), Cursor.Range and HeadRange the steps in a window,
// Steps.Descents where a step line goes down, and Bins counts events per
// lane and pixel column for any zoom: its totals cost a few searches a
// column, its rows the events of the lanes in view, not every event
// (docs/performance.md, "Bins").
//
// The report (package report) is written from this package's public API.
package timeline
