package parser

import (
	"bytes"
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
)

// BenchmarkReadAuditLab reads the lab's six audit logs: three API
// servers, each restarted once, under 207 informers.
func BenchmarkReadAuditLab(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(testsample.Recording(b, "samples-lab"), "audit-*.log"))
	if len(paths) == 0 {
		b.Fatal("no audit log in samples-lab")
	}
	var logs [][]byte
	size := 0
	for _, p := range paths {
		logs = append(logs, testsample.Read(b, p))
		size += len(logs[len(logs)-1])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range logs {
			if _, err := ReadAudit(bytes.NewReader(l), Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
