package parser

import (
	"bytes"
	"testing"

	"watchlens/internal/synth"
)

// TestTemplateCutsOutSkippedStringsThatVary reads Leases, whose holders
// are named in the owner reference and in a key of fieldsV1, values the
// walk skips: once two holders' metadata have been walked, those strings
// are cut out of the template, and the other holders' events are read by
// it, each as gjson reads it, escapes in those strings included; an owner
// reference of another shape is walked.
func TestTemplateCutsOutSkippedStringsThatVary(t *testing.T) {
	lease := func(i int) []byte {
		var b bytes.Buffer
		synth.Lease(&b, i)
		return bytes.TrimSpace(b.Bytes())
	}
	tab := newInternTable()
	var memo fastMemo
	read := func(v []byte) (templated bool) {
		t.Helper()
		tp := &memo.tmpl
		tried := tp.ok && tp.skip == 0
		readFastAsGJSON(t, v, tab, &memo)
		return tried && tp.misses == 0
	}
	read(lease(0))
	read(lease(1))
	if read(lease(2)) {
		t.Fatal("the third event is read by the template made from the second alone")
	}
	var cut []string
	for _, sp := range memo.tmpl.spans {
		if sp&spanSkipped != 0 {
			off, n := int(uint32(sp)), int(uint16(sp>>32))
			cut = append(cut, string(memo.tmpl.b[off:off+n]))
		}
	}
	want := []string{"node-0002", "00000002-0000-4000-8000-000000000000", `k:{\"uid\":\"00000002-0000-4000-8000-000000000000\"}`}
	if len(cut) != len(want) || cut[0] != want[0] || cut[1] != want[1] || cut[2] != want[2] {
		t.Fatalf("skipped strings cut out: %q, want %q", cut, want)
	}
	for i := 3; i < 300; i++ {
		if !read(lease(i * 7)) {
			t.Fatalf("event %d not read by the template", i*7)
		}
	}
	escaped := bytes.Replace(lease(5), []byte(`"name":"node-0005"}]`), []byte(`"name":"node-\u0030\"5"}]`), 1)
	if !read(escaped) {
		t.Fatal("an escape in the owner's name is not read by the template")
	}
	other := bytes.Replace(lease(6), []byte(`"kind":"Node",`), []byte(`"kind":"Node","controller":true,`), 1)
	if read(other) {
		t.Fatal("an owner reference with another key is read by the template")
	}
}

// TestTemplatedLineEnds reads NDJSON of ConfigMaps, whose events are read
// by the metadata template before their line's end is looked for
// (templatedValue), with lines broken by a line end where the template
// has a string (in a name, a uid, a time), the rest of the line as it
// was: the template, which would fit across the line end, must not, and
// each such line is a cut event and a line of garbage, diagnosed and
// skipped. The events around them are read as gjson reads them, and so
// is one whose object has an "object" key after the metadata.
func TestTemplatedLineEnds(t *testing.T) {
	var b bytes.Buffer
	for i := range 40 {
		synth.ConfigMap(&b, i)
	}
	lines := bytes.SplitAfter(b.Bytes(), []byte("\n"))
	var in bytes.Buffer
	var want [][]byte
	broken := 0
	for i, l := range lines[:len(lines)-1] {
		switch i {
		case 10, 20, 30:
			at := bytes.Index(l, []byte([...]string{`"name":"state-`, `"uid":"`, `"time":"`}[i/10-1])) + 10
			in.Write(l[:at])
			in.WriteByte('\n')
			in.Write(l[at:])
			broken++
			continue
		case 25:
			l = bytes.Replace(l, []byte(`,"data":`), []byte(`,"object":{"kind":"Secret"},"data":`), 1)
		}
		in.Write(l)
		want = append(want, bytes.TrimSpace(l))
	}
	rd := NewReader(bytes.NewReader(in.Bytes()), Options{})
	k := 0
	for rd.Next() {
		if k >= len(want) {
			t.Fatalf("more events than the %d lines not broken: %+v", len(want), rd.Event())
		}
		var ref fields
		extractGJSON(want[k], &ref)
		if ev := rd.Event(); ev.Name != ref.name || ev.UID != ref.uid || ev.RV != ref.rv || ev.Kind != ref.kind || ev.Estimated != ref.estimated {
			t.Fatalf("event %d: %s %q %s %s %d, gjson reads %s %q %s %s %d", k, ev.Kind, ev.Name, ev.UID, ev.RV, ev.Estimated,
				ref.kind, ref.name, ref.uid, ref.rv, ref.estimated)
		}
		k++
	}
	if k != len(want) {
		t.Fatalf("%d events, want %d", k, len(want))
	}
	kinds := map[DiagnosticKind]int{}
	for _, d := range rd.Diagnostics() {
		kinds[d.Kind]++
	}
	if kinds[DiagCutEvent] != broken || kinds[DiagBadJSON] != broken || len(rd.Diagnostics()) != 2*broken {
		t.Fatalf("diagnostics %v, want a cut event and garbage for each of the %d broken lines", rd.Diagnostics(), broken)
	}
}

// TestTemplateMutatedBytes reads the fourth event of each small kind after
// three that make the metadata template (a Lease's takes two walks
// before it cuts out the holder's strings), with each of its bytes in turn
// replaced by a quote, a backslash, a line end or a letter, or removed,
// and holds what the template's read gives (the fields, where it ends,
// whether it declines) to the walk's, through a memo that never makes a
// template: where the template's fixed bytes or its strings' ends are
// misjudged, the two differ. Most of the mutated events must still be
// read by the template (those changed after the metadata, or in a
// string it cuts out), or the test says nothing.
func TestTemplateMutatedBytes(t *testing.T) {
	for _, kind := range []struct {
		name  string
		event func(*bytes.Buffer, int)
	}{{"configmap", synth.ConfigMap}, {"lease", synth.Lease}, {"event", synth.Event}} {
		line := func(i int) []byte {
			var b bytes.Buffer
			kind.event(&b, i)
			return bytes.TrimSpace(b.Bytes())
		}
		primers, fourth := [][]byte{line(0), line(1), line(2)}, line(3)
		read := func(v []byte, templated bool) (f fields, end int, early, ok, fit bool) {
			tab := newInternTable()
			var memo fastMemo
			if !templated {
				templateOff(&memo.tmpl)
			}
			for _, l := range primers {
				if _, _, ok := extractFast(l, &f, tab, &memo); !ok {
					t.Fatalf("%s: the fast path declined %s", kind.name, l)
				}
			}
			tried := memo.tmpl.ok && memo.tmpl.skip == 0
			end, early, ok = extractFast(v, &f, tab, &memo)
			return f, end, early, ok, tried && memo.tmpl.misses == 0
		}
		if _, _, _, _, fit := read(fourth, true); !fit {
			t.Fatalf("%s: the fourth event is not read by the template", kind.name)
		}
		fits, cases := 0, 0
		for p := range fourth {
			// "" removes the byte.
			for _, c := range []string{`"`, `\`, "\n", "x", ""} {
				v := append(append(append([]byte(nil), fourth[:p]...), c...), fourth[p+1:]...)
				f, end, early, ok, fit := read(v, true)
				wf, wend, wearly, wok, _ := read(v, false)
				if f != wf || end != wend || early != wearly || ok != wok {
					t.Fatalf("%s, byte %d made %q: the template reads %v %d %v %+v\nthe walk %v %d %v %+v",
						kind.name, p, c, ok, end, early, f, wok, wend, wearly, wf)
				}
				cases++
				if fit {
					fits++
				}
			}
		}
		if fits < cases/10 {
			t.Fatalf("%s: %d of %d mutated events read by the template", kind.name, fits, cases)
		}
	}
}
