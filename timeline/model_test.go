package timeline

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/parser"
)

const s = time.Second

// The textbook case: a client at RV 5 whose reconnect finds the oldest
// retained RV at 25 gets 410.
func TestTextbookOldCursorRefused(t *testing.T) {
	client := (&capture{}).watch(narrow("1", true), 0, 10*s).ev(parser.Modified, 5, 1*s, "a")
	// The whole type, seen by an unfiltered watch: changes 25, 26, 27 after 5.
	cluster := (&capture{}).watch(req("1", true), 0, 20*s).
		ev(parser.Added, 25, 11*s, "b").ev(parser.Added, 26, 12*s, "c").ev(parser.Added, 27, 13*s, "d")
	tl := build(client, cluster)
	a := tl.Analyze(params(func(p *Params) { p.CacheCount = 3; p.CacheWindow = time.Hour }))
	v := a.Verdict(0, BookmarkAware, at(9*s), 5*s) // resumes at 14 s: buffer holds 25..27
	if v.Outcome != Refused || !strings.Contains(v.Reason, "count") {
		t.Fatalf("cursor 5 vs oldest 25: %v %q", v.Outcome, v.Reason)
	}
	if v := a.Verdict(0, BookmarkAware, at(9*s), 1*s); v.Outcome != Accepted {
		t.Fatalf("resume at 10 s, before the buffer turned over: %v %q", v.Outcome, v.Reason)
	}
	// Calibration says the same from the server's own words.
	client.tooOld(5, 24, 10*s)
	a = build(client).Analyze(params(func(p *Params) { p.CacheWindow = time.Hour }))
	if v := a.Verdict(0, BookmarkAware, at(10*s), 0); v.Outcome != Refused || !strings.Contains(v.Reason, "calibration") {
		t.Fatalf("calibrated: %v %q", v.Outcome, v.Reason)
	}
}

// With a bookmark at RV 200 after an event at 100 the bookmark-aware
// cursor is 200: nothing it cares about happened in 101..200.
func TestTextbookBookmarkMovesCursor(t *testing.T) {
	c := (&capture{}).watch(narrow("50", true), 0, 120*s).ev(parser.Modified, 100, 0, "a").bookmark(200, 60*s)
	tl := build(c)
	if rv, _ := cursorAt(t, tl, 0, BookmarkAware, 61*s); rv != 200 {
		t.Fatalf("aware cursor %d, want 200", rv)
	}
	if rv, _ := cursorAt(t, tl, 0, BookmarkIgnoring, 61*s); rv != 100 {
		t.Fatalf("ignoring cursor %d, want 100", rv)
	}
	a := tl.Analyze(DefaultParams())
	if v := a.Verdict(0, BookmarkAware, at(120*s), 0); v.Outcome != Accepted {
		t.Fatalf("aware at 120 s (60 s old): %v %q", v.Outcome, v.Reason)
	}
	if v := a.Verdict(0, BookmarkIgnoring, at(120*s), 0); v.Outcome != AtRisk {
		t.Fatalf("ignoring at 120 s (120 s old): %v %q", v.Outcome, v.Reason)
	}
}

func TestSessionsEndAndGap(t *testing.T) {
	r := narrow("1", false)
	r.TimeoutSeconds = 10
	c := (&capture{}).watch(r, 0, 10*s).ev(parser.Modified, 5, 1*s, "a")
	c.watch(req("5", false), 12*s, 13*s).tooOld(5, 9, 13*s)
	c.watch(req("", false), 14*s, 15*s).ev(parser.Added, 20, 14*s, "a")
	c.sess[2].Truncated = true
	c.watch(nil, 16*s, 17*s)
	c.sess[3].Truncated = true
	c.watch(nil, 18*s, 18*s)
	c.sess[4].HTTPStatus, c.sess[4].Status = 410, &parser.Status{Code: 410, Message: "The resourceVersion for the provided list is too old."}
	tl := build(c)
	want := []EndReason{EndDeadline, EndError, EndNewResponse, EndNewResponse, EndHTTPError}
	for k, w := range want {
		if got := tl.Sessions[k].EndReason; got != w {
			t.Errorf("session %d ended %v, want %v", k, got, w)
		}
	}
	if g := tl.Sessions[1].Gap; g != int64(2*s) {
		t.Errorf("gap %v, want 2s", time.Duration(g))
	}
	if tl.Sessions[0].Gap != -1 || tl.Sessions[1].Error == nil || tl.Sessions[1].Error.Y != 9 {
		t.Errorf("first gap %d, error %+v", tl.Sessions[0].Gap, tl.Sessions[1].Error)
	}
	c.sess = c.sess[:3]
	c.evs = c.evs[:3]
	if got := build(c).Sessions[2].EndReason; got != EndCutOff {
		t.Errorf("last session cut: %v", got)
	}
}

func TestLaneLabelsFollowTheLatestEvent(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 10*s).
		ev(parser.Added, 1, 1*s, "a").ev(parser.Modified, 2, 2*s, "a").ev(parser.Modified, 3, 3*s, "a")
	c.evs[0].Labels = "app=web,tier=1"
	c.evs[1].Labels = "app=web,tier=2"
	// A DELETED may come without labels; the object's labels stay known.
	if l := build(c).Lanes.At(0); l.Labels != "app=web,tier=2" {
		t.Errorf("lane labels %q, want the latest event's", l.Labels)
	}
}

func TestEncodedEventsKeepTheirBodyOffset(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 10*s).ev(parser.Added, 1, 1*s, "a").ev(parser.Modified, 2, 2*s, "a")
	c.evs[1].Encoded, c.evs[1].BodyOffset = true, 4242
	tl := build(c)
	if e := tl.Event(0); e.Encoded {
		t.Errorf("a plain event came out encoded: %+v", e)
	}
	if e := tl.Event(1); !e.Encoded || e.BodyOffset != 4242 {
		t.Errorf("the encoded event lost its body offset: %+v", e)
	}
}

func TestLanes(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 10*s).
		ev(parser.Added, 1, 1*s, "a").ev(parser.Added, 2, 2*s, "b").ev(parser.Modified, 3, 3*s, "a").
		ev(parser.Deleted, 4, 4*s, "a").ev(parser.Added, 5, 5*s, "a")
	c.evs[4].UID = "uid-a2" // re-created: new uid
	tl := build(c)
	if tl.Lanes.Len() != 3 {
		t.Fatalf("%d lanes, want 3: %+v", tl.Lanes.Len(), allLanes(tl))
	}
	_, last := tl.LaneSpan(0)
	if l := tl.Lanes.At(0); l.Name != "a" || len(tl.LaneEvents(0)) != 3 || !l.Deleted || last != at(4*s) {
		t.Errorf("lane 0: %+v, %d events, last at %d", l, len(tl.LaneEvents(0)), last)
	}
	first, _ := tl.LaneSpan(2)
	if l := tl.Lanes.At(2); tl.Lanes.UID(2) != "uid-a2" || l.Deleted || first != at(5*s) {
		t.Errorf("lane 2: %+v, uid %q, first at %d", l, tl.Lanes.UID(2), first)
	}
	// Without uids, a name after its DELETED is a new object if ADDED, an
	// anomaly otherwise.
	for i := range c.evs {
		c.evs[i].UID = ""
	}
	c.ev(parser.Deleted, 6, 6*s, "a").ev(parser.Modified, 7, 7*s, "a")
	c.evs[len(c.evs)-1].UID = ""
	c.evs[len(c.evs)-2].UID = ""
	tl = build(c)
	if tl.Lanes.Len() != 3 {
		t.Fatalf("name lanes: %d, want 3", tl.Lanes.Len())
	}
	if len(tl.Anomalies) != 1 || tl.Anomalies[0].Kind != "after-delete" || tl.Anomalies[0].RV != "7" {
		t.Fatalf("anomalies %+v", tl.Anomalies)
	}
}

func TestInitialBurstFreezesAwareCursor(t *testing.T) {
	r := req("", true)
	r.SendInitialEvents = true
	c := (&capture{}).watch(r, 0, 60*s).
		ev(parser.Added, 50, 1*s, "a").ev(parser.Added, 30, 1*s, "b").ev(parser.Added, 40, 1*s, "c").
		initialEnd(60, 2*s).ev(parser.Modified, 70, 3*s, "a")
	tl := build(c)
	if _, ok := cursorAt(t, tl, 0, BookmarkAware, 1*s); ok {
		t.Errorf("aware cursor moved during the initial burst")
	}
	if rv, _ := cursorAt(t, tl, 0, BookmarkAware, 2*s); rv != 60 {
		t.Errorf("aware after initial-events-end: %d", rv)
	}
	if rv, _ := cursorAt(t, tl, 0, BookmarkIgnoring, 2*s); rv != 40 {
		t.Errorf("ignoring keeps the last event in order received: %d", rv)
	}
	if rv, _ := cursorAt(t, tl, 0, BookmarkAware, 3*s); rv != 70 {
		t.Errorf("aware after live event: %d", rv)
	}
	if len(tl.Anomalies) != 0 {
		t.Errorf("the unordered initial burst is legitimate: %+v", tl.Anomalies)
	}
	if tl.Sessions[0].InitialEventsEnd != at(2*s) {
		t.Errorf("initial events end at %d", tl.Sessions[0].InitialEventsEnd)
	}
}

func TestResumeStartsFromRequest(t *testing.T) {
	c := (&capture{}).watch(narrow("10", true), 0, 100*s).ev(parser.Modified, 20, 1*s, "a").bookmark(90, 60*s)
	c.watch(narrow("90", true), 101*s, 200*s).bookmark(150, 160*s)
	c.watch(narrow("500", true), 201*s, 300*s)
	tl := build(c)
	if rv, _ := cursorAt(t, tl, 0, BookmarkAware, 0); rv != 10 {
		t.Errorf("first session starts from its request: %d", rv)
	}
	// Resuming from the value held keeps the instant it was confirmed.
	if _, since, _, _ := tl.Cursors[0].At(at(101 * s)); since != at(60*s) {
		t.Errorf("resume re-dated the cursor: %v", time.Duration(since-t0))
	}
	if rv, _ := cursorAt(t, tl, 0, BookmarkAware, 201*s); rv != 500 {
		t.Errorf("aware takes the request's RV: %d", rv)
	}
	if rv, _ := cursorAt(t, tl, 0, BookmarkIgnoring, 250*s); rv != 20 {
		t.Errorf("ignoring keeps its own cursor across resumes: %d", rv)
	}
	c.watch(narrow("", true), 301*s, 310*s)
	if _, ok := cursorAt(t, build(c), 0, BookmarkIgnoring, 305*s); ok {
		t.Errorf("a watch without resourceVersion starts without a cursor")
	}
}

func TestHeadFromAllFilesAndTooOld(t *testing.T) {
	a := (&capture{}).watch(nil, 0, 100*s).ev(parser.Added, 10, 1*s, "a").tooOld(3, 500, 50*s)
	b := (&capture{}).watch(nil, 0, 100*s).ev(parser.Added, 20, 2*s, "b").bookmark(30, 3*s)
	tl := build(a, b)
	for _, c := range []struct {
		when time.Duration
		rv   uint64
	}{{1 * s, 10}, {2 * s, 20}, {10 * s, 30}, {50 * s, 500}} {
		if h, _ := tl.Head(at(c.when)); h != c.rv {
			t.Errorf("head at %v = %d, want %d", c.when, h, c.rv)
		}
	}
	if _, ok := tl.Head(at(0)); ok {
		t.Errorf("head known before anything")
	}
}

func TestGaps(t *testing.T) {
	quiet := (&capture{}).watch(narrow("1", false), 0, 100*s).ev(parser.Modified, 10, 1*s, "q")
	busy := (&capture{}).watch(req("1", true), 0, 100*s).ev(parser.Added, 11, 20*s, "b").ev(parser.Added, 40, 50*s, "c")
	a := build(quiet, busy).Analyze(DefaultParams())
	var g *Gap
	for k := range a.Gaps {
		if a.Gaps[k].File == 0 && a.Gaps[k].Kind == BookmarkAware {
			g = &a.Gaps[k]
		}
	}
	if g == nil || g.From != at(20*s) || g.To != at(100*s) || g.AgeTime != int64(99*s) || g.AgeRV != 30 {
		t.Fatalf("gap %+v", g)
	}
}

func TestWindowModels(t *testing.T) {
	c := (&capture{}).watch(narrow("1", true), 0, 1000*s).ev(parser.Modified, 10, 0, "a")
	tl := build(c)
	cases := []struct {
		name  string
		p     Params
		when  time.Duration
		delay time.Duration
		want  Outcome
		model string
	}{
		{"cache time inside", params(nil), 75*s - 1, 0, Accepted, ""},
		{"cache time past", params(nil), 75 * s, 0, AtRisk, "watch cache (time)"},
		{"delay counts", params(nil), 70 * s, 6 * s, AtRisk, "watch cache (time)"},
		{"custom window", params(func(p *Params) { p.CacheWindow = 200 * s }), 150 * s, 0, Accepted, ""},
		{"restart", params(func(p *Params) { p.Restarts = []Restart{{From: at(30 * s), To: at(30 * s)}} }), 30 * s, 0, Refused, "restart"},
		{"restart later", params(func(p *Params) { p.Restarts = []Restart{{From: at(30 * s), To: at(30 * s)}} }), 29 * s, 0, Accepted, ""},
		{"etcd only without cache", params(func(p *Params) { p.WatchCache = false }), 100 * s, 0, Accepted, ""},
		{"etcd past interval", params(func(p *Params) { p.WatchCache = false }), 300 * s, 0, AtRisk, "worst phase"},
		{"etcd any phase", params(func(p *Params) { p.WatchCache = false }), 600 * s, 0, Refused, "any phase"},
	}
	for _, tc := range cases {
		v := tl.Analyze(tc.p).Verdict(0, BookmarkAware, at(tc.when), tc.delay)
		if v.Outcome != tc.want || !strings.Contains(v.Reason, tc.model) {
			t.Errorf("%s: %v %q", tc.name, v.Outcome, v.Reason)
		}
	}
	// Events are served from etcd whatever the cache setting.
	c.evs[0].Kind = "Event"
	v := build(c).Analyze(params(nil)).Verdict(0, BookmarkAware, at(100*s), 0)
	if v.Outcome != Accepted || !strings.Contains(v.Reason, "etcd") {
		t.Errorf("Event kind: %v %q", v.Outcome, v.Reason)
	}
}

func TestZones(t *testing.T) {
	c := (&capture{}).watch(narrow("1", true), 0, 300*s).ev(parser.Modified, 10, 0, "a").
		bookmark(20, 60*s).bookmark(30, 200*s)
	a := build(c).Analyze(params(func(p *Params) { p.Delay = 5 * s }))
	var aware, ignoring []Zone
	for _, z := range a.RiskZones {
		if z.Model != ModelCacheTime {
			continue
		}
		if z.Kind == BookmarkAware {
			aware = append(aware, z)
		} else {
			ignoring = append(ignoring, z)
		}
	}
	// Aware: stale from 60+75-5 = 130 s until the bookmark at 200 s, and
	// again from 200+75-5 = 270 s to the end, its last instant included.
	if len(aware) != 2 || aware[0].From != at(130*s) || aware[0].To != at(200*s) || aware[0].FromRV != 20 ||
		aware[1].From != at(270*s) || aware[1].To != at(300*s)+1 || aware[1].FromRV != 30 {
		t.Fatalf("aware zones %+v", aware)
	}
	// Ignoring: from 70 s to the end, one zone.
	if len(ignoring) != 1 || ignoring[0].From != at(70*s) || ignoring[0].To != at(300*s)+1 {
		t.Fatalf("ignoring zones %+v", ignoring)
	}
}

func TestWhatIf(t *testing.T) {
	c := (&capture{}).watch(narrow("1", true), 0, 600*s).ev(parser.Modified, 10, 1*s, "a")
	for k := 1; k < 10; k++ {
		c.bookmark(uint64(10+k), time.Duration(k)*60*s)
	}
	c.watch(narrow("19", true), 601*s, 700*s).bookmark(30, 660*s)
	a := build(c).Analyze(DefaultParams())
	w := a.WhatIf
	// One reconnect (the end of the capture is none): the cursor that
	// ignores bookmarks is 10 minutes old, at risk; refused by nothing a
	// narrow capture shows.
	if w.Reconnects != 1 || w.RelistsWith != 0 || w.RelistsWithout != 0 || w.AtRiskWithout != 1 || w.AtRiskWith != 0 {
		t.Fatalf("what-if %+v", w)
	}
	if w.LongestAgeWithout != int64(600*s) || w.LongestAgeWith != int64(61*s) {
		t.Fatalf("ages with %v without %v", time.Duration(w.LongestAgeWith), time.Duration(w.LongestAgeWithout))
	}
	if len(a.Resumes) != 1 || a.Resumes[0].Observed != Accepted || a.Resumes[0].Predicted.Outcome != Accepted {
		t.Fatalf("resumes %+v", a.Resumes)
	}
}

func TestAnomalies(t *testing.T) {
	c := (&capture{}).watch(narrow("1", true), 0, 200*s).
		ev(parser.Modified, 10, 1*s, "a").ev(parser.Modified, 8, 2*s, "b"). // backwards
		ev(parser.Modified, 10, 3*s, "a").                                  // repeated (and backwards: no, equal)
		tooOld(1, 5, 4*s).bookmark(12, 5*s)                                 // error not last
	c.watch(nil, 201*s, 201*s+int64ToDur(500e6)) // short, empty
	tl := build(c)
	kinds := map[string]int{}
	for _, a := range tl.Anomalies {
		kinds[a.Kind]++
	}
	want := map[string]int{"rv-backwards": 1, "repeated": 1, "error-not-last": 1, "no-bookmarks": 1, "short-watch": 1}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%s: %d, want %d (all: %v)", k, kinds[k], n, kinds)
		}
	}
	for _, a := range tl.Anomalies {
		if a.Kind == "no-bookmarks" && a.T != at(5*s) {
			t.Errorf("silence should start at the last bookmark: %v", time.Duration(a.T-t0))
		}
	}
}

func int64ToDur(n int64) time.Duration { return time.Duration(n) }

func TestQueries(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 100*s)
	for k := 0; k < 100; k++ {
		c.ev(parser.Modified, uint64(1000-k), time.Duration(k)*s, []string{"a", "b"}[k%2])
	}
	c.bookmark(2000, 99*s)
	tl := build(c)
	if lo, hi := tl.TimeRange(at(10*s), at(20*s)); lo != 10 || hi != 20 {
		t.Errorf("time range %d..%d", lo, hi)
	}
	got := tl.RVRange(950, 960, 0)
	if len(got) != 11 || tl.Event(got[0]).RV != "950" {
		t.Errorf("rv range %v", got)
	}
	b := tl.Bins(BinQuery{From: at(0), To: at(100 * s), Columns: 10, LaneFrom: 0, LaneTo: 2, File: -1}, nil)
	if b.Counts[0] != 5 || b.Counts[10] != 5 || b.Objects[9] != 10 || b.Bookmarks[9] != 1 || b.Max != 5 {
		t.Errorf("bins %+v", b)
	}
	b = tl.Bins(BinQuery{Axis: AxisRV, From: 901, To: 1001, Columns: 2, LaneFrom: 1, LaneTo: 2, File: 0, Types: 1 << parser.Modified}, b)
	if b.Rows != 1 || b.Counts[0] != 25 || b.Counts[1] != 25 {
		t.Errorf("rv bins %+v", b)
	}
}

// Without arrival times the clock comes from Date headers, managedFields
// estimates, the deadline and the bookmark cadence.
func TestEstimatedClock(t *testing.T) {
	r := narrow("1", true)
	r.TimeoutSeconds = 300
	c := &capture{}
	c.watch(r, 0, 0)
	c.sess[0].StartArrival, c.sess[0].EndArrival = 0, 0
	c.sess[0].Headers = []parser.Header{{Name: "Date", Value: time.Unix(0, t0).UTC().Format(time.RFC1123)}}
	c.ev(parser.Modified, 10, 0, "a").bookmark(20, 0).bookmark(30, 0).bookmark(40, 0).bookmark(40, 0)
	for i := range c.evs {
		c.evs[i].Arrival = 0
	}
	c.evs[0].Estimated = at(20 * s)
	tl := build(c)
	if tl.Files[0].Clock != ClockEstimated {
		t.Fatalf("clock %v", tl.Files[0].Clock)
	}
	// The closing pair (same RV) both go to the deadline bookmark's instant.
	want := []time.Duration{20 * s, 60 * s, 120 * s, 298 * s, 298 * s}
	for i, w := range want {
		if got := tl.Event(i).T; got != at(w) {
			t.Errorf("event %d at %v, want %v", i, time.Duration(got-t0), w)
		}
	}
	if s0 := tl.Sessions[0]; s0.End != at(300*s) || s0.EndReason != EndDeadline {
		t.Errorf("session end %v %v", time.Duration(s0.End-t0), s0.EndReason)
	}
}

// The boundary arithmetic of an unfiltered view must agree with a scan.
func TestBinsFastTotalsMatchScan(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 1000*s)
	for k := 0; k < 997; k++ {
		when := time.Duration(k*k) * time.Millisecond
		switch {
		case k%50 == 0:
			c.bookmark(uint64(5000+k), when)
		case k%333 == 0:
			c.tooOld(1, 2, when)
		default:
			c.ev(parser.Modified, uint64(5000+k), when, string(rune('a'+k%7)))
		}
	}
	tl := build(c)
	all := uint32(1<<parser.Modified | 1<<parser.Bookmark | 1<<parser.Error)
	for _, axis := range []Axis{AxisTime, AxisRV} {
		from, to := at(0), at(1000*s)
		if axis == AxisRV {
			from, to = 5000, 6000
		}
		for _, cols := range []int{1, 7, 333, 2000} {
			q := BinQuery{Axis: axis, From: from, To: to, Columns: cols, LaneFrom: 0, LaneTo: 7, File: -1}
			fast := tl.Bins(q, nil)
			q.Types, q.File = all, 0
			scan := tl.Bins(q, nil)
			for k := 0; k < cols; k++ {
				if fast.Objects[k] != scan.Objects[k] || fast.Bookmarks[k] != scan.Bookmarks[k] || fast.Errors[k] != scan.Errors[k] {
					t.Fatalf("axis %d cols %d col %d: fast %d/%d/%d scan %d/%d/%d", axis, cols, k,
						fast.Objects[k], fast.Bookmarks[k], fast.Errors[k], scan.Objects[k], scan.Bookmarks[k], scan.Errors[k])
				}
			}
			var sum uint32
			for k := range fast.Counts {
				sum += fast.Counts[k]
			}
			var objs uint32
			for _, n := range fast.Objects {
				objs += n
			}
			if sum != objs {
				t.Fatalf("axis %d cols %d: lane cells %d, objects %d", axis, cols, sum, objs)
			}
		}
	}
}

func TestSearchHintMatchesSortSearch(t *testing.T) {
	var c column[uint64]
	vals := make([]uint64, 5000)
	for i := range vals {
		vals[i] = uint64(i * 3)
		c.add(vals[i])
	}
	maxRV := pack(&c, nil)
	h := &searchHint{}
	x := uint64(7)
	for k := 0; k < 20000; k++ {
		x = (x*1103515245 + 12345) % 16000
		if k%3 != 0 { // mostly rising, sometimes falling
			x = x/4 + uint64(k)/2
		}
		want := sort.Search(len(vals), func(i int) bool { return vals[i] > x+1 })
		if got := h.firstAbove(&maxRV, x); got != want {
			t.Fatalf("step %d x=%d: %d, want %d", k, x, got, want)
		}
		if got := (*searchHint)(nil).firstAbove(&maxRV, x); got != want {
			t.Fatalf("step %d x=%d without a hint: %d, want %d", k, x, got, want)
		}
	}
}

func TestCursorAndHeadRange(t *testing.T) {
	c := (&capture{}).watch(narrow("1", true), 0, 100*s).bookmark(10, 10*s).bookmark(20, 20*s).bookmark(30, 30*s)
	tl := build(c)
	cur := &tl.Cursors[0]
	if lo, hi := cur.Range(at(15*s), at(30*s)); cur.RV(lo) != 10 || hi-lo != 2 {
		t.Errorf("cursor range %d..%d", lo, hi)
	}
	head := tl.HeadSteps()
	if lo, hi := tl.HeadRange(at(25*s), at(100*s)); head.RV(lo) != 20 || hi != head.Len() {
		t.Errorf("head range %d..%d of %d", lo, hi, head.Len())
	}
}

// A LIST in the capture is not a watch: no cursor, no reconnect.
func TestListIsNotAWatch(t *testing.T) {
	c := (&capture{}).watch(narrow("1", true), 0, 10*s).bookmark(10, 5*s)
	c.watch(&parser.Request{Method: "GET", Path: "/api/v1/configmaps", ResourceVersion: "7"}, 11*s, 12*s)
	a := build(c).Analyze(DefaultParams())
	if a.WhatIf.Reconnects != 1 || len(a.Resumes) != 0 {
		t.Errorf("reconnects %d resumes %d", a.WhatIf.Reconnects, len(a.Resumes))
	}
	if rv, _, _, _ := a.TL.Cursors[0].At(at(12 * s)); rv != 10 {
		t.Errorf("cursor moved by a LIST: %d", rv)
	}
}

func TestDiagnosticsPlaced(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 10*s).ev(parser.Added, 5, 1*s, "a").ev(parser.Added, 6, 2*s, "b")
	c.evs[0].Offset, c.evs[1].Offset = 0, 500
	b := NewBuilder()
	b.AddCapture("f", &parser.Capture{Events: c.evs, Sessions: c.sess,
		Diagnostics: []parser.Diagnostic{{Offset: 100, Kind: "bad-json"}, {Offset: 900, Kind: "bad-chunk"}}})
	tl := b.Build()
	evs := tl.DiagnosticEvents()
	if len(evs) != 1 || len(evs[0]) != 2 {
		t.Fatalf("diagnostic events %v, want two of one file", evs)
	}
	if i := evs[0][0]; i < 0 || tl.Event(i).RV != "6" || tl.Event(i).T != at(2*s) {
		t.Errorf("first diagnostic at event %d, want the one of RV 6", i)
	}
	if i := evs[0][1]; i != -1 {
		t.Errorf("diagnostic after the last event placed at event %d", i)
	}
}

func TestLaneEventsAndSpecials(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 10*s).ev(parser.Added, 1, 1*s, "a").bookmark(2, 2*s).ev(parser.Added, 3, 3*s, "b").
		ev(parser.Modified, 4, 4*s, "a")
	tl := build(c)
	if got := tl.LaneEvents(0); len(got) != 2 || got[0] != 0 || got[1] != 3 {
		t.Errorf("lane 0 events %v", got)
	}
	if got := tl.Specials(); len(got) != 1 || tl.Event(int(got[0])).Type != parser.Bookmark {
		t.Errorf("specials %v", got)
	}
}

// A too-old error pins the window of its own resource type only.
func TestCalibrationPerKind(t *testing.T) {
	cm := (&capture{}).watch(narrow("1", true), 0, 10*s).ev(parser.Modified, 100, 1*s, "a")
	pods := (&capture{}).watch(narrow("1", true), 0, 10*s).ev(parser.Modified, 200, 1*s, "p").tooOld(150, 5000, 2*s)
	for i := range pods.evs {
		if pods.evs[i].Type != parser.Error {
			pods.evs[i].Kind = "Pod"
		}
	}
	a := build(cm, pods).Analyze(DefaultParams())
	if v := a.Verdict(0, BookmarkAware, at(5*s), 0); v.Outcome != Accepted {
		t.Errorf("ConfigMap cursor refused by a Pod error: %q", v.Reason)
	}
	if v := a.Verdict(1, BookmarkAware, at(5*s), 0); v.Outcome != Refused || !strings.Contains(v.Reason, "calibration") {
		t.Errorf("Pod cursor 200 below Y 5000: %v %q", v.Outcome, v.Reason)
	}
}

func TestEmptyTimeline(t *testing.T) {
	tl := NewBuilder().Build()
	if b := tl.Bins(BinQuery{From: 0, To: 10, Columns: 5, LaneTo: 3, File: -1}, nil); b.Rows != 3 || len(b.Counts) != 15 {
		t.Fatalf("bins %+v", b)
	}
	if got := tl.RVRange(0, 100, 0); len(got) != 0 {
		t.Fatal(got)
	}
	// An empty file (a capture with no events) still has its session.
	b := NewBuilder()
	f := b.AddFile("empty")
	f.Finish([]parser.Session{{HTTPStatus: 200}}, nil)
	if tl := b.Build(); len(tl.Sessions) != 1 || tl.Files[0].Clock != ClockNone {
		t.Fatalf("%+v", tl.Files)
	}
}

// While a watch of the whole type is open, silence means no change: the
// cache keeps an old cursor good until something past it changes.
func TestWholeTypeWatchConfirmsQuiet(t *testing.T) {
	quiet := (&capture{}).watch(req("1", false), 0, 300*s).ev(parser.Added, 10, 0, "a")
	a := build(quiet).Analyze(DefaultParams())
	if v := a.Verdict(0, BookmarkIgnoring, at(300*s), 0); v.Outcome != Accepted {
		t.Errorf("quiet whole-type watch, 300 s old cursor: %v %q", v.Outcome, v.Reason)
	}
	// After the watch closed nothing is known: stale from its end.
	if v := a.Verdict(0, BookmarkIgnoring, at(300*s), 76*s); v.Outcome != AtRisk {
		t.Errorf("76 s after the watch closed: %v %q", v.Outcome, v.Reason)
	}
	busy := (&capture{}).watch(req("1", false), 0, 300*s).ev(parser.Added, 10, 0, "a").ev(parser.Added, 20, 250*s, "b")
	a = build(busy).Analyze(DefaultParams())
	// The bookmark-ignoring cursor is 20 from 250 s; at 249 s it was 10.
	if v := a.Verdict(0, BookmarkIgnoring, at(249*s), 70*s); v.Outcome != Accepted {
		t.Errorf("cursor 10 stale since 250 s, resumed at 319 s: %v %q", v.Outcome, v.Reason)
	}
	if v := a.Verdict(0, BookmarkIgnoring, at(249*s), 76*s); v.Outcome != AtRisk || !strings.Contains(v.Reason, "stale for 1m15s") {
		t.Errorf("cursor 10 stale since 250 s, resumed at 325 s: %v %q", v.Outcome, v.Reason)
	}
	// A narrow watch says nothing of the type: stale from its last event.
	narrowQuiet := (&capture{}).watch(narrow("1", false), 0, 300*s).ev(parser.Added, 10, 0, "a")
	if v := build(narrowQuiet).Analyze(DefaultParams()).Verdict(0, BookmarkIgnoring, at(300*s), 0); v.Outcome != AtRisk {
		t.Errorf("narrow quiet watch: %v %q", v.Outcome, v.Reason)
	}
}

// A capture without any time joins others without breaking their order;
// its own time-based verdicts are unknown.
func TestMixedClocks(t *testing.T) {
	timed := (&capture{}).watch(narrow("1", true), 0, 100*s).ev(parser.Added, 5, 1*s, "a").bookmark(9, 60*s)
	untimed := (&capture{}).watch(nil, 0, 0).ev(parser.Added, 7, 0, "b").ev(parser.Modified, 8, 0, "b")
	untimed.sess[0].StartArrival, untimed.sess[0].EndArrival = 0, 0
	for i := range untimed.evs {
		untimed.evs[i].Arrival = 0
	}
	tl := build(timed, untimed)
	if tl.Files[1].Clock != ClockNone || tl.Files[0].Clock != ClockArrival {
		t.Fatalf("clocks %v %v", tl.Files[0].Clock, tl.Files[1].Clock)
	}
	for i := 1; i < tl.Len(); i++ {
		if tl.Event(i).T < tl.Event(i-1).T {
			t.Fatalf("table out of time order at %d", i)
		}
	}
	if tl.Start() != at(0) || tl.End() != at(100*s) {
		t.Errorf("clock bounds %d..%d ignore the untimed file", tl.Start(), tl.End())
	}
	a := tl.Analyze(DefaultParams())
	if v := a.Verdict(1, BookmarkAware, 1, 0); v.Outcome != Unknown {
		t.Errorf("untimed file: %v %q", v.Outcome, v.Reason)
	}
	if f, s := tl.Files[1], tl.Sessions[1]; FormatTime(f.Start, f.Clock) != "" || FormatTime(s.Start, f.Clock) != "" {
		t.Errorf("untimed file shows times: %+v", f)
	}
}

func TestPointMatchesEvent(t *testing.T) {
	tl := loadSamples(t, "w6-sendinitialevents-rig-a.ts.http")
	for i := 0; i < tl.Len(); i++ {
		p, e := tl.Point(i), tl.Event(i)
		if p.T != e.T || p.RV != e.RVNum || p.RVValid != e.RVValid || p.Type != e.Type || int(p.Lane) != e.Lane || int(p.Session) != e.Session {
			t.Fatalf("event %d: point %+v, event %+v", i, p, e)
		}
	}
	if n := testing.AllocsPerRun(100, func() { tl.Point(5) }); n != 0 {
		t.Errorf("Point allocates %v times", n)
	}
}

// Descents, listed while the steps are built, are the steps a walk over
// their values finds not rising; a cursor that loses its value, gets it
// back and resumes lower has some, the head none.
func TestStepDescents(t *testing.T) {
	c := (&capture{}).watch(narrow("10", true), 0, 100*s).ev(parser.Modified, 20, 1*s, "a").bookmark(90, 60*s)
	c.watch(narrow("", true), 101*s, 200*s).ev(parser.Modified, 95, 150*s, "a")
	c.watch(narrow("30", true), 201*s, 300*s).ev(parser.Modified, 96, 250*s, "a").ev(parser.Modified, 97, 250*s, "a")
	check := func(tl *Timeline) {
		t.Helper()
		series := []*Steps{tl.HeadSteps()}
		for k := range tl.Cursors {
			series = append(series, &tl.Cursors[k].Steps)
		}
		for n, st := range series {
			var want []int32
			for k := range st.Len() {
				v := st.RV(k)
				if v == unsetRV || k > 0 && (st.RV(k-1) == unsetRV || v < st.RV(k-1)) {
					want = append(want, int32(k))
				}
			}
			if got := st.Descents(); !slices.Equal(got, want) {
				t.Errorf("series %d: descents %v, want %v", n, got, want)
			}
		}
	}
	tl := build(c)
	check(tl)
	if d := tl.Cursors[0].Descents(); len(d) != 3 {
		t.Errorf("aware cursor descents %v: want the unset, its end, the resume lower", d)
	}
	if d := tl.HeadSteps().Descents(); len(d) != 0 {
		t.Errorf("head descents %v", d)
	}
	var all []string
	for name := range manifest(t) {
		all = append(all, name)
	}
	sort.Strings(all)
	check(loadSamples(t, all...))
}

// An analysis that pauses gives the same answers, and pauses as often as
// promised: a page relies on it to stay responsive over a large capture.
func TestAnalyzePausing(t *testing.T) {
	b := NewBuilder()
	addSynthetic(b, 100_000)
	tl := b.Build()
	pauses := 0
	pb := NewBuilder()
	pb.Pause = func() { pauses++ }
	addSynthetic(pb, 100_000)
	ptl := pb.Build()
	pauses = 0 // count the analysis's pauses only
	paused := ptl.Analyze(DefaultParams())
	if d := analysisDiff(paused, tl.Analyze(DefaultParams())); d != "" {
		t.Errorf("the paused analysis differs: %s", d)
	}
	steps := 0
	for k := range tl.Cursors {
		steps += tl.Cursors[k].Len()
	}
	if least := steps/pauseEvery - len(tl.Cursors); pauses < least {
		t.Errorf("%d pauses over %d steps, want at least %d", pauses, steps, least)
	}
}

// A build that pauses makes the same timeline, and pauses as often as
// promised: the page builds a capture of a million events while it must
// stay responsive. Two synthetic files of one kind (merged on the clock,
// their changes deduplicated) and every sample (errors, initial bursts,
// estimated clocks, anomalies) exercise every loop that pauses.
func TestBuildPausing(t *testing.T) {
	const n = 100_000
	samples, err := filepath.Glob(filepath.Join(samplesDir, "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	build := func(pause func()) *Timeline {
		b := NewBuilder()
		b.Pause = pause
		addSynthetic(b, n)
		f := b.AddFile("second")
		for i := 0; i < n; i++ {
			f.Add(parser.Event{Seq: i, Type: parser.Modified, Kind: "ConfigMap", Namespace: "other", Name: "o" + strconv.Itoa(i%500),
				RVNum: uint64(1000 + 2*i), RVValid: true, RV: strconv.Itoa(1000 + 2*i), Arrival: t0 + int64(i)*int64(time.Millisecond)})
		}
		f.Finish([]parser.Session{{HTTPStatus: 200, StartArrival: t0, EndArrival: t0 + int64(time.Hour),
			Request: &parser.Request{Watch: true}}}, nil)
		for _, s := range samples {
			if strings.HasSuffix(s, ".go") || strings.HasSuffix(s, ".md") || strings.HasSuffix(s, ".tsv") {
				continue
			}
			data, err := os.ReadFile(s)
			if err != nil {
				t.Fatal(err)
			}
			f := b.AddFile(filepath.Base(s))
			r := parser.NewReader(bytes.NewReader(data), parser.Options{})
			for r.Next() {
				f.Add(r.Event())
			}
			f.Finish(r.Sessions(), r.Diagnostics())
		}
		return b.Build()
	}
	pauses := 0
	got, want := build(func() { pauses++ }), build(nil)
	if d := timelineDiff(got, want); d != "" {
		t.Errorf("the paused build differs: %s", d)
	}
	// MinRV, kept while building, is what RVRange finds first.
	if first := got.RVRange(0, math.MaxUint64-1, 1); len(first) == 0 {
		t.Error("no event by RV")
	} else if rv, ok := got.MinRV(); !ok || rv != got.Event(first[0]).RVNum {
		t.Errorf("MinRV %d %v, want %d", rv, ok, got.Event(first[0]).RVNum)
	}
	if _, ok := NewBuilder().Build().MinRV(); ok {
		t.Error("an empty timeline has a MinRV")
	}
	// Finish and Build each walk the events several times.
	if least := 2 * got.Len() / pauseEvery; pauses < least {
		t.Errorf("%d pauses over %d events, want at least %d", pauses, got.Len(), least)
	}
}

// timelineDiff describes the first difference between two timelines, or
// returns "".
func timelineDiff(a, b *Timeline) string {
	if a.Len() != b.Len() {
		return fmt.Sprintf("%d events, want %d", a.Len(), b.Len())
	}
	for i := 0; i < a.Len(); i++ {
		if x, y := a.Event(i), b.Event(i); !reflect.DeepEqual(x, y) {
			return fmt.Sprintf("event %d is %+v, want %+v", i, x, y)
		}
	}
	for _, c := range []struct {
		what string
		x, y any
	}{
		{"files", a.Files, b.Files}, {"sessions", a.Sessions, b.Sessions}, {"lanes", allLanes(a), allLanes(b)},
		{"anomalies", a.Anomalies, b.Anomalies}, {"specials", a.Specials(), b.Specials()},
	} {
		if !reflect.DeepEqual(c.x, c.y) {
			return c.what + " differ"
		}
	}
	for l := range a.Lanes.Len() {
		if !reflect.DeepEqual(a.LaneEvents(l), b.LaneEvents(l)) {
			return fmt.Sprintf("lane %d's events differ", l)
		}
	}
	steps := func(s *Steps) (out [][2]uint64) {
		for k := 0; k < s.Len(); k++ {
			t, rv := s.Step(k)
			out = append(out, [2]uint64{uint64(t), rv})
		}
		return out
	}
	if !reflect.DeepEqual(steps(a.HeadSteps()), steps(b.HeadSteps())) {
		return "head steps differ"
	}
	for k := range a.Cursors {
		if !reflect.DeepEqual(steps(&a.Cursors[k].Steps), steps(&b.Cursors[k].Steps)) || a.Cursors[k].End != b.Cursors[k].End {
			return fmt.Sprintf("cursor %d differs", k)
		}
	}
	return analysisDiff(a.Analyze(DefaultParams()), b.Analyze(DefaultParams()))
}

// analysisDiff names the first of the answers two analyses differ in, or
// returns "".
func analysisDiff(a, b *Analysis) string {
	// A counterfactual cursor's steps refer to their timeline: compare
	// their values.
	had := func(an *Analysis) (out []any) {
		for _, cf := range an.HadBookmarks {
			var steps [][2]uint64
			for k := 0; k < cf.Len(); k++ {
				t, rv := cf.Step(k)
				steps = append(steps, [2]uint64{uint64(t), rv})
			}
			cf.Steps = Steps{}
			out = append(out, cf, steps)
		}
		return out
	}
	for _, c := range []struct {
		what string
		x, y any
	}{
		{"zones", a.Zones, b.Zones}, {"risk zones", a.RiskZones, b.RiskZones}, {"gaps", a.Gaps, b.Gaps}, {"ages", a.Ages, b.Ages},
		{"resumes", a.Resumes, b.Resumes}, {"what-if", a.WhatIf, b.WhatIf}, {"had bookmarks", had(a), had(b)},
		{"horizons", a.Horizons, b.Horizons}, {"restarts", a.Restarts, b.Restarts}, {"fleet", a.Fleet(), b.Fleet()},
		{"summary", a.Summary(nil), b.Summary(nil)},
	} {
		if !reflect.DeepEqual(c.x, c.y) {
			return c.what + " differ"
		}
	}
	return ""
}

// SearchT, which narrows on sampled instants, finds what a plain binary
// search over every step's instant finds, at every window edge.
func TestStepsSearchT(t *testing.T) {
	var all []string
	for name := range manifest(t) {
		all = append(all, name)
	}
	sort.Strings(all)
	b := NewBuilder()
	addSynthetic(b, 5_000)
	// Watches resumed from an older RV: each sets the cursors to a value
	// no event has, a step kept apart, here inside a sample's spacing.
	resumed := &capture{}
	rv := uint64(100)
	for k := range 5 {
		start := time.Duration(k) * 100 * s
		resumed.watch(narrow(strconv.FormatUint(rv-7, 10), true), start, start+99*s)
		for e := range 45 {
			rv++
			resumed.ev(parser.Modified, rv, start+time.Duration(e+1)*s, "a")
		}
	}
	for _, tl := range []*Timeline{loadSamples(t, all...), b.Build(), build(resumed)} {
		series := []*Steps{tl.HeadSteps()}
		for k := range tl.Cursors {
			series = append(series, &tl.Cursors[k].Steps)
		}
		extras := 0
		for n, st := range series {
			m := st.Len()
			// The samples and descents, kept as the steps were built,
			// are what the steps decoded say.
			var sampled []int64
			var desc []int32
			for k := range m {
				tk, rv := st.Step(k)
				if k%stepSample == 0 {
					sampled = append(sampled, tk)
				}
				if _, prev := st.Step(max(k-1, 0)); rv == unsetRV || k > 0 && (prev == unsetRV || rv < prev) {
					desc = append(desc, int32(k))
				}
			}
			if !slices.Equal(st.sampleT, sampled) || !slices.Equal(st.Descents(), desc) {
				t.Fatalf("series %d of %d steps: samples %v and descents %v, the steps say %v and %v", n, m, st.sampleT, st.Descents(), sampled, desc)
			}
			// Searches that end at a step kept apart (no event), inside a
			// sample's spacing, where SearchT decodes the steps.
			for k := range m {
				if st.ev.at(k) >= 0 {
					continue
				}
				extras++
				for _, at := range []int64{st.T(k) - 1, st.T(k), st.T(k) + 1} {
					lo, hi := max(0, k-stepSample-3), min(m, k+stepSample+3)
					want := lo + sort.Search(hi-lo, func(x int) bool { return st.T(lo+x) >= at })
					if got := st.SearchT(lo, hi, at); got != want {
						t.Fatalf("series %d, around step %d kept apart: SearchT(%d, %d, >= %d) = %d, want %d", n, k, lo, hi, at, got, want)
					}
				}
			}
			for _, lo := range []int{0, 1, stepSample - 1, stepSample, stepSample + 1, m / 3} {
				for _, hi := range []int{m, m - 1, m / 2, lo + stepSample, lo + 1, lo} {
					lo, hi := min(lo, m), max(min(hi, m), min(lo, m))
					for k := lo; k < hi; k += max(1, (hi-lo)/50) {
						for _, at := range []int64{st.T(k) - 1, st.T(k), st.T(k) + 1} {
							want := lo + sort.Search(hi-lo, func(x int) bool { return st.T(lo+x) >= at })
							if got := st.SearchT(lo, hi, at); got != want {
								t.Fatalf("series %d of %d steps: SearchT(%d, %d, >= %d) = %d, want %d", n, m, lo, hi, at, got, want)
							}
						}
					}
				}
			}
		}
		if extras == 0 {
			t.Error("no step kept apart in these series: the test misses them")
		}
	}
}

func TestLanesFollowUIDsWhateverTheNumbers(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 10*s).
		ev(parser.Added, 1, 1*s, "a").ev(parser.Added, 2, 2*s, "b").ev(parser.Modified, 3, 3*s, "a").
		ev(parser.Modified, 4, 4*s, "b").ev(parser.Added, 5, 5*s, "c").ev(parser.Modified, 6, 6*s, "c")
	// The parser numbers a and b (Identity); then b comes with a's number,
	// as an event of another Reader could, and c is not numbered at all.
	for i, n := range []uint32{1, 2, 1, 1, 0, 0} {
		c.evs[i].Identity = n
	}
	tl := build(c)
	if tl.Lanes.Len() != 3 {
		t.Fatalf("%d lanes, want one per uid: %+v", tl.Lanes.Len(), allLanes(tl))
	}
	for i, e := range c.evs {
		if got := tl.Lanes.UID(tl.Event(i).Lane); got != e.UID {
			t.Errorf("event %d is on the lane of uid %q, want %q", i, got, e.UID)
		}
	}
}

func TestEventsKeepTheirRVText(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 10*s)
	for k, rv := range []string{"0", "7", "007", "18446744073709551615", "18446744073709551616", "x1"} {
		c.ev(parser.Modified, uint64(k), time.Duration(k+1)*s, "a")
		e := &c.evs[len(c.evs)-1]
		n, err := strconv.ParseUint(rv, 10, 64)
		e.RV, e.RVNum, e.RVValid = rv, n, err == nil
	}
	tl := build(c)
	for i, e := range c.evs {
		if got := tl.Event(i).RV; got != e.RV {
			t.Errorf("event %d reads RV %q, sent %q", i, got, e.RV)
		}
	}
}

// Two objects whose uid, name and namespace run together into the same
// bytes get two numbers from the parser (parser.Event.Identity), which
// the timeline trusts without checking the uid: each has its own lane.
func TestObjectsRunningTogetherKeepTheirLanes(t *testing.T) {
	const capture = `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"ab","namespace":"ns","uid":"u1","resourceVersion":"1"}}}
{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"b","namespace":"ns","uid":"u1a","resourceVersion":"2"}}}
{"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"ab","namespace":"ns","uid":"u1","resourceVersion":"3"}}}
{"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"b","namespace":"ns","uid":"u1a","resourceVersion":"4"}}}
`
	var ids []uint32
	rd := parser.NewReader(strings.NewReader(capture), parser.Options{})
	for rd.Next() {
		ids = append(ids, rd.Event().Identity)
	}
	if len(ids) != 4 || ids[0] == 0 || ids[1] == 0 || ids[0] == ids[1] || ids[0] != ids[2] || ids[1] != ids[3] {
		t.Fatalf("the parser numbered the objects %v, want two numbers, one for each", ids)
	}
	b := NewBuilder()
	if err := b.AddReader("f", strings.NewReader(capture), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	if tl.Lanes.Len() != 2 {
		t.Fatalf("%d lanes, want one per uid: %+v", tl.Lanes.Len(), allLanes(tl))
	}
	for i := range 4 {
		want := []string{"u1", "u1a"}[i%2]
		if got := tl.Lanes.UID(tl.Event(i).Lane); got != want {
			t.Errorf("event %d is on the lane of uid %q, want %q", i, got, want)
		}
	}
}

// TestCacheTimeRefusesOnceRVPlusOneCanGo: the watch cache refuses a
// watch from r once its oldest change held is past r+1 (r < oldest-1,
// evidence.md §3.1), keeps every change of the last 75 s, and lets an
// older one go only as a change is added. A client at RV 10 while the
// whole type changed to 11 at 1 s, 13 at 2 s and 14 at 76 s: the change
// r+1 is the one at 1 s, which 14 may push out at 76 s, where a model
// counting from 13 would wait for a change at 77 s or later. Without a
// change 11 (12 at 1 s), the first change past the cursor is 12, at 1 s
// too. With nothing after 13 until 100 s, nothing pushes 11 out before
// then: the cursor is good until that change comes, and where none
// comes, until the watch of the whole type that would have seen it ends.
func TestCacheTimeRefusesOnceRVPlusOneCanGo(t *testing.T) {
	judge := func(changes [][2]int, when time.Duration) Verdict {
		t.Helper()
		client := (&capture{}).watch(narrow("1", false), 0, 200*s).ev(parser.Modified, 10, 0, "a")
		cluster := (&capture{}).watch(req("1", false), 0, 200*s).ev(parser.Modified, 10, 0, "a")
		for k, c := range changes {
			cluster.ev(parser.Added, uint64(c[0]), time.Duration(c[1])*s, "o"+strconv.Itoa(k))
		}
		return build(client, cluster).Analyze(params(func(p *Params) { p.CacheCount = 1 << 20 })).Verdict(0, BookmarkIgnoring, at(when), 0)
	}
	for _, tc := range []struct {
		name    string
		changes [][2]int
		when    time.Duration
		want    Outcome
	}{
		{"r+1 at 1 s, before it can go", [][2]int{{11, 1}, {13, 2}, {14, 76}, {15, 90}}, 76*s - 1, Accepted},
		{"r+1 at 1 s, once it can go", [][2]int{{11, 1}, {13, 2}, {14, 76}, {15, 90}}, 76 * s, AtRisk},
		{"no r+1, 12 at 1 s", [][2]int{{12, 1}, {13, 2}, {14, 76}, {15, 90}}, 76 * s, AtRisk},
		{"no r+1, before 12 can go", [][2]int{{12, 1}, {13, 2}, {14, 76}, {15, 90}}, 76*s - 1, Accepted},
		{"r+1, then nothing until 100 s", [][2]int{{11, 1}, {13, 100}}, 90 * s, Accepted},
		{"r+1, and the next change at 100 s", [][2]int{{11, 1}, {13, 100}}, 100 * s, AtRisk},
		{"r+1, no change after the window", [][2]int{{11, 1}, {13, 2}}, 199 * s, Accepted},
		{"r+1, no change after the window, once the whole type's watch ended", [][2]int{{11, 1}, {13, 2}}, 200 * s, AtRisk},
	} {
		v := judge(tc.changes, tc.when)
		if v.Outcome != tc.want {
			t.Errorf("%s: %v at %v, want %v: %s", tc.name, v.Outcome, tc.when, tc.want, v.Reason)
		}
		if (tc.name == "r+1, then nothing until 100 s" || tc.name == "r+1, no change after the window") && !strings.Contains(v.Reason, "lets the change past it go only as another change comes after that, and none had come") {
			t.Errorf("%s: %q does not say why a cursor stale for longer than the window is good", tc.name, v.Reason)
		}
	}
}

// TestFirstAtMatchesAScan: kindSeries.firstAt gallops from a start to the
// first change at or after an instant; over series of up to 300 changes,
// some at the same instant, and every start and instant around them, it
// answers as a scan from the start does.
func TestFirstAtMatchesAScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		c := (&capture{}).watch(req("1", false), 0, time.Hour)
		when := time.Duration(0)
		n := 1 + rng.IntN(300)
		for k := range n {
			when += time.Duration(rng.IntN(3)) * time.Second // 0: changes at the same instant
			c.ev(parser.Added, uint64(k+2), when, "o"+strconv.Itoa(k))
		}
		tl := build(c)
		s := tl.series["ConfigMap"]
		if s == nil || s.len() != n {
			t.Fatalf("round %d: a series of %v changes, want %d", round, s, n)
		}
		for start := 0; start <= n; start += 1 + rng.IntN(7) {
			for probe := 0; probe < 40; probe++ {
				inst := at(time.Duration(rng.Int64N(int64(when + 2*time.Second))))
				want := start
				for want < n && s.t(want) < inst {
					want++
				}
				if got := s.firstAt(nil, start, inst); got != want {
					t.Fatalf("round %d, %d changes: firstAt(%d, %v) = %d, want %d", round, n, start, time.Duration(inst-t0), got, want)
				}
			}
		}
	}
}
