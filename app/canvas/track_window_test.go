package canvas

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// labWhole reads every capture, audit log and Prometheus export of the
// lab, as the page reads dropped files.
func labWhole(t testing.TB) *timeline.Timeline {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	var files []string
	for _, pat := range []string{"*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	return buildFiles(t, files)
}

// The lab's servers each get a window band per resource: pointing at it
// says the window the timeline bounds then, in words, and each 410 a
// server sent is a cross below the part of its band it surely kept, its
// hover quoting the refusal.
func TestWindowTracksOfTheLab(t *testing.T) {
	tl := labWhole(t)
	p := timeline.DefaultParams()
	p.EtcdInterval = time.Minute
	a := tl.Analyze(p)
	c := NewCache(tl)
	v := wholeView(tl, a, c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	s := v.PlotScale(&layout)
	bands := trackBands(layout)
	crosses, outside := 0, 0
	for k, srv := range tl.Servers {
		for _, resource := range []string{"configmaps", "secrets"} {
			b, ok := bands["window · "+srv.Name+" · "+resource]
			if !ok {
				t.Fatalf("no window band of server %s's %s among %v", srv.Name, resource, bands)
			}
			wt := c.tracks[b.Track].(*windowTrack)
			inc := srv.Incarnations[1]
			mid := (inc.From + inc.To) / 2
			h := HitTest(c, v, &layout, s.X(mid), b.Y+2)
			at := s.At(s.X(mid))
			w, ok := a.CacheWindowAt(k, resource, at)
			if !ok || !w.Held {
				t.Fatalf("server %s's %s window at %s: %+v, %v; want one held", srv.Name, resource, clock(at, nil), w, ok)
			}
			if want := w.Window(srv.Name); !strings.Contains(h.Text, want) || !strings.Contains(want, " kept changes from RV ") {
				t.Errorf("server %s's %s band at %s says %q, want %q", srv.Name, resource, clock(at, nil), h.Text, want)
			}
			for _, r := range wt.refusals {
				crosses++
				i := lastAtOrBefore(wt.ts, r.t)
				if i < 0 || wt.points[i].Doubt != "" || !wt.points[i].Held {
					continue
				}
				pt := wt.points[i]
				if r.rv < pt.HeldFrom && wt.y(b, r.rv) > wt.y(b, pt.HeldFrom) {
					outside++
				} else {
					t.Errorf("%s's 410 at %s on server %s: cursor RV %d is inside the band drawn then (surely kept from %d to %d)",
						tl.Files[r.file].Name, clock(r.t, nil), srv.Name, r.rv, pt.HeldFrom, pt.Head)
				}
				tip := HitTest(c, v, &layout, s.X(r.t), wt.y(b, r.rv))
				if !strings.Contains(tip.Text, tl.Files[r.file].Name+"'s resume from RV ") && !strings.Contains(tip.Text, "'s resume from RV ") {
					t.Errorf("the hover on %s's 410 at %s says %q", tl.Files[r.file].Name, clock(r.t, nil), tip.Text)
				}
			}
		}
	}
	t.Logf("%d crosses of 410s, %d of them below the surely-kept band drawn then", crosses, outside)
	if crosses != 81 || outside == 0 {
		t.Errorf("%d crosses (the lab has 81 410s), %d below the band", crosses, outside)
	}
}
