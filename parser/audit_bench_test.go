package parser

import (
	"io"
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
)

// BenchmarkReadAuditLab reads the lab's six audit logs: three API
// servers, each restarted once, under 207 informers.
func BenchmarkReadAuditLab(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(testsample.Recording(b, "samples-lab"), "audit-*.log"))
	benchReadEach(b, paths, func(r io.Reader) error {
		_, err := ReadAudit(r, Options{})
		return err
	})
}
