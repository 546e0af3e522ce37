package timeline

import (
	"bytes"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"watchlens/internal/synth"
	"watchlens/parser"
)

func TestZZPeakProfile(t *testing.T) {
	var data bytes.Buffer
	for i := range 500_000 {
		synth.Event(&data, i)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var most uint64
	sample := func(where string) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapAlloc-before.HeapAlloc > most {
			most = m.HeapAlloc - before.HeapAlloc
			f, _ := os.Create("/tmp/peak.prof")
			pprof.Lookup("heap").WriteTo(f, 0)
			f.Close()
			t.Logf("peak %d B/event at %s", most/500000, where)
		}
	}
	bl := NewBuilder()
	n := 0
	bl.Pause = func() {
		if n++; n%16 == 0 {
			sample("pause")
		}
	}
	f := bl.AddFile("x")
	r := parser.NewReader(bytes.NewReader(data.Bytes()), parser.Options{})
	for k := 1; r.Next() && f.Add(r.Event()); k++ {
		if k%65536 == 0 {
			sample("read")
		}
	}
	sample("read end")
	f.Finish(r.Sessions(), r.Diagnostics())
	a := bl.Build().Analyze(DefaultParams())
	runtime.KeepAlive(a)
	runtime.KeepAlive(data.Bytes())
}
