package engine

import (
	"reflect"
	"testing"
)

// TestRangeStatsAreTheModels: the statistics of a range, on the time
// axis and on the resourceVersion axis, are the model's own for the same
// range, and cross a message unchanged.
func TestRangeStatsAreTheModels(t *testing.T) {
	e, o := sampleEngine(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	an := e.Analysis()
	zones := 0
	for _, rv := range []bool{false, true} {
		lo, hi := o.Extent(rv)
		from, to := lo+(hi-lo)/4, hi
		st := e.RangeStats(rv, from, to)
		want := an.RangeStats(from, to)
		if rv {
			want = an.RangeStatsRV(uint64(from), uint64(to))
		}
		if !reflect.DeepEqual(st, want) {
			t.Errorf("rv %v: the range's statistics %+v, the model's %+v", rv, st, want)
		}
		if st.Events == 0 || len(st.Cursors) == 0 || st.AxisRV != rv {
			t.Errorf("rv %v: the range [%d, %d) holds %d events and %d cursors: the comparison proves little", rv, from, to, st.Events, len(st.Cursors))
		}
		zones += len(st.Zones)
		roundTrip(t, "RangeStats", st)
	}
	if zones == 0 {
		t.Error("no range holds a zone: their outcomes never crossed a message")
	}
}
