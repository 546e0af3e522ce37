package timeline

import (
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// zoneOutcome is what the zones drawn for cursor kind of file say of a
// drop at t: refused inside a red zone, else at risk inside a risk zone,
// else accepted.
func zoneOutcome(a *Analysis, file int, kind CursorKind, t int64) Outcome {
	in := func(zs []Zone) bool {
		for _, z := range zs {
			if z.File == file && z.Kind == kind && z.From <= t && t < z.To {
				return true
			}
		}
		return false
	}
	switch {
	case in(a.Zones):
		return Refused
	case in(a.RiskZones):
		return AtRisk
	}
	return Accepted
}

// goneInstants are the distinct instants, in order, at which the record
// shows a server answering 410 Gone.
func goneInstants(tl *Timeline) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, e := range tl.ObservedErrors() {
		if gone(e.Status) && !seen[e.T] {
			seen[e.T] = true
			out = append(out, e.T)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// TestObservedGoneInstantsAgree: at the instant of each 410 a real
// capture shows, the zones (and the fleet's curves built on them), a
// reconnect asked then (ResumeAt: the Reconnect tab and --resume-at) and
// a drop hovered then (Verdict) give every cursor the same answer. The
// 410 is the server refusing at that instant, so each counts it: on
// w4-then-resume.http, whose 410 comes at its last instant, the zones
// said refused and ResumeAt at risk, for it counted only the errors
// observed strictly before the instant asked.
func TestObservedGoneInstantsAgree(t *testing.T) {
	var sets []func(t *testing.T) *Timeline
	names := []string{}
	samples, err := os.ReadDir(samplesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range samples {
		n := e.Name()
		if e.IsDir() || strings.HasSuffix(n, ".md") || strings.HasSuffix(n, ".go") || strings.HasSuffix(n, ".tsv") {
			continue
		}
		names = append(names, n)
		sets = append(sets, func(t *testing.T) *Timeline { return loadSamples(t, n) })
	}
	// The narrow captures with the broad one recorded beside them, on
	// one clock: there the models decide.
	names = append(names, "w4+w3+w1")
	sets = append(sets, func(t *testing.T) *Timeline {
		return loadSamples(t, "w4-then-resume.ts.http", "w3-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	})
	for _, rec := range recordings {
		names = append(names, rec.name)
		sets = append(sets, func(t *testing.T) *Timeline { return buildRecording(t, rec.name, rec.patterns...) })
	}
	total, refusedTotal := 0, 0
	for k, name := range names {
		t.Run(name, func(t *testing.T) {
			tl := sets[k](t)
			a := tl.Analyze(DefaultParams())
			compared, refused, differ := 0, 0, 0
			for _, at := range goneInstants(tl) {
				for fi, f := range tl.Files {
					if f.Clock == ClockNone || at < f.Start {
						continue
					}
					for _, v := range a.ResumeAt(fi, at) {
						if v.Outcome == Unknown {
							continue // no cursor to judge: no zone either
						}
						compared++
						if v.Outcome == Refused {
							refused++
						}
						zone := zoneOutcome(a, fi, v.Kind, at)
						hover := a.Verdict(fi, v.Kind, at, a.Params.Delay)
						if zone != v.Outcome || hover.Outcome != v.Outcome {
							differ++
							if differ <= 5 {
								t.Errorf("%s, %v cursor, at the 410 of %s: the zones say %v, a drop hovered then %v, a reconnect asked then %v (%s)",
									f.Name, v.Kind, FormatInstant(at, time.UTC), zone, hover.Outcome, v.Outcome, v.Reason)
							}
						}
					}
				}
			}
			if differ > 0 {
				t.Errorf("%d of %d answers at the 410s' instants differ", differ, compared)
			}
			total += compared
			refusedTotal += refused
		})
	}
	if total == 0 || refusedTotal == 0 {
		t.Errorf("%d answers compared at the 410s' instants, %d refused: the comparison misses the 410s", total, refusedTotal)
	}
}
