//go:build !wasm

package cli

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"watchlens/internal/synth"
)

// BenchmarkAnalyzeRSS reports the peak resident set (peak-RSS-MiB) of
// `watchlens analyze --format json` on 1 GB of small ConfigMaps (2.27 M
// events of 460 000 objects, each re-created every 50 000 events) and on
// 1 GB of realistic pods (issue 27's goals: 64 and 32 MiB). The CLI runs
// in a process of its own, this test binary again, whose peak the kernel
// reports. When WATCHLENS_BENCH_BASE names another build's test binary of
// this package (go test -c), each round runs its CLI first, the same way,
// on the same capture (base-peak-RSS-MiB): with -count, the two alternate
// in one run.
func BenchmarkAnalyzeRSS(b *testing.B) {
	for _, c := range []struct {
		name  string
		event func(*bytes.Buffer, int)
	}{
		{"configmaps-1GB", synth.ConfigMap},
		{"realistic-pods-1GB", synth.RealisticPod},
	} {
		b.Run(c.name, func(b *testing.B) {
			file := filepath.Join(b.TempDir(), c.name+".jsonl")
			writeCapture(b, file, 1<<30, c.event)
			peak := func(cmd *exec.Cmd) float64 {
				cmd.Stdout = io.Discard
				if err := cmd.Run(); err != nil {
					b.Fatalf("%s: %v", cmd.Path, err)
				}
				return float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024
			}
			cli := func(bin string) *exec.Cmd {
				cmd := exec.Command(bin, "-test.run=^TestAnalyzeMemoryBound$")
				cmd.Env = append(os.Environ(), "WATCHLENS_ANALYZE_CHILD="+file)
				return cmd
			}
			for b.Loop() {
				if base := os.Getenv("WATCHLENS_BENCH_BASE"); base != "" {
					b.ReportMetric(peak(cli(base)), "base-peak-RSS-MiB")
				}
				b.ReportMetric(peak(cli(os.Args[0])), "peak-RSS-MiB")
			}
		})
	}
}

// writeCapture writes at least size bytes of the events that event
// writes to file.
func writeCapture(b *testing.B, file string, size int, event func(*bytes.Buffer, int)) {
	f, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var buf bytes.Buffer
	for i, n := 0, 0; n < size; i++ {
		buf.Reset()
		event(&buf, i)
		n += buf.Len()
		w.Write(buf.Bytes())
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		b.Fatal(err)
	}
}
