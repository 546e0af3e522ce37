package parser

import (
	"bytes"
	"testing"

	"watchlens/internal/synth"
)

// TestFastMemoSynth reads the synthetic captures' events through one memo,
// as a Reader does, and holds each to the reference: the realistic pods'
// fieldsV1 are found by how they begin or walked from where they start to
// differ from the last event's, the others' compared or walked whole.
func TestFastMemoSynth(t *testing.T) {
	for name, gen := range map[string]func(*bytes.Buffer, int){
		"realistic pods": synth.RealisticPod, "pods": synth.Pod, "leases": synth.Lease,
		"events": synth.Event, "configmaps": synth.ConfigMap,
	} {
		t.Run(name, func(t *testing.T) {
			tab := newInternTable()
			var memo fastMemo
			var b bytes.Buffer
			for i := range 4000 {
				b.Reset()
				gen(&b, i*7)
				v := bytes.TrimSpace(b.Bytes())
				readFastAsGJSON(t, v, tab, &memo)
			}
		})
	}
}

// readFastAsGJSON reads v by the fast path with tab and memo, and fails
// t unless it takes v and gives what gjson gives.
func readFastAsGJSON(t *testing.T, v []byte, tab *internTable, memo *fastMemo) {
	t.Helper()
	var fast, ref fields
	if _, _, ok := extractFast(v, &fast, tab, memo); !ok {
		t.Fatalf("the fast path declined %.200s", v)
	}
	extractGJSON(v, &ref)
	fast.rvParsed, fast.rvNum = false, 0 // see FuzzFastVsGJSON
	checkLabelsID(t, tab, &fast)
	if fast != ref {
		t.Fatalf("fast %+v\ngjson %+v", fast, ref)
	}
}

// checkLabelsID checks that the number f keeps of its labels, where it
// keeps one, is tab's, and clears it: gjson's fields have none.
func checkLabelsID(t *testing.T, tab *internTable, f *fields) {
	t.Helper()
	if f.labelsID == 0 {
		return
	}
	if _, id := tab.bytesID([]byte(f.labels)); id != f.labelsID {
		t.Fatalf("labels %q kept with number %d, the table's is %d", f.labels, f.labelsID, id)
	}
	f.labelsID = 0
}
