package parser

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// render writes a capture in a stable text form, one record per line, so
// that a change in any field shows up in a diff.
func render(c *Capture) []byte {
	var b bytes.Buffer
	ts := func(ns int64) string {
		if ns == 0 {
			return "-"
		}
		return time.Unix(0, ns).UTC().Format(time.RFC3339Nano)
	}
	for _, s := range c.Sessions {
		fmt.Fprintf(&b, "session %d [%d,%d) arrival %s..%s http %d %q events %d truncated %v\n",
			s.Index, s.Offset, s.End, ts(s.StartArrival), ts(s.EndArrival), s.HTTPStatus, s.StatusText, s.Events, s.Truncated)
		if q := s.Request; q != nil {
			fmt.Fprintf(&b, "  request %s %s watch=%v rv=%q rvm=%q bookmarks=%v initial=%v label=%q field=%q timeout=%d\n",
				q.Method, q.Path, q.Watch, q.ResourceVersion, q.ResourceVersionMatch, q.AllowWatchBookmarks,
				q.SendInitialEvents, q.LabelSelector, q.FieldSelector, q.TimeoutSeconds)
		}
		for _, h := range s.Headers {
			fmt.Fprintf(&b, "  header %s: %s\n", h.Name, h.Value)
		}
		if s.Status != nil {
			fmt.Fprintf(&b, "  status %+v\n", *s.Status)
		}
	}
	for _, e := range c.Events {
		fmt.Fprintf(&b, "event %d s%d [%d+%d] %s %s %s %s/%s uid=%s rv=%q/%d/%v arrival=%s est=%s iee=%v",
			e.Seq, e.Session, e.Offset, e.Length, e.Type, e.APIVersion, e.Kind, e.Namespace, e.Name, e.UID,
			e.RV, e.RVNum, e.RVValid, ts(e.Arrival), ts(e.Estimated), e.InitialEventsEnd)
		if e.Labels != "" {
			fmt.Fprintf(&b, " labels=%q", e.Labels)
		}
		if e.Status != nil {
			fmt.Fprintf(&b, " status=%+v", *e.Status)
		}
		b.WriteByte('\n')
	}
	for _, d := range c.Diagnostics {
		fmt.Fprintf(&b, "diag %v\n", d)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	for _, name := range []string{
		"w4-then-resume.http", "w4-then-resume.ts.http", "w3-then-resume.http",
		"l410-list-exact-stale-rv.http", "client-go-golden-watch.http", "curl1-narrow-bookmarks-raw.curl",
		"w6-sendinitialevents-rig-a.ts.http",
	} {
		t.Run(name, func(t *testing.T) {
			got := render(readSample(t, filepath.Join("../samples", name)))
			golden := filepath.Join("testdata/golden", strings.TrimSuffix(name, filepath.Ext(name))+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; run go test -run TestGolden -update and check the diff", name, golden)
			}
		})
	}
}
