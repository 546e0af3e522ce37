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
	for _, v := range memo.tmpl.vars {
		if v.role == roleSkipped {
			cut = append(cut, string(memo.tmpl.b[v.off:v.off+v.n]))
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
