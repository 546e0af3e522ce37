package canvas

import (
	"sort"
	"strconv"
	"strings"

	"watchlens/internal/quantity"
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

// serverName names a server's process: "a#2"; the server alone when
// its process is not known.
func (d *FleetData) serverName(server, inc int) string {
	n := d.tl.Servers[server].Name
	if inc < 0 {
		return n
	}
	return timeline.ProcessName(n, inc)
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

// FleetGroup is a run of the fleet's rows whose clients were on one
// server longest: Server indexes Timeline.Servers, -1 for the clients
// no audit log places.
type FleetGroup struct {
	Server, First, Rows int
}

// longestServer is the server the client of a row was on longest, -1
// when no audit log says.
func (d *FleetData) longestServer(r int) int {
	st := d.Rows[r].stints
	if len(st) == 0 {
		return -1
	}
	on := make([]int64, len(d.tl.Servers))
	end := d.tl.Files[d.Rows[r].Client.File].End
	for k, s := range st {
		to := end
		if k+1 < len(st) {
			to = st[k+1].from
		}
		if s.server >= 0 {
			on[s.server] += max(to-s.from, 1)
		}
	}
	best := -1
	for k, d := range on {
		if d > 0 && (best < 0 || d > on[best]) {
			best = k
		}
	}
	return best
}

// groupByServer orders the rows by the server each client was on
// longest, in the servers' order, the clients no audit log places last;
// within a group the rows keep the model's order, riskiest first. It
// does nothing when no audit log names a server.
func (d *FleetData) groupByServer() {
	if len(d.tl.Servers) == 0 {
		return
	}
	key := make(map[*timeline.FleetClient]int, len(d.Rows))
	for r := range d.Rows {
		k := d.longestServer(r)
		if k < 0 {
			k = len(d.tl.Servers)
		}
		key[d.Rows[r].Client] = k
	}
	sort.SliceStable(d.Rows, func(i, j int) bool { return key[d.Rows[i].Client] < key[d.Rows[j].Client] })
	for r := range d.Rows {
		k := key[d.Rows[r].Client]
		if k == len(d.tl.Servers) {
			k = -1
		}
		if n := len(d.Groups); n > 0 && d.Groups[n-1].Server == k {
			d.Groups[n-1].Rows++
			continue
		}
		d.Groups = append(d.Groups, FleetGroup{Server: k, First: r, Rows: 1})
	}
	// Each relist, by the server that answered it.
	d.serverRelists = make([][]int64, len(d.tl.Servers)+1)
	for r := range d.Rows {
		for _, rl := range d.Rows[r].Client.Relists {
			k, _, ok := d.tl.ServerOf(rl.Session)
			if !ok {
				k = len(d.tl.Servers)
			}
			d.serverRelists[k] = append(d.serverRelists[k], rl.T)
		}
	}
	for _, ts := range d.serverRelists {
		sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	}
}

// serverColors are the servers' colours in the stampede per server, in
// their order (the last for relists no audit log places).
var serverColors = [...]string{ColorAware, ColorModified, ColorIgnoring, ColorAdded, ColorDeleted, ColorBookmark}

// serverColor is server k's colour (k = len(Servers): not known).
func (d *FleetData) serverColor(k int) string {
	if k >= len(d.tl.Servers) {
		return ColorMuted
	}
	return serverColors[k%len(serverColors)]
}

// drawServerHistogram draws the relists seen per interval of fleetBinPx
// pixels, stacked by the server that answered each: the stampede per
// server. The servers' names, in their colours, head the band, each on a
// box of the page's background, as the restarts' names over the curves
// are: a restart's dashed line, or a grid line, crosses the band there.
// The bars stop under the boxes.
func (d *FleetData) drawServerHistogram(l *FleetLayout, s Scale, fr *Frame, buf *FleetScratch) {
	top := d.binRelists(l, s, buf)
	if top == 0 {
		return
	}
	n := len(buf.bins)
	y0, h := l.HistY+fleetHistH-2, fleetHistH-16
	// Each server's bars stand on the ones before it: base is the
	// relists of the servers before, per bin.
	base := make([]int32, n)
	t0 := len(fr.Texts)
	x := l.PlotX + 4
	// "answered by a: 39", or "a 39" where those do not fit side by side.
	long := d.serverLabelsWidth(true) <= l.PlotW-8
	for k, ts := range d.serverRelists {
		buf.rects = buf.rects[:0]
		for _, t := range ts[sort.Search(len(ts), func(i int) bool { return ts[i] >= s.From }):] {
			if t >= s.To {
				break
			}
			b := min(int((s.X(t)-l.PlotX)/fleetBinPx), n-1)
			yb := y0 - float64(base[b])*h/float64(top)
			base[b]++
			yt := y0 - float64(base[b])*h/float64(top)
			buf.rects = append(buf.rects, float32(l.PlotX+float64(b)*fleetBinPx), float32(yt), float32(fleetBinPx-1), float32(max(yb-yt, 1)))
		}
		fr.add(Op{Kind: "rect", Color: d.serverColor(k)}, buf.rects)
		if label := d.serverLabel(k, long); label != "" {
			if w := serverLabelW(label); x+w <= l.PlotX+l.PlotW {
				fr.addText(x, l.HistY+7, label, d.serverColor(k), "l", "b")
				fr.Texts[len(fr.Texts)-1].Box = ColorBg
				x += w + 12
			}
		}
	}
	fr.addText(l.PlotX-4, y0-h, strconv.Itoa(int(top)), ColorMuted, "r", "")
	fr.flushTexts(t0)
}

// serverLabel names server k (len(Servers): not known) and the relists
// it answered over the histogram, "" for none: "answered by a: 39", or
// short "a 39". "server a 39" read as the relists a's restart caused.
func (d *FleetData) serverLabel(k int, long bool) string {
	ts := d.serverRelists[k]
	if len(ts) == 0 {
		return ""
	}
	name := "not known"
	if k < len(d.tl.Servers) {
		name = d.tl.Servers[k].Name
	}
	if long {
		if k < len(d.tl.Servers) {
			return "answered by " + name + ": " + strconv.Itoa(len(ts))
		}
		return "answered by a server not known: " + strconv.Itoa(len(ts))
	}
	return name + " " + strconv.Itoa(len(ts))
}

// serverLabelW is the room a label over the histogram takes: 8 px a
// character of its bold 11 px font, at most.
func serverLabelW(label string) float64 { return 8 * float64(len(label)) }

// serverLabelsWidth is the room the labels over the histogram take
// side by side, long or short.
func (d *FleetData) serverLabelsWidth(long bool) float64 {
	w := 0.0
	for k := range d.serverRelists {
		if label := d.serverLabel(k, long); label != "" {
			w += serverLabelW(label) + 12
		}
	}
	return w
}

// relistsByServer splits the relists seen in [from, to) by the server
// that answered each: "a 3, c 1". "" when no audit log names a server.
func (d *FleetData) relistsByServer(from, to int64) string {
	var parts []string
	for k, ts := range d.serverRelists {
		if n := countIn(ts, from, to); n > 0 {
			name := "not known"
			if k < len(d.tl.Servers) {
				name = d.tl.Servers[k].Name
			}
			parts = append(parts, name+" "+strconv.Itoa(n))
		}
	}
	return strings.Join(parts, ", ")
}

// longestOn names the group of the clients on server k longest, as its
// header and its hover say it.
func (d *FleetData) longestOn(k int) string {
	return "on API server " + d.tl.Servers[k].Name + " longest"
}

// drawGroups draws the headers in view: each in the slot the layout
// keeps above its group's first row, a rule at its top, a tint of the
// server's colour, and the server's name with its count of clients.
func (d *FleetData) drawGroups(v *FleetViewport, l *FleetLayout, fr *Frame) {
	var rules []float32
	fr.clip(0, l.RowsY, l.Width, l.RowsH)
	t0 := len(fr.Texts)
	for i, g := range l.Groups {
		y := l.HeadY(i, v.ScrollY)
		if y+FleetRowH <= l.RowsY || y >= l.RowsY+l.RowsH {
			continue
		}
		k := g.Server
		name := "clients no audit log places"
		if k >= 0 {
			name = d.longestOn(k)
		} else {
			k = len(d.tl.Servers)
		}
		fr.rect(d.serverColor(k), 0.12, 0, y, l.Width, FleetRowH)
		rules = append(rules, 0, float32(y)+0.5, float32(l.Width), float32(y)+0.5)
		fr.addText(6, y+FleetRowH/2, name+": "+quantity.Plural(g.Rows, "client"), d.serverColor(k), "l", "b")
	}
	fr.add(Op{Kind: "seg", Color: ColorFg, Size: 1}, rules)
	fr.flushTexts(t0)
	fr.unclip()
}
