package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/tidwall/gjson"

	"watchlens/internal/cputime"
	"watchlens/internal/synth"
)

const benchSize = 100 << 20

var benchData = sync.OnceValue(func() [][]byte {
	var b bytes.Buffer
	b.Grow(benchSize + 16<<10)
	var lines [][]byte
	for i := 0; b.Len() < benchSize; i++ {
		start := b.Len()
		synth.Pod(&b, i)
		lines = append(lines, b.Bytes()[start:b.Len()])
	}
	return lines
})

func joinLines(lines [][]byte) []byte { return bytes.Join(lines, nil) }

// benchConfigMaps is a capture of small events (about 440 bytes: the
// ConfigMaps of a controller's state), where what the parser does per
// event, rather than per byte, sets the pace.
var benchConfigMaps = sync.OnceValue(func() []byte { return synth.CaptureOf(benchSize, synth.ConfigMap) })

// The captures as real clusters send them (synth's realistic.go): pods
// whose managedFields never repeat from one event to the next, the
// headline figure; Leases renewed every 10 s by 3000 holders; and Events,
// each one new.
var (
	benchRealisticPods = sync.OnceValue(func() []byte { return synth.CaptureOf(benchSize, synth.RealisticPod) })
	benchLeases        = sync.OnceValue(func() []byte { return synth.CaptureOf(benchSize, synth.Lease) })
	benchEvents        = sync.OnceValue(func() []byte { return synth.CaptureOf(benchSize, synth.Event) })
)

// benchInputs builds each form of the capture on first use only, so that
// a profile of one benchmark is not mostly the making of the others.
var benchInputs = map[string]func() []byte{
	"ndjson": sync.OnceValue(func() []byte { return joinLines(benchData()) }),
	"sorted": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		for _, l := range benchData() {
			var v map[string]any
			json.Unmarshal(l, &v)
			// kubectl's order: the type, then the object with sorted keys
			// (maps marshal sorted).
			s, _ := json.Marshal(v["object"])
			fmt.Fprintf(&out, "{\"type\":%q,\"object\":%s}\n", v["type"], s)
		}
		return out.Bytes()
	}),
	"pretty": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		for _, l := range benchData() {
			json.Indent(&out, l[:len(l)-1], "", "    ")
			out.WriteByte('\n')
		}
		return out.Bytes()
	}),
	"chunked":        benchChunked,
	"configmaps":     benchConfigMaps,
	"realistic-pods": benchRealisticPods,
	"leases":         benchLeases,
	"events":         benchEvents,
	"ts-chunked": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		for i, l := range bytes.SplitAfter(benchChunked(), []byte("\n")) {
			fmt.Fprintf(&out, "2026-11-30T00:54:%02d.%09dZ %s", i/1000%60, i, l)
		}
		return out.Bytes()
	}),
	// Prefixed NDJSON: without chunks, a body read line by line, not in
	// blocks of lines.
	"ts-ndjson": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		for i, l := range benchData() {
			fmt.Fprintf(&out, "2026-11-30T00:54:%02d.%09dZ %s", i/1000%60, i, l)
		}
		return out.Bytes()
	}),
	"gzip": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&out, gzip.DefaultCompression)
		zw.Write(benchChunked())
		zw.Close()
		return out.Bytes()
	}),
	"zstd": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		zw, _ := zstd.NewWriter(&out)
		zw.Write(benchChunked())
		zw.Close()
		return out.Bytes()
	}),
}

var benchChunked = sync.OnceValue(func() []byte {
	out := bytes.NewBufferString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
	for _, l := range benchData() {
		fmt.Fprintf(out, "%x\r\n%s\r\n", len(l), l)
	}
	out.WriteString("0\r\n\r\n")
	return out.Bytes()
})

func benchRead(b *testing.B, name string) {
	in := benchInputs[name]()
	// The small events' and realistic pods' captures are counted, not
	// taken from the repeating pods', which would be generated for
	// nothing: as wasm that took longer than the benchmark.
	var want int
	switch name {
	case "configmaps", "realistic-pods", "leases", "events":
		want = bytes.Count(in, []byte{'\n'})
	default:
		want = len(benchData())
	}
	size := len(in)
	if name == "gzip" || name == "zstd" {
		size = len(benchChunked())
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		rd := NewReader(bytes.NewReader(in), Options{})
		n := 0
		for rd.Next() {
			n++
		}
		if n != want || len(rd.Diagnostics()) > 0 {
			b.Fatalf("%d events, want %d; %v", n, want, rd.Diagnostics())
		}
	}
	cpu = cputime.Process() - cpu
	b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	// Per second of the process's CPU time (all its threads: the
	// collector's, and node's compilers as wasm), which a loaded machine
	// inflates far less than the wall time.
	b.ReportMetric(float64(want)*float64(b.N)/cpu, "events/cpu-s")
	b.ReportMetric(float64(unsafe.Sizeof(Event{})), "B/event-record")
}

func BenchmarkReadNDJSON(b *testing.B)         { benchRead(b, "ndjson") }
func BenchmarkReadSortedKeys(b *testing.B)     { benchRead(b, "sorted") }
func BenchmarkReadConfigMaps(b *testing.B)     { benchRead(b, "configmaps") }
func BenchmarkReadRealisticPods(b *testing.B)  { benchRead(b, "realistic-pods") }
func BenchmarkReadLeases(b *testing.B)         { benchRead(b, "leases") }
func BenchmarkReadEvents(b *testing.B)         { benchRead(b, "events") }
func BenchmarkReadPretty(b *testing.B)         { benchRead(b, "pretty") }
func BenchmarkReadChunked(b *testing.B)        { benchRead(b, "chunked") }
func BenchmarkReadTimestamped(b *testing.B)    { benchRead(b, "ts-chunked") }
func BenchmarkReadPrefixedNDJSON(b *testing.B) { benchRead(b, "ts-ndjson") }
func BenchmarkReadGzipChunked(b *testing.B)    { benchRead(b, "gzip") }
func BenchmarkReadZstdChunked(b *testing.B)    { benchRead(b, "zstd") }
func BenchmarkDecompressGzip(b *testing.B)     { benchDecompress(b, "gzip") }
func BenchmarkDecompressZstd(b *testing.B)     { benchDecompress(b, "zstd") }
func BenchmarkNaiveGJSONBaseline(b *testing.B) { benchNaive(b) }

// benchDecompress is klauspost's decompression alone, the floor for the
// compressed reads.
func benchDecompress(b *testing.B, name string) {
	in := benchInputs[name]()
	b.SetBytes(int64(len(benchChunked())))
	buf := make([]byte, 256<<10)
	b.ResetTimer()
	for range b.N {
		var r io.Reader
		if name == "gzip" {
			r, _ = gzip.NewReader(bytes.NewReader(in))
		} else {
			zr, _ := zstd.NewReader(bytes.NewReader(in), zstd.WithDecoderConcurrency(1))
			defer zr.Close()
			r = zr
		}
		for {
			if _, err := r.Read(buf); err != nil {
				break
			}
		}
	}
}

// benchNaive is the obvious way: the whole file in memory, split in lines,
// gjson.GetBytes per field.
func benchNaive(b *testing.B) {
	in := benchInputs["ndjson"]()
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for range b.N {
		if n := naiveGJSON(in); n != len(benchData()) {
			b.Fatalf("%d events", n)
		}
	}
}

// naiveGJSON reads the events of in the obvious way: split in lines
// where they are (as the Reader reads a bytes.Reader's), gjson.GetBytes
// per field, every field an Event has from the object (labels canonical
// through the same memo of raw forms as the Reader's). It returns the
// events read.
func naiveGJSON(in []byte) int {
	n := 0
	labels := map[string]string{}
	for len(in) > 0 {
		l := in
		if k := bytes.IndexByte(in, '\n'); k >= 0 {
			l, in = in[:k], in[k+1:]
		} else {
			in = nil
		}
		var e Event
		e.Type = ParseEventType(gjson.GetBytes(l, "type").String())
		e.Kind = gjson.GetBytes(l, "object.kind").String()
		e.APIVersion = gjson.GetBytes(l, "object.apiVersion").String()
		e.Namespace = gjson.GetBytes(l, "object.metadata.namespace").String()
		e.Name = gjson.GetBytes(l, "object.metadata.name").String()
		e.UID = gjson.GetBytes(l, "object.metadata.uid").String()
		e.RV = gjson.GetBytes(l, "object.metadata.resourceVersion").String()
		e.RVNum, _ = strconv.ParseUint(e.RV, 10, 64)
		if raw := gjson.GetBytes(l, "object.metadata.labels").Raw; raw != "" {
			c, ok := labels[raw]
			if !ok {
				var pairs [][2]string
				gjson.Parse(raw).ForEach(func(k, v gjson.Result) bool {
					pairs = append(pairs, [2]string{k.String(), v.String()})
					return true
				})
				sort.Slice(pairs, func(i, j int) bool { return pairs[i][0] < pairs[j][0] })
				var b strings.Builder
				for i, p := range pairs {
					if i > 0 {
						b.WriteByte(',')
					}
					b.WriteString(p[0] + "=" + p[1])
				}
				c = b.String()
				labels[raw] = c
			}
			e.Labels = c
		}
		e.InitialEventsEnd = gjson.GetBytes(l, `object.metadata.annotations.k8s\.io/initial-events-end`).String() == "true"
		for _, t := range gjson.GetBytes(l, "object.metadata.managedFields.#.time").Array() {
			if ns, ok := parseTime(t.String()); ok && ns > e.Estimated {
				e.Estimated = ns
			}
		}
		if e.Estimated == 0 {
			for _, k := range []string{"object.metadata.deletionTimestamp", "object.metadata.creationTimestamp"} {
				if ns, ok := parseTime(gjson.GetBytes(l, k).String()); ok {
					e.Estimated = ns
					break
				}
			}
		}
		n++
	}
	return n
}

// BenchmarkRealisticPodsAgainstGJSON reads the realistic pods with the
// Reader and with naiveGJSON in every round, in turns (the first of the
// two alternating), and reports the median of the rounds' ratios of
// their CPU times (x-gjson), which other processes on the machine
// inflate far less than the wall time, and the two of a round alike.
func BenchmarkRealisticPodsAgainstGJSON(b *testing.B) {
	in := benchRealisticPods()
	want := bytes.Count(in, []byte{'\n'})
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	var ours, theirs float64
	var ratios []float64
	for round := range b.N {
		var o, t float64
		for k := range 2 {
			start := cputime.Process()
			if k == round%2 {
				rd := NewReader(bytes.NewReader(in), Options{})
				n := 0
				for rd.Next() {
					n++
				}
				o = cputime.Process() - start
				if n != want || len(rd.Diagnostics()) > 0 {
					b.Fatalf("%d events, want %d; %v", n, want, rd.Diagnostics())
				}
			} else {
				if n := naiveGJSON(in); n != want {
					b.Fatalf("gjson: %d events, want %d", n, want)
				}
				t = cputime.Process() - start
			}
		}
		ours, theirs = ours+o, theirs+t
		ratios = append(ratios, t/o)
	}
	sort.Float64s(ratios)
	b.ReportMetric(float64(len(in))*float64(b.N)/ours/1e9, "GB/cpu-s")
	b.ReportMetric(float64(len(in))*float64(b.N)/theirs/1e9, "gjson-GB/cpu-s")
	b.ReportMetric(ratios[len(ratios)/2], "x-gjson")
}
