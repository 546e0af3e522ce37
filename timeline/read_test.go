package timeline

import (
	"errors"
	"os"
	"testing"

	"watchlens/parser"
)

// TestAddReaderReportsProgress: reading a real capture, Progress hears
// the bytes read and the events kept grow, and Pause is called on the way.
func TestAddReaderReportsProgress(t *testing.T) {
	const name = "../samples/kubectl-pods-watch.jsonl"
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	b := NewBuilder()
	var reports []ReadProgress
	pauses := 0
	b.Progress = func(p ReadProgress) { reports = append(reports, p) }
	b.Pause = func() { pauses++ }
	if err := b.AddReader("pods", f, parser.Options{}); err != nil {
		t.Fatal(err)
	}
	events := b.Build().Len()
	if len(reports) < 2 || len(reports) != events/256+1 {
		t.Fatalf("%d reports over %d events, want one every 256 and one at the end", len(reports), events)
	}
	for i, p := range reports[:len(reports)-1] {
		if p.File != "pods" || p.Events != 256*(i+1) || p.Bytes <= 0 || p.Bytes > info.Size() ||
			i > 0 && p.Bytes < reports[i-1].Bytes {
			t.Errorf("report %d: %+v", i, p)
		}
	}
	if last := reports[len(reports)-1]; last.Events != events || last.Bytes != info.Size() {
		t.Errorf("the last report is %+v, want all %d events and %d bytes", last, events, info.Size())
	}
	if pauses < events/64 {
		t.Errorf("Pause was called %d times over %d events, want at least every 64", pauses, events)
	}
}

// TestAddReaderCancels: once Cancel says so, AddReader stops within 64
// events, says it was cancelled, and keeps what it read.
func TestAddReaderCancels(t *testing.T) {
	f, err := os.Open("../samples/kubectl-pods-watch.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := NewBuilder()
	asked := 0
	b.Cancel = func() bool { asked++; return asked == 3 }
	if err := b.AddReader("pods", f, parser.Options{}); !errors.Is(err, ErrCancelled) {
		t.Fatalf("AddReader returned %v, want ErrCancelled", err)
	}
	if n := b.Build().Len(); n != 3*64 {
		t.Errorf("kept %d events, want the %d read before the third check", n, 3*64)
	}
}
