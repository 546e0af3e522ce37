package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// TestStreamedJSONIsTheEncoders: the report written as it goes is, byte
// for byte, what json.Encoder writes of it whole, on every sample and on
// the 44-client fleet with its audit logs (servers, fleet rows, cost).
func TestStreamedJSONIsTheEncoders(t *testing.T) {
	reports := map[string]*Report{"all samples": New(loadSamples(t, sampleNames(t)...).Analyze(realServer()), nil)}
	b := timeline.NewBuilder()
	files, _ := filepath.Glob(testsample.Path(t, testsample.FleetDir, "*"))
	added := 0
	for _, f := range files {
		if n := filepath.Base(f); !strings.HasSuffix(n, ".http") && !strings.HasSuffix(n, ".log") {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(filepath.Base(f), fh, parser.Options{})
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		added++
	}
	if added < 40 {
		t.Fatalf("only %d files of the fleet", added)
	}
	reports["fleet"] = New(b.Build().Analyze(timeline.DefaultParams()), []timeline.ResumeQuery{{After: 30e9, Relative: true}})
	for name, r := range reports {
		var whole, streamed bytes.Buffer
		enc := json.NewEncoder(&whole)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteJSON(&streamed); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.Bytes(), streamed.Bytes()) {
			a, b := whole.Bytes(), streamed.Bytes()
			i := 0
			for i < min(len(a), len(b)) && a[i] == b[i] {
				i++
			}
			t.Errorf("%s: the streamed JSON differs at byte %d of %d: %q, want %q", name, i, len(a), b[max(0, i-40):min(len(b), i+40)], a[max(0, i-40):min(len(a), i+40)])
		}
		if r.Fleet == nil && name == "fleet" {
			t.Error("the fleet's report has no fleet: the test proves nothing of its rows")
		}
	}
}
