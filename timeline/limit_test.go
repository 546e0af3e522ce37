package timeline

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"watchlens/internal/synth"
	"watchlens/internal/testsample"
	"watchlens/parser"
)

// TestMaxEventsStopsReading: a Builder keeps at most MaxEvents events over
// all its files, says where it stopped in a diagnostic, and builds the
// timeline of what it kept.
func TestMaxEventsStopsReading(t *testing.T) {
	const name = "../samples/w1-broad-configmaps-bookmarks.ts.http"
	all := readSample(t, name)
	b := NewBuilder()
	if b.MaxEvents != DefaultMaxEvents {
		t.Fatalf("NewBuilder's MaxEvents = %d, want %d", b.MaxEvents, DefaultMaxEvents)
	}
	b.MaxEvents = len(all.Events) / 2
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := b.AddReader("w1", f, parser.Options{}); err != nil {
		t.Fatal(err)
	}
	if !b.Stopped() {
		t.Error("Stopped() is false after the cap was reached")
	}
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if read, stopped := b.StoppedAt(0); !stopped || read <= 0 || read >= info.Size() {
		t.Errorf("StoppedAt(0) = %d, %v; want part of the file's %d bytes read", read, stopped, info.Size())
	}
	if b.AddFile("more").Add(all.Events[0]) {
		t.Error("Add kept an event past the cap")
	}
	tl := b.Build()
	if tl.Len() != b.MaxEvents || tl.Files[0].Events != b.MaxEvents {
		t.Errorf("kept %d events (file: %d), want %d", tl.Len(), tl.Files[0].Events, b.MaxEvents)
	}
	cut := all.Events[b.MaxEvents]
	var found bool
	for _, d := range tl.Files[0].Diagnostics {
		if d.Kind == "too-many-events" {
			found = true
			if d.Offset != cut.Offset || !strings.Contains(d.Msg, "stopped reading") {
				t.Errorf("diagnostic %v, want one at offset %d saying where reading stopped", d, cut.Offset)
			}
		}
	}
	if !found {
		t.Errorf("no too-many-events diagnostic in %v", tl.Files[0].Diagnostics)
	}
	if tl.Files[1].Events != 0 || len(tl.Files[1].Diagnostics) != 1 {
		t.Errorf("the file added after the cap has %d events and diagnostics %v, want none and one", tl.Files[1].Events, tl.Files[1].Diagnostics)
	}
	if tl.Files[0].Events != b.MaxEvents {
		t.Errorf("the file counts %d events, kept %d", tl.Files[0].Events, b.MaxEvents)
	}
}

func readSample(t *testing.T, name string) *parser.Capture {
	t.Helper()
	c, err := parser.ReadAll(bytes.NewReader(testsample.Read(t, name)), parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Events) < 4 {
		t.Fatalf("%s has %d events, too few to cut", name, len(c.Events))
	}
	return c
}

// TestMaxObjectsStopsReading: a Builder keeps at most MaxObjects distinct
// objects, refusing the event of one more, says where it stopped in a
// diagnostic of its own, and builds the timeline of what it kept.
func TestMaxObjectsStopsReading(t *testing.T) {
	var data bytes.Buffer
	for i := range 1000 {
		synth.DistinctObject(&data, i)
	}
	b := NewBuilder()
	if b.MaxObjects != DefaultMaxObjects {
		t.Fatalf("NewBuilder's MaxObjects = %d, want %d", b.MaxObjects, DefaultMaxObjects)
	}
	b.MaxObjects = 300
	if err := b.AddReader("distinct", bytes.NewReader(data.Bytes()), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	if !b.Stopped() || !b.StoppedObjects() {
		t.Fatalf("Stopped() %v, StoppedObjects() %v after 1000 objects with room for 300", b.Stopped(), b.StoppedObjects())
	}
	tl := b.Build()
	if tl.Len() != 300 || tl.Lanes.Len() != 300 {
		t.Errorf("kept %d events on %d lanes, want 300 of each", tl.Len(), tl.Lanes.Len())
	}
	cut := bytes.Index(data.Bytes(), []byte(`"value-300"`))
	cut = bytes.LastIndexByte(data.Bytes()[:cut], '\n') + 1
	d := tl.Files[0].Diagnostics
	if len(d) != 1 || d[0].Kind != "too-many-objects" || d[0].Offset != int64(cut) || !strings.Contains(d[0].Msg, "300 distinct objects") {
		t.Errorf("diagnostics %+v, want one too-many-objects at offset %d naming the limit", d, cut)
	}
}
