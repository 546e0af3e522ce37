package timeline

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// fleetTruth is one client's line of the fleet's TRUTH.tsv.
type fleetTruth struct {
	client             string
	lists, relists     int
	relistT, error410T []string
}

func readFleetTruth(t *testing.T) []fleetTruth {
	t.Helper()
	var out []fleetTruth
	for _, c := range testsample.FleetTruth(t) {
		out = append(out, fleetTruth{c.Client, c.Lists, c.Relists, c.RelistTimes, c.Error410Times})
	}
	return out
}

// within says whether instant got is want (RFC 3339) to a millisecond.
func within(t *testing.T, got int64, want string) bool {
	d := got - instant(t, want)
	return d > -int64(time.Millisecond) && d < int64(time.Millisecond)
}

// Every client of the fleet: the relists the timeline finds are
// TRUTH.tsv's, at their LIST requests, each caused by the 410 TRUTH shows
// before it; and after each LIST both cursors hold the list's RV, which
// the client's next watch asks for.
func TestFleetRelists(t *testing.T) {
	clients, relists, caused, checkedLists := 0, 0, 0, 0
	for _, tr := range readFleetTruth(t) {
		clients++
		data, err := os.ReadFile(filepath.Join(fleetDir, tr.client+".ts.http"))
		if err != nil {
			t.Fatal(err)
		}
		tl := loadBytesNamed(t, tr.client, data)
		if len(tl.lists) != tr.lists {
			t.Errorf("%s: %d LISTs, TRUTH says %d", tr.client, len(tl.lists), tr.lists)
		}
		if len(tl.Relists) != tr.relists || len(tr.relistT) != tr.relists {
			t.Errorf("%s: %d relists, TRUTH says %d", tr.client, len(tl.Relists), tr.relists)
			continue
		}
		for k, r := range tl.Relists {
			relists++
			if !within(t, r.T, tr.relistT[k]) {
				t.Errorf("%s relist %d at %s, TRUTH says %s", tr.client, k, FormatTime(r.T, ClockArrival), tr.relistT[k])
			}
			if k < len(tr.error410T) {
				if r.Cause != CauseGone || !within(t, r.CauseT, tr.error410T[k]) || !strings.Contains(r.CauseMessage, "too old resource version") {
					t.Errorf("%s relist %d: cause %q at %s (%s), TRUTH shows a 410 at %s", tr.client, k, r.Cause, FormatTime(r.CauseT, ClockArrival), r.CauseMessage, tr.error410T[k])
				}
				caused++
			} else if r.Cause != CauseUnknown {
				t.Errorf("%s relist %d: cause %q, TRUTH shows no 410", tr.client, k, r.Cause)
			}
		}
		f := tl.Files[0]
		for _, l := range tl.lists {
			if !l.complete {
				t.Errorf("%s: LIST at session %d not read whole", tr.client, l.first)
				continue
			}
			for _, c := range []*Cursor{&tl.Cursors[0], &tl.Cursors[1]} {
				if rv, since, _, ok := c.At(l.end); !ok || rv != l.rv || since != l.end {
					t.Errorf("%s %v cursor after the LIST at %s: %d since %s, want the list's RV %d", tr.client, c.Kind,
						FormatTime(l.end, ClockArrival), rv, FormatTime(since, ClockArrival), l.rv)
				}
			}
			if pos := tl.Sessions[l.last].Index; pos+1 < len(f.Sessions) {
				next := tl.Sessions[f.Sessions[pos+1]]
				if next.Request.ResourceVersion != strconv.FormatUint(l.rv, 10) {
					t.Errorf("%s: the watch after the LIST asks for %s, the list's RV is %d", tr.client, next.Request.ResourceVersion, l.rv)
				}
			}
			checkedLists++
		}
	}
	// Every client, the two speaking protobuf included.
	if clients != 44 || relists != 18 || caused != 18 || checkedLists != 44+18 {
		t.Errorf("%d clients, %d relists (%d caused by a 410), %d LISTs checked: want 44, 18, 18 and 62", clients, relists, caused, checkedLists)
	}
}

// listPage is a LIST response of the named items.
func (c *capture) listPage(req *parser.Request, from, to time.Duration, rv, cont string, complete bool, names ...string) *capture {
	c.watch(req, from, to)
	s := &c.sess[len(c.sess)-1]
	s.List = &parser.List{Kind: "ConfigMapList", RV: rv, Continue: cont, Items: len(names), Complete: complete}
	for k, n := range names {
		c.ev(parser.Listed, uint64(100+k), from+time.Millisecond, n)
	}
	return c
}

// A LIST in pages: the first page's RV holds from the last page's end,
// the items move no cursor and are no change of the kind, and a second
// LIST is a relist, caused by the 410 that ended the watch before it.
func TestListPagesAndRelist(t *testing.T) {
	get := func(q string) *parser.Request {
		return &parser.Request{Method: "GET", Path: "/api/v1/configmaps", Query: q, LabelSelector: "x"}
	}
	c := (&capture{}).listPage(get("limit=2"), 0, 1*s, "500", "tok", true, "a", "b").
		listPage(get("continue=tok&limit=2"), 1*s, 2*s, "500", "", true, "c")
	c.watch(&parser.Request{Method: "GET", Path: "/api/v1/configmaps", Watch: true, ResourceVersion: "500"}, 2*s, 100*s).
		ev(parser.Modified, 510, 10*s, "a").tooOld(500, 600, 100*s)
	c.listPage(get("limit=2"), 101*s, 102*s, "700", "", true, "a", "b")
	tl := build(c)
	for _, cur := range []*Cursor{&tl.Cursors[0], &tl.Cursors[1]} {
		if _, _, _, ok := cur.At(at(2*s) - 1); ok {
			t.Errorf("%v cursor set before the last page ended", cur.Kind)
		}
		if rv, since, _, ok := cur.At(at(2 * s)); !ok || rv != 500 || since != at(2*s) {
			t.Errorf("%v cursor after the pages: %d since %v", cur.Kind, rv, since)
		}
		if rv, _, _, _ := cur.At(at(102 * s)); rv != 700 {
			t.Errorf("%v cursor after the relist: %d", cur.Kind, rv)
		}
	}
	if ks := tl.series["ConfigMap"]; ks == nil || ks.len() != 1 {
		t.Errorf("the kind's changes: %+v, want the one MODIFIED", ks)
	}
	if h, ok := tl.Head(at(2 * s)); !ok || h != 500 {
		t.Errorf("head after the LIST: %d", h)
	}
	if len(tl.Relists) != 1 {
		t.Fatalf("relists %+v", tl.Relists)
	}
	r := tl.Relists[0]
	if r.Session != 3 || r.T != at(101*s) || r.RV != "700" || r.Cause != CauseGone || r.CauseT != at(100*s) {
		t.Errorf("relist %+v", r)
	}
	a := tl.Analyze(DefaultParams())
	if h := a.kindHead("ConfigMap"); h.Len() != 3 || h.RV(0) != 500 || h.RV(2) != 700 {
		var rvs []uint64
		for k := range h.Len() {
			rvs = append(rvs, h.RV(k))
		}
		t.Errorf("kind head %v: want the LISTs' RVs and the change, not the items", rvs)
	}
}

// A LIST cut off, or whose next page never comes, leaves the cursors
// alone: the client never held it.
func TestListIncompleteSetsNoCursor(t *testing.T) {
	get := &parser.Request{Method: "GET", Path: "/api/v1/configmaps", Query: "limit=2"}
	for _, c := range []*capture{
		(&capture{}).listPage(get, 0, 1*s, "500", "", false, "a"),
		(&capture{}).listPage(get, 0, 1*s, "500", "tok", true, "a", "b"),
	} {
		tl := build(c)
		for _, cur := range []*Cursor{&tl.Cursors[0], &tl.Cursors[1]} {
			if cur.Len() != 0 {
				t.Errorf("%v cursor set by an incomplete LIST: %d steps", cur.Kind, cur.Len())
			}
		}
		if len(tl.lists) != 1 || tl.lists[0].complete {
			t.Errorf("lists %+v", tl.lists)
		}
	}
}
