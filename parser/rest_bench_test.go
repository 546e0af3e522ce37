package parser

import (
	"bytes"
	"testing"
)

// benchRest is the capture name of benchInputs cut after its first line,
// the rest written by WriteRest: what Then decodes is nearly the whole.
func benchRest(b *testing.B, name string) (data []byte, at int, chunks [][]byte, events int) {
	data = benchInputs[name]()
	at = bytes.IndexByte(data, '\n') + 1
	err := WriteRest(NewReader(bytes.NewReader(data[at:]), Options{}), int64(at), func(ch []byte) error {
		chunks = append(chunks, ch)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return data, at, chunks, bytes.Count(data, []byte{'\n'})
}

// benchSink is where the benchmarks put a field of each event, as a
// consumer would take it.
var benchSink int

// decodeRest reads data[:at] and then chunks, and returns the events.
func decodeRest(data []byte, at int, chunks [][]byte) int {
	rd := NewReader(bytes.NewReader(data[:at]), Options{})
	rd.Then(&chunkRest{chunks: chunks})
	n := 0
	for rd.Next() {
		benchSink += len(rd.Event().Name)
		n++
	}
	return n
}

func parseAll(data []byte) int {
	rd := NewReader(bytes.NewReader(data), Options{})
	n := 0
	for rd.Next() {
		benchSink += len(rd.Event().Name)
		n++
	}
	return n
}

// BenchmarkRestDecode is Then's side: the events of a capture WriteRest
// wrote, given by Next. The figures to hold against BenchmarkRead's, and
// x-parse, the median of the rounds' ratios of the CPU time of parsing
// the capture to that of decoding it, one after the other in each round
// (the first of the two alternating).
func BenchmarkRestDecode(b *testing.B) {
	for _, name := range []string{"configmaps", "realistic-pods"} {
		b.Run(name, func(b *testing.B) {
			data, at, chunks, want := benchRest(b, name)
			size := 0
			for _, c := range chunks {
				size += len(c)
			}
			b.ResetTimer()
			dec, parse, ratio := alternated(b, func() {
				if n := decodeRest(data, at, chunks); n != want {
					b.Fatalf("%d events, want %d", n, want)
				}
			}, func() {
				if n := parseAll(data); n != want {
					b.Fatalf("parse: %d events, want %d", n, want)
				}
			})
			b.ReportMetric(float64(want)*float64(b.N)/dec, "events/cpu-s")
			b.ReportMetric(float64(want)*float64(b.N)/parse, "parse-events/cpu-s")
			b.ReportMetric(ratio, "x-parse")
			b.ReportMetric(float64(size)/float64(want), "B/event")
		})
	}
}

// BenchmarkRestEncode is WriteRest's side: the capture read and encoded,
// against it only read (x-parse: the median of the rounds' ratios of the
// CPU time of reading and encoding to that of reading alone, alternating
// as BenchmarkRestDecode does).
func BenchmarkRestEncode(b *testing.B) {
	for _, name := range []string{"configmaps", "realistic-pods"} {
		b.Run(name, func(b *testing.B) {
			data := benchInputs[name]()
			want := bytes.Count(data, []byte{'\n'})
			b.ResetTimer()
			enc, _, ratio := alternated(b, func() {
				err := WriteRest(NewReader(bytes.NewReader(data), Options{}), 0, func([]byte) error { return nil })
				if err != nil {
					b.Fatal(err)
				}
			}, func() {
				if n := parseAll(data); n != want {
					b.Fatalf("parse: %d events, want %d", n, want)
				}
			})
			b.ReportMetric(float64(want)*float64(b.N)/enc, "events/cpu-s")
			// ratio is parse over encode: its inverse is what encoding
			// adds to the parse.
			b.ReportMetric(1/ratio, "x-parse")
		})
	}
}
