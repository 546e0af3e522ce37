package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"watchlens/parser"
	"watchlens/timeline"
)

func analysis(t *testing.T, names ...string) *timeline.Analysis {
	t.Helper()
	b := timeline.NewBuilder()
	for _, n := range names {
		f, err := os.Open(filepath.Join("..", "samples", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AddReader(n, f, parser.Options{}); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return b.Build().Analyze(timeline.DefaultParams())
}

// The trace of w4 (refused) with the broad w1 on its clock opens as
// Perfetto reads it: every entry has the fields its phase requires, the
// instants are the report's events, bookmarks and errors, the cursors are
// counters, and the slices of one thread never overlap.
func TestPerfettoTrace(t *testing.T) {
	a := analysis(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	var buf bytes.Buffer
	if err := WritePerfetto(&buf, a); err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &tr); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	type span struct{ from, to float64 }
	slices := map[[2]float64][]span{}
	phases := map[string]int{}
	counters := map[string]int{}
	names := map[string]bool{}
	for _, e := range tr.TraceEvents {
		ph, _ := e["ph"].(string)
		phases[ph]++
		for _, f := range []string{"name", "ph", "pid"} {
			if _, ok := e[f]; !ok {
				t.Fatalf("%v lacks %q", e, f)
			}
		}
		switch ph {
		case "M":
			args, _ := e["args"].(map[string]any)
			if args["name"] == nil {
				t.Errorf("metadata without a name: %v", e)
			}
			names[args["name"].(string)] = true
		case "i", "X", "C":
			if _, ok := e["ts"].(float64); !ok {
				t.Fatalf("%v has no ts", e)
			}
			if ph == "C" {
				args, _ := e["args"].(map[string]any)
				if _, ok := args["rv"].(float64); !ok {
					t.Errorf("counter without a number: %v", e)
				}
				counters[e["name"].(string)]++
				continue
			}
			if _, ok := e["tid"].(float64); !ok {
				t.Fatalf("%v has no tid", e)
			}
			if ph == "X" {
				d, ok := e["dur"].(float64)
				if !ok || d < 0 {
					t.Fatalf("slice %v has no duration", e)
				}
				k := [2]float64{e["pid"].(float64), e["tid"].(float64)}
				slices[k] = append(slices[k], span{e["ts"].(float64), e["ts"].(float64) + d})
			}
		default:
			t.Fatalf("unexpected phase in %v", e)
		}
	}
	r := New(a, nil)
	events := 0
	for _, n := range r.Counts {
		events += n
	}
	if phases["i"] != events || events == 0 {
		t.Errorf("%d instants, the report counts %d events, bookmarks and errors", phases["i"], events)
	}
	if phases["X"] != len(r.Sessions)+len(r.Zones)+len(r.RiskZones) {
		t.Errorf("%d slices, want %d sessions and %d zones", phases["X"], len(r.Sessions), len(r.Zones)+len(r.RiskZones))
	}
	for _, c := range []string{"head", "cursor bookmark-aware", "cursor bookmark-ignoring", "cursor had-bookmarks"} {
		if counters[c] == 0 {
			t.Errorf("no %q counter: %v", c, counters)
		}
	}
	for _, n := range []string{"w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http", "session 1", "410 refused · bookmark-aware · calibration"} {
		if !names[n] {
			t.Errorf("no process or thread named %q", n)
		}
	}
	for k, ss := range slices {
		sort.Slice(ss, func(i, j int) bool { return ss[i].from < ss[j].from })
		for i := 1; i < len(ss); i++ {
			if ss[i].from < ss[i-1].to {
				t.Errorf("thread %v: slices [%f, %f) and [%f, %f) overlap", k, ss[i-1].from, ss[i-1].to, ss[i].from, ss[i].to)
			}
		}
	}
}
