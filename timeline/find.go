package timeline

import (
	"strconv"
	"strings"
	"time"
)

// Find: one search box for a timeline, as Perfetto's omnibox is for a
// trace. A query is read as everything it can be: a resourceVersion
// (digits, or "rv 1411"), an instant (RFC 3339, or a time of day on the
// captures' days such as 01:04:25), a client (its file's name, or its
// User-Agent), an object's name (or namespace/name), or words of an
// error's message; each match says where to move the view.

// MatchKind is what a query matched.
type MatchKind uint8

const (
	MatchRV MatchKind = iota
	MatchTime
	MatchObject
	MatchMessage
	MatchClient
)

var matchKindNames = [...]string{"rv", "time", "object", "message", "client"}

func (k MatchKind) String() string { return matchKindNames[k] }

// Match is one answer of Find.
type Match struct {
	Kind MatchKind
	T    int64 // the instant to show
	// Event is the event matched (table index), -1 for an instant or a
	// session's error; Lane the object's lane, -1 when none.
	Event, Lane int
	// File is the client's file, of a MatchClient.
	File int
	Text string
}

// Find returns at most limit matches of query, RVs and instants first.
// An instant is read, and its match written, in zone (nil for UTC), the
// reader's choice (Params.Zone), unless the query says UTC.
func (tl *Timeline) Find(query string, limit int, zone *time.Location) []Match {
	zone = zoneOr(zone)
	q := strings.TrimSpace(query)
	if q == "" || limit <= 0 {
		return nil
	}
	var out []Match
	full := func() bool { return len(out) >= limit }
	if rv, ok := queryRV(q); ok {
		for _, i := range tl.RVRange(rv, rv, limit) {
			e := tl.Event(i)
			out = append(out, Match{Kind: MatchRV, T: e.T, Event: i, Lane: e.Lane, Text: e.Type.String() + " at RV " + e.RV})
		}
		// An RV no event carries (the Y of a 410, a cursor's value): the
		// first event past it, where the head went beyond it.
		if len(out) == 0 {
			if next := tl.RVRange(rv, ^uint64(0)-2, 1); len(next) == 1 {
				e := tl.Event(next[0])
				out = append(out, Match{Kind: MatchRV, T: e.T, Event: next[0], Lane: e.Lane, Text: "the first event past RV " + strconv.FormatUint(rv, 10) + ": " + e.Type.String() + " at RV " + e.RV})
			}
		}
	}
	for _, t := range tl.Instants(q, zone) {
		if full() {
			return out
		}
		out = append(out, Match{Kind: MatchTime, T: t, Event: -1, Lane: -1, Text: FormatInstant(t, zone)})
	}
	lq := strings.ToLower(q)
	for fi := range tl.Files {
		if full() {
			return out
		}
		f := &tl.Files[fi]
		if tl.NotCapture(fi) != IsCapture {
			continue // a README or a table given with the records
		}
		name, ua := f.ShortName(), tl.UserAgent(fi)
		switch {
		case strings.Contains(strings.ToLower(f.Name), lq):
		case ua != "" && strings.Contains(strings.ToLower(ua), lq):
			name += " (" + ua + ")"
		default:
			continue
		}
		out = append(out, Match{Kind: MatchClient, T: f.Start, Event: -1, Lane: -1, File: fi, Text: name})
	}
	for l := range tl.Lanes.Len() {
		if full() {
			return out
		}
		ln := tl.Lanes.At(l)
		name := ln.Name
		if ln.Namespace != "" {
			name = ln.Namespace + "/" + ln.Name
		}
		if strings.Contains(strings.ToLower(name), lq) {
			evs := tl.LaneEvents(l)
			i := int(evs[0])
			out = append(out, Match{Kind: MatchObject, T: tl.tab.t.at(i), Event: i, Lane: l, Text: ln.Kind + " " + name})
		}
	}
	for _, i := range tl.special {
		if full() {
			return out
		}
		if st := tl.status[int(i)]; st != nil && strings.Contains(strings.ToLower(st.Message), lq) {
			out = append(out, Match{Kind: MatchMessage, T: tl.tab.t.at(int(i)), Event: int(i), Lane: -1, Text: st.Message})
		}
	}
	for _, s := range tl.Sessions {
		if full() {
			return out
		}
		if st := s.Status; st != nil && strings.Contains(strings.ToLower(st.Message), lq) {
			out = append(out, Match{Kind: MatchMessage, T: s.Start, Event: -1, Lane: -1, Text: st.Message})
		}
	}
	return out
}

// queryRV reads a resourceVersion: digits alone, or after "rv".
func queryRV(q string) (uint64, bool) {
	lq := strings.ToLower(q)
	if rest, ok := strings.CutPrefix(lq, "rv"); ok {
		lq = strings.TrimLeft(rest, " :=")
	}
	v, err := strconv.ParseUint(lq, 10, 64)
	return v, err == nil
}

// Instants reads an instant as the page and the report print it or
// a user types it (the page's find, analyze's -resume-at), in zone unless it says UTC (or Z): RFC 3339
// (2026-11-30T01:04:25Z, or with a space for the T, or without the
// zone), a day and a time ("Nov 30 01:04:25 UTC"), or a time of day on
// each day the captures span (01:04:25, 01:04). The zone's own name
// after it ("CET", as the page writes its instants) is read as zone. A
// day without its year, or a time of day, is kept when it falls inside
// the shared clock.
func (tl *Timeline) Instants(q string, zone *time.Location) []int64 {
	if t, err := time.Parse(time.RFC3339Nano, q); err == nil {
		return []int64{t.UnixNano()}
	}
	if rest, ok := cutZoneName(q); ok {
		q = rest
	} else if rest, ok := strings.CutSuffix(q, "UTC"); ok {
		q, zone = rest, time.UTC
	} else if rest, ok := strings.CutSuffix(q, "Z"); ok {
		q, zone = rest, time.UTC
	}
	q = strings.TrimSpace(q)
	// When parsing, Go takes a fraction of a second after the seconds
	// whether or not the layout shows one.
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, q, zone); err == nil {
			return []int64{t.UnixNano()}
		}
	}
	if len(tl.Files) == 0 {
		return nil
	}
	start, end := tl.Start(), tl.End()
	inside := func(t time.Time) bool { return t.UnixNano() >= start && t.UnixNano() <= end }
	var out []int64
	for _, layout := range []string{"Jan 2 15:04:05", "Jan 2 15:04"} {
		t, err := time.ParseInLocation(layout, q, zone)
		if err != nil {
			continue
		}
		for y := time.Unix(0, start).In(zone).Year(); y <= time.Unix(0, end).In(zone).Year(); y++ {
			if at := t.AddDate(y-t.Year(), 0, 0); inside(at) {
				out = append(out, at.UnixNano())
			}
		}
		return out
	}
	var clock time.Time
	var err error
	for _, layout := range []string{"15:04:05", "15:04"} {
		if clock, err = time.Parse(layout, q); err == nil {
			break
		}
	}
	if err != nil {
		return nil
	}
	// Each day of the zone's calendar the captures span, from the one
	// before the first (an instant early in the zone's day may be late
	// on its day before in UTC).
	first := time.Unix(0, start).In(zone)
	day := time.Date(first.Year(), first.Month(), first.Day()-1, 0, 0, 0, 0, zone)
	for ; day.UnixNano() <= end; day = day.AddDate(0, 0, 1) {
		at := time.Date(day.Year(), day.Month(), day.Day(), clock.Hour(), clock.Minute(), clock.Second(), clock.Nanosecond(), zone)
		if inside(at) {
			out = append(out, at.UnixNano())
		}
	}
	return out
}

// cutZoneName cuts a zone's name off the end of a typed instant, as
// FormatInstant writes it in a zone other than UTC ("CET", "+0530"),
// and says whether there was one.
func cutZoneName(q string) (string, bool) {
	i := strings.LastIndexByte(q, ' ')
	if i < 0 {
		return q, false
	}
	name := q[i+1:]
	if name == "UTC" || name == "" {
		return q, false
	}
	for _, r := range name {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-') {
			return q, false
		}
	}
	// A name has a letter or a sign: a time of day alone has neither.
	if !strings.ContainsAny(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ+-") {
		return q, false
	}
	return q[:i], true
}
