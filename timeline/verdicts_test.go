package timeline

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// cutBefore returns a timestamped capture's bytes before its n-th request
// line (0-based): the capture as it stood when the client dropped.
func cutBefore(t *testing.T, data []byte, n int) []byte {
	t.Helper()
	off, seen := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		if _, rest, ok := bytes.Cut(line, []byte(" ")); ok && bytes.HasPrefix(rest, []byte("GET ")) {
			if seen == n {
				return data[:off]
			}
			seen++
		}
		off += len(line) + 1
	}
	t.Fatalf("no request %d", n)
	return nil
}

// fleetDir holds the fleet recording of ../shared/samples-fleet: 44
// client-go informers through a rolling restart of two API servers.
const fleetDir = "../testdata/fleet"

// fleetParams is the server model of the fleet recording: real retention,
// etcd compacting every minute, two API servers and the two restart
// windows of its timeline.txt, from SIGTERM to the new server ready.
func fleetParams(t testing.TB) Params {
	t.Helper()
	p := realServer()
	p.EtcdInterval = time.Minute
	p.Servers = 2
	p.Restarts = []Restart{
		{instant(t, "2026-12-01T08:40:32.35Z"), instant(t, "2026-12-01T08:41:37.00Z")},
		{instant(t, "2026-12-01T08:44:07.07Z"), instant(t, "2026-12-01T08:45:12.38Z")},
	}
	return p
}

// buildBytes builds one timeline of named in-memory captures.
func buildBytes(t testing.TB, files map[string][]byte, order ...string) *Timeline {
	t.Helper()
	b := NewBuilder()
	for _, n := range order {
		if err := b.AddReader(n, bytes.NewReader(files[n]), parser.Options{}); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	return b.Build()
}

func instant(t testing.TB, s string) int64 {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v.UnixNano()
}

// verdictsAt returns the verdict per cursor kind of a reconnect at at.
func verdictsAt(a *Analysis, file int, at int64) map[CursorKind]Verdict {
	out := map[CursorKind]Verdict{}
	for _, v := range a.ResumeAt(file, at) {
		out[v.Kind] = v
	}
	return out
}

// w4 and w3 cut where their clients dropped, resumed at the instant their
// real resumes were sent: with the broad capture of every ConfigMap on
// the same clock the models must say what the real server answered,
// with no -delay; alone, no more than "at risk".
func TestResumeAtCutCaptures(t *testing.T) {
	w1 := testsample.SampleBytes(t, "w1-broad-configmaps-bookmarks.ts.http")
	w4 := cutBefore(t, testsample.SampleBytes(t, "w4-then-resume.ts.http"), 1)
	w3 := cutBefore(t, testsample.SampleBytes(t, "w3-then-resume.ts.http"), 1)
	files := map[string][]byte{"w1": w1, "w4cut": w4, "w3cut": w3}

	w4at := instant(t, "2026-11-30T01:04:24.98Z")
	a := buildBytes(t, files, "w4cut", "w1").Analyze(realServer())
	v := verdictsAt(a, 0, w4at)
	for _, k := range CursorKinds {
		if v[k].Outcome != Refused {
			t.Errorf("w4 cut + w1, %v: %v (%s), want refused as the server did", k, v[k].Outcome, v[k].Reason)
		}
	}
	if had := v[HadBookmarks]; had.Outcome != Accepted || had.At-had.Since > int64(5*time.Second) {
		t.Errorf("w4 cut + w1, had it asked for bookmarks: %v, cursor %s old (%s); w3, the same object with bookmarks, was accepted",
			had.Outcome, time.Duration(had.At-had.Since), had.Reason)
	}

	a = buildBytes(t, files, "w4cut").Analyze(realServer())
	v = verdictsAt(a, 0, w4at)
	for _, k := range CursorKinds {
		if o := v[k].Outcome; o != AtRisk && o != Refused {
			t.Errorf("w4 cut alone, %v: %v (%s), want at least at risk", k, o, v[k].Reason)
		}
	}
	if had := v[HadBookmarks]; had.Outcome != Unknown {
		t.Errorf("w4 cut alone, had it asked for bookmarks: %v (%s), want unknown: nothing shows the head", had.Outcome, had.Reason)
	}

	a = buildBytes(t, files, "w3cut", "w1").Analyze(realServer())
	v = verdictsAt(a, 0, instant(t, "2026-11-30T01:05:24.559430846Z"))
	if v[BookmarkAware].Outcome != Accepted || v[BookmarkIgnoring].Outcome != Refused {
		t.Errorf("w3 cut + w1: with bookmarks %v (%s), without %v (%s); want accepted and refused",
			v[BookmarkAware].Outcome, v[BookmarkAware].Reason, v[BookmarkIgnoring].Outcome, v[BookmarkIgnoring].Reason)
	}
	if _, ok := v[HadBookmarks]; ok {
		t.Errorf("w3 got bookmarks: it needs no counterfactual")
	}
}

// Red zones and horizons run on past a narrow capture's end while a broad
// one on the same clock goes on, to the clock's last instant included.
func TestZonesRunToTheSharedClock(t *testing.T) {
	files := map[string][]byte{
		"w1":    testsample.SampleBytes(t, "w1-broad-configmaps-bookmarks.ts.http"),
		"w4cut": cutBefore(t, testsample.SampleBytes(t, "w4-then-resume.ts.http"), 1),
	}
	tl := buildBytes(t, files, "w4cut", "w1")
	a := tl.Analyze(realServer())
	if tl.Files[0].End >= tl.End() {
		t.Fatalf("the cut capture must stop before the broad one")
	}
	var reached bool
	for _, z := range a.Zones {
		if z.File == 0 && z.Kind == BookmarkIgnoring && z.To == tl.End()+1 && z.Model == ModelCacheCapacity {
			reached = true
		}
	}
	if !reached {
		t.Errorf("no capacity zone of the cut capture reaches the shared clock's end: %+v", a.Zones)
	}
	var h *Horizon
	for k := range a.Horizons {
		if x := &a.Horizons[k]; x.File == 0 && x.Kind == BookmarkIgnoring {
			h = x
		}
	}
	if h == nil || h.RefusedFrom != h.Drop || h.RefusedModel != ModelCacheCapacity || h.RiskFrom != h.Drop {
		t.Fatalf("horizon of the cut capture's drop: %+v", h)
	}
}

// w4 and w3 are the same quiet object without and with bookmarks. With
// w1 on the clock, w4's counterfactual must get what w3 really got.
func TestCounterfactualBookmarks(t *testing.T) {
	a := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer())
	cf := a.HadBookmarks[0]
	if !cf.Synthetic || cf.Bookmarks < 9 || cf.Unknown != 0 {
		t.Fatalf("w4's counterfactual: %+v", cf)
	}
	if len(a.WhatIf.Points) != 1 {
		t.Fatalf("w4 has one reconnect: %+v", a.WhatIf.Points)
	}
	pt := a.WhatIf.Points[0]
	if pt.Had.Outcome != Accepted || pt.With.Outcome != Refused {
		t.Errorf("w4 + w1 at the reconnect: had bookmarks %v (%s), recorded %v", pt.Had.Outcome, pt.Had.Reason, pt.With.Outcome)
	}
	if cf := a.HadBookmarks[1]; cf.Synthetic {
		t.Errorf("w1 got bookmarks, so no counterfactual: %+v", cf)
	}

	// Alone, nothing shows the head before the 410 says it was 1411.
	a = loadSamples(t, "w4-then-resume.ts.http").Analyze(realServer())
	cf = a.HadBookmarks[0]
	if cf.Unknown != cf.Bookmarks || cf.HeadKnownY != 1411 {
		t.Fatalf("w4 alone: %+v", cf)
	}
	if pt := a.WhatIf.Points[0]; pt.Had.Outcome != Unknown || !strings.Contains(pt.Had.Reason, "at least 1411") {
		t.Errorf("w4 alone, had bookmarks: %v (%s)", pt.Had.Outcome, pt.Had.Reason)
	}
	sum := a.Summary(nil)
	var saysUnknown bool
	for _, l := range sum {
		saysUnknown = saysUnknown || l.Topic == "bookmarks" && strings.Contains(l.Text, "Unknown")
	}
	if !saysUnknown {
		t.Errorf("w4 alone: the summary must say the counterfactual is unknown: %+v", sum)
	}
}

// Events are served from etcd: no periodic bookmarks, no credit.
func TestCounterfactualNoCreditFromEtcd(t *testing.T) {
	c := (&capture{}).watch(narrow("1", false), 0, 600*s).ev(parser.Modified, 10, 1*s, "a")
	c.evs[0].Kind = "Event"
	a := build(c).Analyze(params(nil))
	if cf := a.HadBookmarks[0]; cf.Synthetic || !strings.Contains(cf.Why, "etcd") {
		t.Fatalf("Event watch: %+v", cf)
	}
	c.evs[0].Kind = "ConfigMap"
	a = build(c).Analyze(params(nil))
	if cf := a.HadBookmarks[0]; !cf.Synthetic || cf.Bookmarks != 9 {
		t.Fatalf("ConfigMap watch of 600 s: want 9 bookmarks (every 60 s), %+v", cf)
	}
}

// The replayed cache at a steady rate of one change a second: never full
// of fresh changes, never a quarter stale, so it stays at 100 and holds
// 100 s.
func TestCacheReplaySteadyRate(t *testing.T) {
	c := (&capture{}).watch(nil, 0, 400*s)
	for k := 0; k < 300; k++ {
		c.ev(parser.Modified, uint64(1000+k), time.Duration(k)*s, "o"+strconvItoa(k%7))
	}
	c.sess[0].Request = &parser.Request{Method: "GET", Path: "/api/v1/configmaps", Watch: true}
	a := build(c).Analyze(params(nil))
	r := a.capacity["ConfigMap"]
	if r == nil {
		t.Fatal("no replay for a broad capture")
	}
	if r.minCap != 100 || r.maxCap != 100 {
		t.Errorf("capacity %d..%d, want 100", r.minCap, r.maxCap)
	}
	// RV 1049 (at 49 s) is refused once 1050 is evicted: by the change
	// at 150 s.
	if got := r.refusedFrom(1049, nil, nil); got != at(150*s) {
		t.Errorf("RV 1049 refused from %v, want 150 s", time.Duration(got-t0))
	}
	// At ten changes a second the cache doubles while full of fresh
	// changes.
	c = (&capture{}).watch(nil, 0, 400*s)
	for k := 0; k < 3000; k++ {
		c.ev(parser.Modified, uint64(1000+k), time.Duration(k)*s/10, "o"+strconvItoa(k%7))
	}
	c.sess[0].Request = &parser.Request{Method: "GET", Path: "/api/v1/configmaps", Watch: true}
	r = build(c).Analyze(params(nil)).capacity["ConfigMap"]
	if r.maxCap != 800 {
		t.Errorf("at 10 a second, capacity reached %d, want 800 (75 s of changes need 750)", r.maxCap)
	}
}

func strconvItoa(k int) string { return string(rune('a' + k)) }

// The fleet recording: every JSON client cut before each of its resumes,
// with a broad capture on the same clock, two servers and the two
// restart windows: no verdict contradicts what the server answered.
func TestFleetVerdictsDoNotContradict(t *testing.T) {
	p := fleetParams(t)
	broad, err := os.ReadFile(filepath.Join(fleetDir, "broad-a.ts.http"))
	if err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(fleetDir, "c[0-3]*.ts.http"))
	if len(names) != 40 {
		t.Fatalf("%d JSON clients, want 40", len(names))
	}
	judged, refused := 0, 0
	for _, path := range names {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		full := loadBytesNamed(t, name, data)
		requests := 0
		for _, g := range full.Files[0].Sessions {
			s := &full.Sessions[g]
			requests++
			if s.Request == nil || !s.Request.Watch || s.Request.ResourceVersion == "" || s.Request.ResourceVersion == "0" {
				continue
			}
			observed := Accepted
			if gone(s.Error) {
				observed = Refused
			}
			cut := cutBefore(t, data, requests-1)
			a := buildBytes(t, map[string][]byte{name: cut, "broad": broad}, name, "broad").Analyze(p)
			v := verdictsAt(a, 0, s.Start)[BookmarkAware]
			if v.HasCursor && FormatRV(v.RV) != s.Request.ResourceVersion {
				continue // the client resumed from a LIST the cut ends with
			}
			judged++
			if observed == Refused {
				refused++
			}
			if (v.Outcome == Refused && observed == Accepted) || (v.Outcome == Accepted && observed == Refused) {
				t.Errorf("%s resume %d from %s at %s: predicted %v, the server %v (%s)", name, requests-1, s.Request.ResourceVersion,
					FormatTime(s.Start, ClockArrival), v.Outcome, observed, v.Reason)
			}
		}
	}
	if judged < 60 || refused < 10 {
		t.Errorf("judged %d resumes, %d of them refused: the test must exercise both outcomes", judged, refused)
	}
	t.Logf("judged %d resumes, %d refused by the server", judged, refused)
}

func loadBytesNamed(t *testing.T, name string, data []byte) *Timeline {
	return buildBytes(t, map[string][]byte{name: data}, name)
}

// Both restarts of the fleet recording are found in the clients'
// captures: the old server ended its watches at 08:41:32-33 and 08:45:07,
// and the new one served at 08:41:37.00 and 08:45:12.38. With two servers
// the clients are answered again by the other one before that: the
// evidence is the first answered reconnect, within six seconds of it.
func TestFleetRestartsDetected(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(fleetDir, "c*.ts.http"))
	var rel []string
	for _, n := range names {
		rel = append(rel, filepath.Join("..", "testdata", "fleet", filepath.Base(n)))
	}
	a := loadSamples(t, rel...).Analyze(realServer())
	want := []struct{ ended, served string }{
		{"2026-12-01T08:41:32.5Z", "2026-12-01T08:41:37.00Z"},
		{"2026-12-01T08:45:07.0Z", "2026-12-01T08:45:12.38Z"},
	}
	if len(a.Restarts) != len(want) {
		for _, d := range a.Restarts {
			t.Logf("detected: ended %s, served %s, %d watches", FormatTime(d.Ended, ClockArrival), FormatTime(d.Served, ClockArrival), len(d.Sessions))
		}
		t.Fatalf("%d restarts detected, want %d", len(a.Restarts), len(want))
	}
	for k, w := range want {
		d := a.Restarts[k]
		if diff := d.Ended - instant(t, w.ended); diff < -int64(2*time.Second) || diff > int64(2*time.Second) {
			t.Errorf("restart %d ended %s, want about %s", k, FormatTime(d.Ended, ClockArrival), w.ended)
		}
		t.Logf("restart %d: ended %s, answered again %s, %d watches in %d files", k, FormatTime(d.Ended, ClockArrival), FormatTime(d.Served, ClockArrival), len(d.Sessions), d.Files)
		if diff := d.Served - instant(t, w.served); diff < -int64(6*time.Second) || diff > int64(6*time.Second) {
			t.Errorf("restart %d served again %s, want within a few seconds of %s", k, FormatTime(d.Served, ClockArrival), w.served)
		}
		if len(d.Sessions) < 10 {
			t.Errorf("restart %d: %d watches ended", k, len(d.Sessions))
		}
	}
}

// Range statistics count what the range holds, as the files count the
// whole capture: over the whole clock they equal the files' counts,
// and a range around w4's 410 holds that one error, a zone of each
// cursor, and the cursors' ages there.
func TestRangeStats(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	a := tl.Analyze(realServer())
	counts, deleted := map[string]int{}, 0
	for _, f := range tl.Files {
		for k, n := range f.Counts {
			counts[k] += n
		}
		deleted += f.CountsKind["ConfigMap"]["DELETED"]
	}
	all := a.RangeStats(tl.Start(), tl.End()+1)
	if all.Bookmarks != counts["BOOKMARK"] || all.Errors != counts["ERROR"] || all.ByType["MODIFIED"] != counts["MODIFIED"] ||
		all.ByKind["ConfigMap"]["DELETED"] != deleted || all.Bookmarks == 0 || all.Errors == 0 {
		t.Errorf("whole clock: %+v, the files count %v", all, counts)
	}
	if all.FirstEvent != 0 || all.LastEvent != tl.Len()-1 {
		t.Errorf("whole clock spans events %d..%d of %d", all.FirstEvent, all.LastEvent, tl.Len())
	}
	from, to := instant(t, "2026-11-30T01:04:00Z"), instant(t, "2026-11-30T01:05:00Z")
	st := a.RangeStats(from, to)
	if st.Errors != 1 {
		t.Errorf("01:04-01:05 holds w4's 410: %d errors", st.Errors)
	}
	var w4zones int
	for _, z := range st.Zones {
		if z.File == 0 && z.Outcome == Refused && z.Kind != HadBookmarks {
			w4zones++
			if z.Length <= 0 || z.Length > to-from {
				t.Errorf("zone length %v in a 60 s range", time.Duration(z.Length))
			}
		}
	}
	if w4zones != 2 {
		t.Errorf("w4's refused zones in range: %+v", st.Zones)
	}
	for _, c := range st.Cursors {
		if c.File == 0 && c.Kind == BookmarkIgnoring && (c.RV != 389 || c.MaxAge < int64(9*time.Minute)) {
			t.Errorf("w4's cursor in range: %+v", c)
		}
	}
}

// One search box finds an RV, an instant, an object and a message.
func TestFind(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	m := tl.Find("389", 10, nil)
	if len(m) == 0 || m[0].Kind != MatchRV || tl.Event(m[0].Event).RV != "389" {
		t.Errorf("389: %+v", m)
	}
	if m := tl.Find("rv 1411", 10, nil); len(m) != 1 || m[0].Kind != MatchRV || tl.Event(m[0].Event).RVNum <= 1411 {
		t.Errorf("rv 1411, which no event carries: %+v", m)
	}
	if m := tl.Find("01:04:25", 10, nil); len(m) != 1 || m[0].Kind != MatchTime || m[0].T != instant(t, "2026-11-30T01:04:25Z") {
		t.Errorf("01:04:25: %+v", m)
	}
	if m := tl.Find("23:00", 10, nil); len(m) != 0 {
		t.Errorf("23:00 is outside the captures: %+v", m)
	}
	m = tl.Find("quiet/q-watched", 10, nil)
	if len(m) != 2 || m[0].Kind != MatchObject || tl.Lanes.At(m[0].Lane).Name != "q-watched" {
		t.Errorf("quiet/q-watched: %+v", m)
	}
	if m := tl.Find("TOO OLD", 10, nil); len(m) != 1 || m[0].Kind != MatchMessage || m[0].Event < 0 {
		t.Errorf("too old: %+v", m)
	}
	if m := tl.Find("cm-0", 3, nil); len(m) != 3 {
		t.Errorf("the limit: %d matches", len(m))
	}
}

// A damaged capture whose one watch spans thirty years gets a bounded
// number of counterfactual bookmarks, and says so.
func TestCounterfactualBookmarksBounded(t *testing.T) {
	c := (&capture{}).watch(narrow("1", false), 0, 30*365*24*time.Hour).ev(parser.Modified, 10, 1*s, "a")
	cf := build(c).Analyze(params(nil)).HadBookmarks[0]
	if cf.Bookmarks != maxHadBookmarks || !strings.Contains(cf.Why, "only the first") {
		t.Fatalf("%d bookmarks: %s", cf.Bookmarks, cf.Why)
	}
}

// The summary: at most six lines, the observed 410 first, in words.
func TestSummary(t *testing.T) {
	sum := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer()).Summary(nil)
	if len(sum) == 0 || len(sum) > maxSummaryLines {
		t.Fatalf("summary of %d lines: %+v", len(sum), sum)
	}
	first := sum[0]
	if first.Topic != "observed" || !strings.Contains(first.Text, "410 Gone") || !strings.Contains(first.Text, "RV 389") {
		t.Errorf("first line: %+v", first)
	}
	var bm string
	for _, l := range sum {
		if l.Topic == "bookmarks" {
			bm = l.Text
		}
	}
	if !strings.Contains(bm, "did not ask for bookmarks") || !strings.Contains(bm, "accepted") {
		t.Errorf("bookmarks line: %q", bm)
	}
}

// Range statistics on the RV axis count the events and bookmarks whose
// RV lies in the range, as a walk over every event finds them; around
// w4's stale RV 389 they hold the cursor that stood there and its zones.
func TestRangeStatsRV(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	a := tl.Analyze(realServer())
	for _, r := range [][2]uint64{{0, 1 << 40}, {380, 400}, {389, 390}, {1200, 1400}} {
		st := a.RangeStatsRV(r[0], r[1])
		byType, bookmarks, first, last := map[string]int{}, 0, -1, -1
		for i := range tl.Len() {
			p := tl.Point(i)
			if !p.RVValid || p.RV < r[0] || p.RV >= r[1] || p.Type == parser.Error {
				continue
			}
			if first < 0 {
				first = i
			}
			last = i
			if p.Type == parser.Bookmark {
				bookmarks++
			} else {
				byType[p.Type.String()]++
			}
		}
		if !st.AxisRV || st.Bookmarks != bookmarks || !maps.Equal(st.ByType, byType) || st.FirstEvent != first || st.LastEvent != last {
			t.Errorf("RVs %v: %d bookmarks, by type %v, events %d..%d; a walk finds %d, %v, %d..%d",
				r, st.Bookmarks, st.ByType, st.FirstEvent, st.LastEvent, bookmarks, byType, first, last)
		}
		if r[0] == 0 && (st.Events == 0 || bookmarks == 0) {
			t.Errorf("every RV holds %d events and %d bookmarks", st.Events, bookmarks)
		}
	}
	st := a.RangeStatsRV(389, 390)
	var cursor bool
	for _, c := range st.Cursors {
		if c.File == 0 && c.Kind == BookmarkIgnoring {
			cursor = c.RV == 389 && c.MaxAge >= int64(9*time.Minute)
		}
	}
	if !cursor {
		t.Errorf("RV 389: w4's bookmark-ignoring cursor stood there over 9 minutes: %+v", st.Cursors)
	}
	var refused int
	for _, z := range st.Zones {
		if z.File == 0 && z.Outcome == Refused && z.Length > 0 {
			refused++
		}
	}
	if refused == 0 {
		t.Errorf("RV 389: none of w4's refused zones: %+v", st.Zones)
	}
	if none := a.RangeStatsRV(390, 390); none.Events != 0 || none.FirstEvent != -1 || len(none.Zones) != 0 {
		t.Errorf("an empty RV range holds %+v", none)
	}
}

// A capture that holds no watch has no cursor for a reconnect to carry,
// and its reason says what it holds: l410-list-exact-stale-rv.http is a
// LIST's 410 response alone, and no watch of it started without a
// resourceVersion. w4's 410 ERROR ends a watch, whose cursor is judged.
func TestResumeAtACaptureOfNoWatch(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http", "l410-list-exact-stale-rv.http")
	a := tl.Analyze(DefaultParams())
	at := tl.Files[1].Start
	want := "no cursor: the capture holds no watch, only a request the server refused (HTTP 410 Gone)"
	got := a.ResumeAt(1, at)
	if len(got) == 0 {
		t.Fatal("no verdict of the LIST's 410")
	}
	for _, v := range got {
		if v.Outcome != Unknown || v.HasCursor || v.Reason != want {
			t.Errorf("%v: %v (%s), want unknown (%s)", v.Kind, v.Outcome, v.Reason, want)
		}
	}
	for _, v := range a.ResumeAt(0, tl.Files[0].End) {
		if !v.HasCursor && strings.Contains(v.Reason, "holds no watch") {
			t.Errorf("w4 %v: %s", v.Kind, v.Reason)
		}
	}
}

// Before a recording begins nothing of its cursors is known: a reconnect
// asked then (--resume-at, or an Alt-click in the page's margin before
// the recording) is not judged, and the reason says that the recording
// begins later, not that the watch started without a resourceVersion:
// w4-then-resume.http's watch asked for RV 233, and its cursor is known
// from the recording's first instant on.
func TestResumeAtBeforeTheRecording(t *testing.T) {
	a := buildBytes(t, map[string][]byte{"w4": testsample.SampleBytes(t, "w4-then-resume.http")}, "w4").Analyze(DefaultParams())
	start := a.TL.Files[0].Start
	want := "no cursor: the recording begins at " + FormatInstant(start, nil) + ", and nothing before it was recorded"
	before := a.ResumeAt(0, start-int64(5*time.Second))
	if len(before) != 3 {
		t.Fatalf("%d verdicts before the recording, want one per cursor and the had-bookmarks one", len(before))
	}
	for _, v := range before {
		if v.Outcome != Unknown || v.Reason != want {
			t.Errorf("%v 5s before the recording: %v (%s), want unknown (%s)", v.Kind, v.Outcome, v.Reason, want)
		}
	}
	for _, v := range a.ResumeAt(0, start) {
		if v.Kind != HadBookmarks && !v.HasCursor {
			t.Errorf("%v at the recording's first instant: no cursor (%s)", v.Kind, v.Reason)
		}
	}
}

// An event of an object with neither name nor uid has no lane: a range
// over it counts it by type and under NoKind, as it does the named
// object's beside it (FuzzIncident found RangeStats reading lane -1).
func TestRangeStatsObjectWithoutName(t *testing.T) {
	tl := build(new(capture).watch(req("1", true), 0, time.Minute).
		ev(parser.Added, 2, time.Second, "a").
		ev(parser.Modified, 3, 2*time.Second, "").
		bookmark(4, 3*time.Second))
	if l := tl.Point(1).Lane; l >= 0 {
		t.Fatalf("the unnamed object's event has lane %d, want none", l)
	}
	a := tl.Analyze(DefaultParams())
	for _, st := range []RangeStats{a.RangeStats(tl.Start(), tl.End()+1), a.RangeStatsRV(1, 5)} {
		if st.Events != 2 || st.ByType["MODIFIED"] != 1 || st.ByKind[NoKind]["MODIFIED"] != 1 || st.ByKind["ConfigMap"]["ADDED"] != 1 || st.Bookmarks != 1 {
			t.Errorf("axis RV %v: %d events, by type %v, by kind %v, %d bookmarks", st.AxisRV, st.Events, st.ByType, st.ByKind, st.Bookmarks)
		}
	}
}

// TestSummaryKeepsEveryInstantAsked: asked about four instants, the
// summary answers each, in the room of the lines it chose past the
// first: two of them, where it says five unasked.
func TestSummaryKeepsEveryInstantAsked(t *testing.T) {
	a := buildRecording(t, "samples-outage", "*.ts.http").Analyze(realServer())
	if n := len(a.Summary(nil)); n <= maxSummaryLines-4 {
		t.Fatalf("the summary of samples-outage's captures has %d lines: the cap is not exercised", n)
	}
	var qs []ResumeQuery
	for _, at := range []string{"2026-12-01T19:08:00Z", "2026-12-01T19:10:00Z", "2026-12-01T19:12:00Z", "2026-12-01T19:13:00Z"} {
		qs = append(qs, ResumeQuery{At: instant(t, at)})
	}
	asked, others := 0, 0
	for _, l := range a.Summary(qs) {
		if l.Topic == "resume-at" {
			asked++
		} else {
			others++
		}
	}
	if asked != len(qs) || others != maxSummaryLines-len(qs) {
		t.Errorf("asked about %d instants, the summary answers %d beside %d other lines; want every one beside %d", len(qs), asked, others, maxSummaryLines-len(qs))
	}
}
