package parser

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
)

// One head answers every sniff as the sniff does on its own length of the
// decoded input, over the lab's and the outage's every file (captures,
// audit logs, klog logs, Prometheus exports compressed or not, notes) and
// the other libraries' logs: each kind is found, and the reader gives the
// whole input again.
func TestSniffHead(t *testing.T) {
	var paths []string
	for _, rec := range []string{"samples-lab", "samples-outage"} {
		filepath.WalkDir(testsample.Recording(t, rec), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				paths = append(paths, p)
			}
			return err
		})
	}
	libs, _ := filepath.Glob("testdata/*.log")
	paths = append(paths, libs...)
	found := map[string]int{}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		head, r := SniffHead(bytes.NewReader(raw))
		metrics := IsMetrics(decodedStart(t, raw, metricsSniffLen))
		audit := IsAuditLog(decodedStart(t, raw, auditSniffLen))
		klog := IsKlog(decodedStart(t, raw, klogSniffLen))
		lib := IsLibLog(decodedStart(t, raw, libSniffLen))
		if head.Metrics() != metrics || head.Audit() != audit || head.Klog() != klog || head.LibLog() != lib {
			t.Errorf("%s: the head says metrics %v, audit %v, klog %v, library %v; the sniffs %v, %v, %v, %v",
				p, head.Metrics(), head.Audit(), head.Klog(), head.LibLog(), metrics, audit, klog, lib)
		}
		if again, _ := io.ReadAll(r); !bytes.Equal(again, raw) {
			t.Errorf("%s: the reader after the head gives %d bytes of the %d", p, len(again), len(raw))
		}
		switch {
		case metrics != MetricsUnknown:
			found["metrics"]++
		case audit:
			found["audit"]++
		case klog:
			found["klog"]++
		case lib != 0:
			found["library"]++
		}
	}
	for _, kind := range []string{"metrics", "audit", "klog", "library"} {
		if found[kind] == 0 {
			t.Errorf("no %s file among the %d read", kind, len(paths))
		}
	}
}

// decodedStart is the first n bytes of raw decoded (gzip and zstd
// unwrapped), as a sniff of length n alone reads them.
func decodedStart(t *testing.T, raw []byte, n int) []byte {
	t.Helper()
	head, _ := sniffHead(bytes.NewReader(raw), n)
	return head
}
