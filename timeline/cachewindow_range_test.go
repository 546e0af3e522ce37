package timeline

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"watchlens/internal/testsample"
)

// exportedHeads reads the lab's export of
// apiserver_watch_cache_resource_version with encoding/json, not the
// parser: per server and resource, the RV at each instant.
func exportedHeads(t *testing.T) map[[2]string]map[int64]uint64 {
	t.Helper()
	f, err := os.Open(filepath.Join(testsample.Recording(t, "samples-lab"), "prometheus", "query_range", "apiserver_watch_cache_resource_version.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Data struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Values [][2]any          `json:"values"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(z).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	out := map[[2]string]map[int64]uint64{}
	for _, r := range doc.Data.Result {
		vs := map[int64]uint64{}
		for _, v := range r.Values {
			rv, err := strconv.ParseFloat(v[1].(string), 64)
			if err != nil {
				t.Fatal(err)
			}
			vs[int64(v[0].(float64)*1e9)] = uint64(rv)
		}
		out[[2]string{r.Metric["server"], r.Metric["resource"]}] = vs
	}
	return out
}

// The lab's servers' windows over time, from every capture, audit log
// and export: each point's head is the export's RV then; the window
// never holds what the server's own 410 then said it no longer had, nor
// refuses a cursor it accepted.
func TestLabCacheWindow(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	tl := b.Build()
	p := DefaultParams()
	p.EtcdInterval = time.Minute
	a := tl.Analyze(p)
	heads := exportedHeads(t)

	decided := 0
	for s, srv := range tl.Servers {
		for _, resource := range []string{"configmaps", "secrets"} {
			want := heads[[2]string{srv.Metrics, resource}]
			ws := a.CacheWindow(s, resource, tl.Start(), tl.End(), 0)
			if len(ws) < 600 || len(want) == 0 {
				t.Fatalf("server %s's %s window: %d points, the export %d; want a point a second", srv.Name, resource, len(ws), len(want))
			}
			held := 0
			for _, w := range ws {
				if rv, ok := want[w.T]; !ok || rv != w.Head {
					t.Fatalf("server %s's %s window at %s: head %d, the export says %d (%v)", srv.Name, resource, FormatClock(w.T, time.UTC), w.Head, rv, ok)
				}
				if w.Held && (w.HeldFrom > w.Head || w.HeldFrom < w.Gone) {
					t.Errorf("server %s's %s window at %s: held from %d to %d, gone below %d", srv.Name, resource, FormatClock(w.T, time.UTC), w.HeldFrom, w.Head, w.Gone)
				}
				if w.Held {
					held++
				}
			}
			t.Logf("server %s, %s: %d points, %d with a surely-held window", srv.Name, resource, len(ws), held)
			if held < len(ws)/2 {
				t.Errorf("server %s's %s window is held at %d of %d points, want most", srv.Name, resource, held, len(ws))
			}
		}
	}

	// Each recorded answer to a watch from an RV, against the window
	// the evidence before it gives.
	refusals, accepts := 0, 0
	for _, r := range a.Resumes {
		ss := &tl.Sessions[r.Session]
		if ss.Server < 0 {
			continue
		}
		rv, _ := strconv.ParseUint(r.RV, 10, 64)
		at := ss.Start
		if r.Observed == Refused && ss.Error != nil && ss.ErrorEvent >= 0 {
			at = tl.tab.t.at(ss.ErrorEvent)
		}
		w, ok := a.CacheWindowAt(ss.Server, a.resourceOf(ss.File), at)
		if !ok {
			continue
		}
		name := tl.Servers[ss.Server].Name
		switch r.Observed {
		case Refused:
			refusals++
			y := ss.Error.Y
			if w.Gone > y || w.Held && w.HeldFrom < y || w.Held && rv >= w.HeldFrom {
				t.Errorf("%s's resume from RV %d refused by %s at %s (%q): the window said gone below %d, held from %d (%v)",
					tl.Files[ss.File].Name, rv, name, FormatClock(at, time.UTC), ss.Error.Message, w.Gone, w.HeldFrom, w.Held)
			}
			if w.Gone > 0 || w.Held {
				decided++
			}
		case Accepted:
			accepts++
			if rv < w.Gone {
				t.Errorf("%s's resume from RV %d accepted by %s at %s: the window said gone below %d", tl.Files[ss.File].Name, rv, name, FormatClock(at, time.UTC), w.Gone)
			}
		}
	}
	t.Logf("%d refused and %d accepted resumes checked against the window; %d refusals where it was bounded", refusals, accepts, decided)
	if refusals != 81 || accepts < 300 || decided == 0 {
		t.Errorf("%d refusals (the lab has 81), %d acceptances, %d refusals with a bounded window", refusals, accepts, decided)
	}
}
