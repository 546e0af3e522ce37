package engine

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"

	"github.com/tidwall/gjson"
)

// TestEventsReadBackFromTheirSpans: every event of three samples (one
// gzip-compressed), read again from its file's bytes where its answer
// says they lie, is the event the answer describes: its type, its
// resourceVersion and its object's name, and its previous event is its
// object's, at the resourceVersion the answer gives. w4's 410 says which
// resourceVersion was asked for and the oldest kept.
func TestEventsReadBackFromTheirSpans(t *testing.T) {
	names := []string{"w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http", "w2-broad-pods-bookmarks.http.gz"}
	e, o := sampleEngine(t, names...)
	byFile := make([][]EventDetail, len(names))
	for i := range o.Events {
		d := e.Event(i)
		if d.Index != i || d.FileName != names[d.File] || d.Type == "" {
			t.Fatalf("event %d answered %+v", i, d)
		}
		byFile[d.File] = append(byFile[d.File], d)
	}
	if d := e.Event(o.Events); d.Index != -1 {
		t.Errorf("an event past the last answered %+v", d)
	}
	withPrev, tooOld := 0, 0
	for fi, evs := range byFile {
		b := testsample.SampleBytes(t, names[fi])
		var spans []parser.EventSpan
		for _, d := range evs {
			spans = append(spans, d.Span)
			if d.Prev >= 0 {
				spans = append(spans, d.PrevSpan)
			}
		}
		js, err := parser.EventsJSON(spans,
			// As a Blob's slice does, past the end reads to the end.
			func(from, to int64) ([]byte, error) { return b[min(from, int64(len(b))):min(to, int64(len(b)))], nil },
			func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil })
		if err != nil {
			t.Fatalf("%s: %v", names[fi], err)
		}
		k := 0
		for _, d := range evs {
			cur := gjson.ParseBytes(js[k])
			k++
			if typ := cur.Get("type").String(); typ != d.Type {
				t.Errorf("event %d: read back as %s, answered %s", d.Index, typ, d.Type)
			}
			if rv := cur.Get("object.metadata.resourceVersion").String(); d.Type != "ERROR" && rv != d.RV {
				t.Errorf("event %d: RV %q read back, %q answered", d.Index, rv, d.RV)
			}
			name := cur.Get("object.metadata.name").String()
			if d.Object != "" && !strings.HasSuffix(d.Object, "/"+name) && !strings.HasSuffix(d.Object, " "+name) {
				t.Errorf("event %d: object %q read back, %q answered", d.Index, name, d.Object)
			}
			if d.Type == "ERROR" && strings.HasPrefix(d.Status, "410 ") {
				tooOld++
				if d.RV != "none; asked from 389, the oldest kept is 1411" {
					t.Errorf("the 410's RV says %q", d.RV)
				}
			}
			if d.Prev < 0 {
				continue
			}
			prev := gjson.ParseBytes(js[k])
			k++
			withPrev++
			if d.Prev >= d.Index || prev.Get("object.metadata.name").String() != name || prev.Get("object.metadata.resourceVersion").String() != d.PrevRV {
				t.Errorf("event %d (%s at %s): its previous %d read back as %s at %s, answered at %s", d.Index, name, d.RV,
					d.Prev, prev.Get("object.metadata.name"), prev.Get("object.metadata.resourceVersion"), d.PrevRV)
			}
		}
	}
	if withPrev == 0 || tooOld != 1 {
		t.Errorf("%d events with a previous one, %d 410s: the test proves little", withPrev, tooOld)
	}
	roundTrip(t, "EventDetail", e.Event(o.Events-1))
	for i := range o.Events {
		if d := e.Event(i); d.Prev >= 0 && d.Status == "" {
			roundTrip(t, "EventDetail with a previous event", d)
			break
		}
	}
}
