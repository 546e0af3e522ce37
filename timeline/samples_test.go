package timeline

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

const samplesDir = "../samples"

// loadSamples builds one timeline of the named samples, on one clock.
func loadSamples(t testing.TB, names ...string) *Timeline {
	t.Helper()
	return buildFiles(t, samplesDir, names...)
}

// buildFiles builds one timeline of the named files of dir, on one clock.
func buildFiles(t testing.TB, dir string, names ...string) *Timeline {
	t.Helper()
	b := NewBuilder()
	for _, n := range names {
		f, err := os.Open(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(n, f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	return b.Build()
}

// manifest returns the samples listed in MANIFEST.tsv with their counts.
func manifest(t *testing.T) map[string]map[string]int {
	t.Helper()
	return testsample.Manifest(t, samplesDir)
}

func TestSamplesCounts(t *testing.T) {
	for name, want := range manifest(t) {
		tl := loadSamples(t, name)
		got := tl.Files[0].Counts
		for typ, n := range want {
			if got[typ] != n {
				t.Errorf("%s: %s = %d, want %d", name, typ, got[typ], n)
			}
		}
		if len(tl.Anomalies) != 0 {
			t.Errorf("%s: real captures from a correct server have no anomalies: %+v", name, tl.Anomalies)
		}
	}
}

// The matching window model for the real server: watch cache on, at least
// 75 s of history (its default), --etcd-compaction-interval=10s.
func realServer() Params {
	p := DefaultParams()
	p.EtcdInterval = 10e9
	return p
}

// Every observed resume must come out as the server answered: the 410 of
// w4 predicted from the events before it, the accepted resume of w3 not.
func TestSamplesResumesPredicted(t *testing.T) {
	sets := [][]string{
		{"w4-then-resume.http"}, {"w4-then-resume.ts.http"},
		{"w3-then-resume.http"}, {"w3-then-resume.ts.http"},
		{"w3-then-resume.http", "w4-then-resume.http"},
		{"w3-then-resume.ts.http", "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http"},
	}
	for _, set := range sets {
		tl := loadSamples(t, set...)
		a := tl.Analyze(realServer())
		seen := map[string]bool{}
		for _, r := range a.Resumes {
			f := tl.Files[tl.Sessions[r.Session].File].Name
			seen[f] = true
			// With the broad capture on the clock the models decide; a
			// narrow capture alone can say no more than "at risk".
			decided := len(set) == 3
			if r.Contradicts() || decided && r.Observed != r.Predicted.Outcome || !decided && r.Predicted.Outcome == Accepted && r.Observed == Refused {
				t.Errorf("%v: %s session %d from %s: observed %v, predicted %v (%s)", set, f, tl.Sessions[r.Session].Index, r.RV, r.Observed, r.Predicted.Outcome, r.Predicted.Reason)
			}
			want := Accepted
			if strings.HasPrefix(f, "w4") {
				want = Refused
			}
			if r.Observed != want {
				t.Errorf("%v: %s observed %v", set, f, r.Observed)
			}
		}
		for _, f := range set {
			if strings.Contains(f, "resume") && !seen[f] {
				t.Errorf("%v: no resume checked in %s", set, f)
			}
		}
	}
}

// Observed too-old errors are ground truth: the cursor they name must be
// at risk at that instant for a narrow capture alone, refused with the
// broad capture on the clock, and the head must not contradict Y (the
// server accepted RVs from Y on, so Y existed).
func TestSamplesObservedErrorInRedZone(t *testing.T) {
	for _, set := range [][]string{{"w4-then-resume.http"}, {"w4-then-resume.ts.http"}, {"w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http"}} {
		name := strings.Join(set, "+")
		want := AtRisk
		if len(set) > 1 {
			want = Refused
		}
		tl := loadSamples(t, set...)
		a := tl.Analyze(realServer())
		found := false
		for i := 0; i < tl.Len(); i++ {
			e := tl.Event(i)
			if e.Status == nil || !e.Status.TooOld {
				continue
			}
			found = true
			s := tl.Sessions[e.Session]
			prev := tl.Sessions[tl.Files[s.File].Sessions[s.Index-1]] // the watch whose cursor was resumed
			v := a.Verdict(s.File, BookmarkAware, prev.End, 0)
			if v.Outcome != want || v.RV != e.Status.X {
				t.Errorf("%s: cursor %d at the drop: %v %s", name, v.RV, v.Outcome, v.Reason)
			}
			if h, _ := tl.Head(e.T); h < e.Status.Y {
				t.Errorf("%s: head %d below Y %d", name, h, e.Status.Y)
			}
		}
		if !found {
			t.Errorf("%s: no too-old error", name)
		}
	}
}

// Captures recorded together share one clock: the broad ConfigMap watch
// shows the head moving while the quiet w4 cursor stood still.
func TestSamplesSharedClock(t *testing.T) {
	tl := loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	a := tl.Analyze(realServer())
	var longest *Gap
	for k := range a.Gaps {
		if g := &a.Gaps[k]; g.File == 0 && (longest == nil || g.AgeTime > longest.AgeTime) {
			longest = g
		}
	}
	if longest == nil || longest.RV != 389 || longest.AgeRV < 1000 || longest.AgeTime < 9*60e9 {
		t.Fatalf("w4's cursor 389 should lag the broad watch's head by >1000 RVs for >9 min: %+v", longest)
	}
	seen := false
	for _, e := range tl.ObservedErrors() {
		if st := e.Status; st.TooOld && st.Y == 1411 {
			seen = true
			if h, ok := tl.HeadPassed(st.Y); !ok || e.T-h < 75e9 {
				t.Errorf("error implies at least 75 s of history on this server: %+v, the head passed %d at %d", e, st.Y, h)
			}
		}
	}
	if !seen {
		t.Error("no error says 1411 was the oldest RV kept")
	}
}

func TestSamplesWhatIf(t *testing.T) {
	a := loadSamples(t, "w3-then-resume.ts.http").Analyze(realServer())
	if w := a.WhatIf; w.Reconnects != 1 || w.RelistsWith != 0 || w.AtRiskWith != 0 || w.AtRiskWithout != 1 {
		t.Errorf("w3: %+v", w)
	}
	a = loadSamples(t, "w3-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer())
	if w := a.WhatIf; w.RelistsWith != 0 || w.RelistsWithout != 1 || w.SavedPercent != 100 {
		t.Errorf("w3 + w1: %+v", w)
	}
	a = loadSamples(t, "w4-then-resume.ts.http").Analyze(realServer())
	if w := a.WhatIf; w.Reconnects != 1 || w.AtRiskWith != 1 || w.AtRiskWithout != 1 || w.UnknownHad != 1 {
		t.Errorf("w4: %+v", w)
	}
	a = loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer())
	if w := a.WhatIf; w.RelistsWith != 1 || w.RelistsWithout != 1 || w.RelistsHad != 0 {
		t.Errorf("w4 + w1: %+v", w)
	}
}

// Without arrival times the instants are estimated (clock.go); the .ts
// twins recorded the real ones, so the estimate can be held to them.
func TestSamplesEstimatedClockMatchesArrival(t *testing.T) {
	for _, base := range []string{"w1-broad-configmaps-bookmarks", "w3-narrow-label-bookmarks", "w3-then-resume", "w4-then-resume", "w6-sendinitialevents-rig-a"} {
		est, real := loadSamples(t, base+".http"), loadSamples(t, base+".ts.http")
		if est.Files[0].Clock != ClockEstimated || real.Files[0].Clock != ClockArrival || est.Len() != real.Len() {
			t.Fatalf("%s: clocks %v %v, %d vs %d events", base, est.Files[0].Clock, real.Files[0].Clock, est.Len(), real.Len())
		}
		var errs []time.Duration
		for i := 0; i < est.Len(); i++ {
			errs = append(errs, (time.Duration(est.Event(i).T - real.Event(i).T)).Abs())
		}
		sort.Slice(errs, func(i, j int) bool { return errs[i] < errs[j] })
		var sum time.Duration
		for _, e := range errs {
			sum += e
		}
		mean, p90 := sum/time.Duration(len(errs)), errs[len(errs)*9/10]
		if mean > 2*time.Second || p90 > 3*time.Second {
			t.Errorf("%s: estimated instants off by %v on average, %v at the 90th percentile", base, mean, p90)
		}
		for k := range est.Sessions {
			if d := time.Duration(est.Sessions[k].Start - real.Sessions[k].Start).Abs(); d > time.Second {
				t.Errorf("%s: session %d starts %v off", base, k, d)
			}
		}
	}
}
