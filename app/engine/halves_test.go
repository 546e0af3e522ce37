package engine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"watchlens/app/engine"
	"watchlens/internal/synth"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// chunks is a parser.Rest of the chunks another goroutine writes, as
// the page's helper worker posts them.
type chunks chan []byte

func (c chunks) Next() ([]byte, error) {
	b, ok := <-c
	if !ok {
		return nil, io.EOF
	}
	return b, nil
}

// restOf is the events of data from at on, read and written by another
// goroutine (parser.WriteRest), as the page's helper worker reads a
// capture's later half.
func restOf(t *testing.T, data []byte, at int) parser.Rest {
	c := make(chunks, 4)
	go func() {
		defer close(c)
		err := parser.WriteRest(parser.NewReader(bytes.NewReader(data[at:]), parser.Options{}), int64(at), func(b []byte) error {
			c <- b
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}()
	return c
}

// TestOpenInHalves: a capture read in two halves, the later by another
// Reader (engine.Source.Rest), opens as the capture read whole: the same
// answer of the load, and the same reports, wherever the line it is cut
// at. The captures: a real kubectl watch of pods, and pods and
// ConfigMaps generated as a real cluster's are.
func TestOpenInHalves(t *testing.T) {
	captures := []struct {
		name string
		data []byte
	}{
		{"kubectl-pods-watch.jsonl", testsample.Files(t, testsample.AsGiven, testsample.Sample(t, "kubectl-pods-watch.jsonl"))[0].Data},
		{"realistic-pods.jsonl", synth.CaptureOf(6<<20, synth.RealisticPod)},
		{"configmaps.jsonl", synth.CaptureOf(6<<20, synth.ConfigMap)},
	}
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			if !parser.SplitsAtLines(c.data) {
				t.Fatal("the capture may not be cut at a line's end")
			}
			whole := openAnswers(t, engine.Source{Name: c.name, Size: int64(len(c.data)), Data: bytes.NewReader(c.data)})
			for _, share := range []int{2, 3, 7} {
				at := len(c.data) / share
				at += bytes.IndexByte(c.data[at:], '\n') + 1
				halves := openAnswers(t, engine.Source{Name: c.name, Size: int64(len(c.data)), Data: bytes.NewReader(c.data[:at]), Rest: restOf(t, c.data, at)})
				for k := range whole {
					if whole[k] != halves[k] {
						t.Errorf("cut at byte %d of %d: the %s differs:\nwhole:  %.600s\nhalves: %.600s", at, len(c.data), k, whole[k], halves[k])
					}
				}
			}
		})
	}
}

// openAnswers opens src and answers what a page shows of it: the load's
// answer and the reports in each format.
func openAnswers(t *testing.T, src engine.Source) map[string]string {
	t.Helper()
	e, o, err := engine.Open([]engine.Source{src}, engine.Options{Params: timeline.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	opened, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"opened answer": string(opened)}
	for _, f := range []struct {
		format engine.ReportFormat
		name   string
	}{{engine.ReportMarkdown, "Markdown report"}, {engine.ReportJSON, "JSON report"}} {
		r, err := e.Report(f.format, "")
		if err != nil {
			t.Fatal(err)
		}
		out[f.name] = r
	}
	if o.Events == 0 {
		t.Fatal("no event read")
	}
	return out
}

// failing is a parser.Rest whose thread failed.
type failing struct{}

func (failing) Next() ([]byte, error) { return nil, errors.New("the helper ran out of memory") }

// TestOpenInHalvesReadWhole: a capture whose first part does not end
// between two events (cut inside a line), or whose later part's reading
// fails on its way, answers engine.ErrReadWhole, with the cause: the
// host then reads it whole rather than show part of it.
func TestOpenInHalvesReadWhole(t *testing.T) {
	data := synth.CaptureOf(2<<20, synth.ConfigMap)
	at := len(data) / 2
	at += bytes.IndexByte(data[at:], '\n') + 1
	for _, c := range []struct {
		name  string
		first []byte
		rest  parser.Rest
		cause string
	}{
		{"cut inside a line", data[:at-10], restOf(t, data, at), parser.ErrSplitMismatch.Error()},
		{"the later part's reading fails", data[:at], failing{}, "the helper ran out of memory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := engine.Open([]engine.Source{{Name: "configmaps.jsonl", Size: int64(len(data)), Data: bytes.NewReader(c.first), Rest: c.rest}},
				engine.Options{Params: timeline.DefaultParams()})
			if !errors.Is(err, engine.ErrReadWhole) || !strings.Contains(err.Error(), c.cause) {
				t.Errorf("Open answered %v, want ErrReadWhole for %q", err, c.cause)
			}
		})
	}
}
