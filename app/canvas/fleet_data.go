package canvas

import (
	"sort"
	"time"

	"watchlens/timeline"
)

// FleetData is what the fleet view draws, worked out once per analysis:
// per client, the spans where a reconnect would be refused with and
// without bookmarks and the instants of its relists; for the fleet, every
// relist's instant and the curves' peaks. A frame then only looks up what
// lies in view, for the rows in view, so that ten thousand clients draw
// as fast as ten.
type FleetData struct {
	Fleet *timeline.Fleet
	zone  *time.Location // where times are written: the analysis's
	Rows  []FleetRow     // Fleet.Clients' order: riskiest first
	// From and To are the shared clock's extent, with a margin.
	From, To int64
	// clockStart and clockEnd are the shared clock's first and last
	// instants: the curves and the hover's counts stop at them, as the
	// zones do, and the margins past them say that nothing was recorded.
	clockStart, clockEnd int64
	// Restarts are the API server restarts the captures show, Outages
	// the stretches when no request of the captured clients reached a
	// server.
	Restarts []timeline.DetectedRestart
	Outages  []timeline.Outage
	// MaxWith and MaxWithout are the curves' peaks: the most clients a
	// reconnect would have sent to a relist at once.
	MaxWith, MaxWithout int
	// MaxAtRiskWith and MaxAtRiskWithout are the at-risk curves' peaks:
	// the most clients at once the evidence cannot say are accepted.
	MaxAtRiskWith, MaxAtRiskWithout int
	relists                         []int64 // every client's relists, sorted
	// Groups are the rows' runs by the server their clients were on
	// longest, when audit logs name the servers (see groupByServer);
	// serverRelists each server's relists, sorted, the last those no
	// audit log places.
	Groups        []FleetGroup
	serverRelists [][]int64
	tl            *timeline.Timeline
}

// FleetRow is one client's row.
type FleetRow struct {
	Client *timeline.FleetClient
	// Label names the client in the gutter: its name, or for a virtual
	// client of a split capture its selector, which is what tells it
	// from the others (their names share the capture's).
	Label string
	// Short is the end of Label that tells the row from the others whose
	// names start the same, drawn when Label does not fit the gutter
	// (see shortenLabels); "" when the label's start tells it apart.
	Short string
	// labelRunes and shortRunes are the letters of the label and of its
	// Short as the gutter draws them (with the mark of a client that did
	// not ask for bookmarks), 0 for no Short: what the gutter's width is
	// sized by (namesRoom).
	labelRunes, shortRunes int
	// With and Without are the sorted, disjoint [from, to) spans where a
	// reconnect of the client would be refused: with bookmarks, and
	// without them. One of them is the cursor the client had (Own), the
	// other the models' answer for the one it did not (Other).
	With, Without [][2]int64
	Relists       []int64 // sorted
	// Reads are the instants of a client that never synced reading its
	// whole selection, each of its WatchList requests (timeline
	// UnsyncedClients): what a relist costs, with no sync before it to
	// list again after. Sorted; none for a client that synced.
	Reads []int64
	// Servers names the API servers, and their processes, that
	// answered the client, in order, as timeline.PathWords writes
	// timeline.ServerPath: "a#1 → c#1 → a#2"; "" when no audit log says.
	Servers string
	// MayMix says the audit log alone cannot tell the client from
	// another informer: its requests may be partly the other's
	// (timeline.File.MayMix). Its label carries MayMixMark.
	MayMix bool
	stints []serverStint
}

// MayMixMark marks the label of a row that may mix two clients.
const MayMixMark = "⚠ "

// mayMixWords explains the mark, on hover.
const mayMixWords = MayMixMark + "the audit log alone cannot tell this client from another informer of the same User-Agent, user, address and selector: from some request on, its requests may be the other's (the client's own log, given with the audit logs, tells them apart)"

// Own is the refused spans of the cursor the client had.
func (r *FleetRow) Own() [][2]int64 {
	if r.Client.Bookmarks {
		return r.With
	}
	return r.Without
}

// Other is the refused spans of the cursor the client did not have.
func (r *FleetRow) Other() [][2]int64 {
	if r.Client.Bookmarks {
		return r.Without
	}
	return r.With
}

// NewFleetData prepares the fleet of an analysis; nil when it has none
// (fewer than two clients).
func NewFleetData(a *timeline.Analysis) *FleetData {
	fl := a.Fleet()
	if fl == nil {
		return nil
	}
	tl := a.TL
	start, end := tl.Start(), tl.End()+1
	m := max((end-start)/50, int64(time.Second))
	d := &FleetData{Fleet: fl, Rows: make([]FleetRow, len(fl.Clients)), From: start - m, To: end + m, clockStart: tl.Start(), clockEnd: tl.End(), Restarts: a.Restarts, Outages: tl.Outages(), tl: tl, zone: a.Params.Zone}
	for i := range fl.Clients {
		c := &fl.Clients[i]
		d.Rows[i].Client, d.Rows[i].Label = c, c.Name
		f := &tl.Files[c.File]
		if f.SplitKey != "" && c.Name == f.Name {
			d.Rows[i].Label = f.SplitKey
		}
		if d.Rows[i].MayMix = f.MayMix(); d.Rows[i].MayMix {
			d.Rows[i].Label = MayMixMark + d.Rows[i].Label
		}
		// The model's spans, as its stampede counts them (see
		// timeline.FleetClient).
		d.Rows[i].With, d.Rows[i].Without = c.RefusedWith, c.RefusedWithout
		d.Rows[i].stints = clientStints(tl, c.File)
		d.Rows[i].Servers = timeline.PathWords(tl.ServerPath(c.File))
		for _, r := range c.Relists {
			d.Rows[i].Relists = append(d.Rows[i].Relists, r.T)
			d.relists = append(d.relists, r.T)
		}
		sort.Slice(d.Rows[i].Relists, func(x, y int) bool { return d.Rows[i].Relists[x] < d.Rows[i].Relists[y] })
	}
	unsynced := map[int]int{} // file: row
	for i := range d.Rows {
		if c := d.Rows[i].Client; c.NeverSynced {
			unsynced[c.File] = i
		}
	}
	for _, w := range tl.WatchLists {
		if i, ok := unsynced[w.File]; ok {
			d.Rows[i].Reads = append(d.Rows[i].Reads, w.T)
		}
	}
	for _, i := range unsynced {
		sort.Slice(d.Rows[i].Reads, func(x, y int) bool { return d.Rows[i].Reads[x] < d.Rows[i].Reads[y] })
	}
	shortenLabels(d.Rows)
	for i := range d.Rows {
		d.Rows[i].countRunes()
	}
	sort.Slice(d.relists, func(x, y int) bool { return d.relists[x] < d.relists[y] })
	d.groupByServer()
	for _, s := range fl.Steps {
		d.MaxWith, d.MaxWithout = max(d.MaxWith, s.With), max(d.MaxWithout, s.Without)
		d.MaxAtRiskWith, d.MaxAtRiskWithout = max(d.MaxAtRiskWith, s.AtRiskWith), max(d.MaxAtRiskWithout, s.AtRiskWithout)
	}
	return d
}

// StepAt is the stampede at instant t: how many clients a reconnect then
// would send to a relist, with and without bookmarks.
func (d *FleetData) StepAt(t int64) timeline.FleetStep {
	st := d.Fleet.Steps
	k := sort.Search(len(st), func(i int) bool { return st[i].T > t }) - 1
	if k < 0 {
		return timeline.FleetStep{T: t}
	}
	return st[k]
}

// RelistsIn counts the relists in [from, to).
func (d *FleetData) RelistsIn(from, to int64) int {
	return countIn(d.relists, from, to)
}

// spanAt says whether t lies in one of the sorted, disjoint spans.
func spanAt(spans [][2]int64, t int64) bool {
	k := sort.Search(len(spans), func(i int) bool { return spans[i][1] > t })
	return k < len(spans) && spans[k][0] <= t
}

// overlaps says whether one of the sorted, disjoint spans meets [from, to).
func overlaps(spans [][2]int64, from, to int64) bool {
	k := sort.Search(len(spans), func(i int) bool { return spans[i][1] > from })
	return k < len(spans) && spans[k][0] < to
}

// FleetRange is what a range of the shared clock holds.
type FleetRange struct {
	From, To int64
	// With and Without count the clients a reconnect somewhere in the
	// range would have sent to a relist, with and without bookmarks;
	// PeakWith and PeakWithout the most at one instant.
	With, Without         int
	PeakWith, PeakWithout int
	Relists               int // relists seen in the range
}

// RangeCounts counts what [from, to) holds.
func (d *FleetData) RangeCounts(from, to int64) FleetRange {
	r := FleetRange{From: from, To: to, Relists: d.RelistsIn(from, to)}
	for i := range d.Rows {
		if overlaps(d.Rows[i].With, from, to) {
			r.With++
		}
		if overlaps(d.Rows[i].Without, from, to) {
			r.Without++
		}
	}
	s := d.StepAt(from)
	r.PeakWith, r.PeakWithout = s.With, s.Without
	for _, s := range d.Fleet.Steps {
		if s.T > from && s.T < to {
			r.PeakWith, r.PeakWithout = max(r.PeakWith, s.With), max(r.PeakWithout, s.Without)
		}
	}
	return r
}
