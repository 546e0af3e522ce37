package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/timeline"
)

// TestSummaryBoundedForManyClients (#26): a capture split into 20 000
// clients that have no times made the summary's "Unknown" line name each
// of them (8.7 MB for 100 000, and as much in the page's verdict, which
// is the same summary). Each line of the summary is now a count and the
// first few, whatever the number of clients.
func TestSummaryBoundedForManyClients(t *testing.T) {
	const clients = 20_000
	var capture strings.Builder
	for i := range clients {
		fmt.Fprintf(&capture, `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"state-%d","namespace":"team-%05d","resourceVersion":"%d"}}}`+"\n", i, i, 1000+i)
	}
	path := filepath.Join(t.TempDir(), "no-times.jsonl")
	if err := os.WriteFile(path, []byte(capture.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := analyze(t, "--format", "json", "--split-by", "namespace", path)
	var rep struct {
		Files   []json.RawMessage      `json:"files"`
		Summary []timeline.SummaryLine `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d (%s): %v", code, errOut, err)
	}
	if len(rep.Files) <= clients {
		t.Fatalf("%d files: the capture was not split into its %d clients", len(rep.Files), clients)
	}
	unknown := false
	for _, l := range rep.Summary {
		if len(l.Text) > 2000 {
			t.Errorf("the summary's %s line is %d bytes: %.200q", l.Topic, len(l.Text), l.Text)
		}
		if l.Topic == "unknown" {
			unknown = true
			if want := fmt.Sprintf("; and %d more.", len(rep.Files)-3); !strings.HasSuffix(l.Text, want) {
				t.Errorf("the Unknown line does not end %q: %.200q", want, l.Text)
			}
		}
	}
	if !unknown {
		t.Errorf("no Unknown line in the summary %+v: the clients without times are not said", rep.Summary)
	}
}
