package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// maxSeed bounds a sample used as a seed: the fuzzer runs each input
// through the parser, the timeline, the models and four writers, and
// whole captures of a megabyte would make most of its runs theirs. A cut
// capture is hostile input of its own.
const maxSeed = 64 << 10

// FuzzCaptureToReport feeds bytes through everything a capture goes
// through to become a report: the parser, Builder, Analyze under model
// parameters taken from the fuzzed values, and every writer of the
// report and the Perfetto trace. None may panic, and the JSON written
// must parse.
func FuzzCaptureToReport(f *testing.F) {
	names, err := filepath.Glob(testsample.Path(f, "samples", "*"))
	if err != nil {
		f.Fatal(err)
	}
	seeded := 0
	for _, n := range names {
		if ext := filepath.Ext(n); ext == ".tsv" || ext == ".md" || ext == ".go" {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), maxSeed)], uint32(75_000), uint32(102400), uint32(300_000), uint32(0), true)
		seeded++
	}
	if seeded < 10 {
		f.Fatalf("%d samples seeded", seeded)
	}
	// Small windows, counts and intervals, a long delay, no watch cache.
	f.Add([]byte(`{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"n","resourceVersion":"5"}}}`+"\n"),
		uint32(1), uint32(1), uint32(1), uint32(3_600_000), false)
	f.Fuzz(func(t *testing.T, in []byte, windowMS, count, etcdMS, delayMS uint32, watchCache bool) {
		p := timeline.DefaultParams()
		p.CacheWindow = time.Duration(windowMS) * time.Millisecond
		p.CacheCount = int(count)
		p.EtcdInterval = time.Duration(etcdMS) * time.Millisecond
		p.Delay = time.Duration(delayMS) * time.Millisecond
		p.WatchCache = watchCache
		b := timeline.NewBuilder()
		if err := b.AddReader("fuzz", bytes.NewReader(in), parser.Options{MaxEventSize: 1 << 20}); err != nil {
			t.Fatalf("a read error from memory: %v", err)
		}
		an := b.Build().Analyze(p)
		r := New(an, nil)
		var text, md, js, trace bytes.Buffer
		if err := r.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(js.Bytes(), &v); err != nil {
			t.Fatalf("the JSON report does not parse: %v\n%s", err, js.Bytes())
		}
		if err := WritePerfetto(&trace, an); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(trace.Bytes(), &v); err != nil {
			t.Fatalf("the Perfetto trace does not parse: %v\n%s", err, trace.Bytes())
		}
	})
}
