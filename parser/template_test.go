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
