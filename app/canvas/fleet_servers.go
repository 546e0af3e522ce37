package canvas

import (
	"sort"
	"strconv"
	"strings"

	"watchlens/timeline"
)

// Which API server each client of the fleet was on: the server that
// answered its latest request, as the audit logs say.

// serverStint is a client's time on one server: from the start of a
// session the server answered until the next session's start.
type serverStint struct {
	from        int64
	server, inc int // indices in Timeline.Servers and its Incarnations; -1 unknown
}

// clientStints are the stints of file f's sessions (in time order),
// those of one server and process in a row merged.
func clientStints(tl *timeline.Timeline, f int) []serverStint {
	var out []serverStint
	for _, g := range tl.Files[f].Sessions {
		srv, inc, _ := tl.ServerOf(g)
		s := serverStint{tl.Sessions[g].Start, srv, inc}
		if n := len(out); n > 0 && out[n-1].server == srv && out[n-1].inc == inc {
			continue
		}
		out = append(out, s)
	}
	return out
}

// serverAt is the server the client was on at t, -1 when none is known.
func serverAt(stints []serverStint, t int64) (server, inc int) {
	k := sort.Search(len(stints), func(i int) bool { return stints[i].from > t }) - 1
	if k < 0 {
		return -1, -1
	}
	return stints[k].server, stints[k].inc
}

// serverLine names the servers a client went to, in order: "a#1 > c#1 >
// a#2", "" when no audit log says.
func (d *FleetData) serverLine(stints []serverStint) string {
	var parts []string
	for _, s := range stints {
		if s.server >= 0 {
			parts = append(parts, d.serverName(s.server, s.inc))
		}
	}
	return strings.Join(parts, " > ")
}

// serverName names a server's process: "a#2".
func (d *FleetData) serverName(server, inc int) string {
	n := d.tl.Servers[server].Name
	if inc >= 0 {
		n += "#" + strconv.Itoa(inc+1)
	}
	return n
}

// stampedeByServer splits the clients a reconnect at t would send to a
// relist (without bookmarks, or with them) by the server each was on
// then: "a 30, b 20, c 31". "" when no client's server is known.
func (d *FleetData) stampedeByServer(t int64, with bool) string {
	if len(d.tl.Servers) == 0 {
		return ""
	}
	counts := make([]int, len(d.tl.Servers))
	unknown := 0
	for i := range d.Rows {
		spans := d.Rows[i].Without
		if with {
			spans = d.Rows[i].With
		}
		if !spanAt(spans, t) {
			continue
		}
		if srv, _ := serverAt(d.Rows[i].stints, t); srv >= 0 {
			counts[srv]++
		} else {
			unknown++
		}
	}
	var parts []string
	for k, n := range counts {
		if n > 0 {
			parts = append(parts, d.tl.Servers[k].Name+" "+strconv.Itoa(n))
		}
	}
	if unknown > 0 {
		parts = append(parts, "unknown "+strconv.Itoa(unknown))
	}
	return strings.Join(parts, ", ")
}
