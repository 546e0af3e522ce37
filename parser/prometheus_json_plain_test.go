package parser

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"watchlens/internal/testsample"
)

// readJSONBoth reads b through the plain path alone and through the
// general one alone: what the plain one read, whether it did, and what
// the general one read.
func readJSONBoth(b []byte, lim metricsLimits) (plain *MetricsExport, ok bool, general *MetricsExport) {
	p := &metricsReader{lim: lim, index: map[string]int{}, intern: interner{}}
	ok = p.readPlainJSON(b)
	p.finish()
	g := &metricsReader{lim: lim, index: map[string]int{}, intern: interner{}}
	g.readAnyJSON(b)
	g.finish()
	return &p.out, ok, &g.out
}

// sameExport says whether a and b read the same: NaN values equal.
func sameExport(a, b *MetricsExport) bool {
	if a.Format != b.Format || a.Points != b.Points || a.At != b.At || a.Skipped != b.Skipped ||
		!reflect.DeepEqual(a.Diagnostics, b.Diagnostics) || len(a.Series) != len(b.Series) {
		return false
	}
	for i := range a.Series {
		x, y := a.Series[i], b.Series[i]
		if x.Name != y.Name || !reflect.DeepEqual(x.Labels, y.Labels) || !slices.Equal(x.T, y.T) ||
			!slices.EqualFunc(x.V, y.V, func(v, w float64) bool { return math.Float64bits(v) == math.Float64bits(w) }) {
			return false
		}
	}
	return true
}

// The exports of the shared recordings are as Prometheus writes them:
// the plain path reads every one, into what the general path reads.
func TestPlainJSONReadsTheRecordingsExports(t *testing.T) {
	n := 0
	for _, rec := range []string{"samples-lab", "samples-watchlist", "samples-outage"} {
		paths, _ := filepath.Glob(filepath.Join(testsample.Recording(t, rec), "prometheus", "query_range", "*.json.gz"))
		for _, path := range paths {
			zr, err := gzip.NewReader(bytes.NewReader(testsample.Read(t, path)))
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			plain, ok, general := readJSONBoth(b, defaultMetricsLimits)
			if !ok {
				t.Errorf("%s/%s: the plain path left it to the general one", rec, filepath.Base(path))
				continue
			}
			if len(general.Diagnostics) > 0 || general.Points == 0 {
				t.Errorf("%s/%s: the general path read %d points, said %v", rec, filepath.Base(path), general.Points, general.Diagnostics)
			}
			if !sameExport(plain, general) {
				t.Errorf("%s/%s: the plain path read %d series, %d points; the general one %d, %d", rec, filepath.Base(path),
					len(plain.Series), plain.Points, len(general.Series), general.Points)
			}
			n++
		}
	}
	if n < 60 {
		t.Fatalf("%d exports read, want the recordings' 78", n)
	}
}

// What the plain path reads, it reads as the general path does; what
// the general path would say anything about, the plain path leaves to
// it.
func FuzzPlainJSONAgrees(f *testing.F) {
	for _, s := range []string{
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"x","b":"2","a":"1"},"values":[[1796149278,"1"],[1796149279.5,"2.5"]]},{"metric":{"__name__":"x","a":""},"values":[]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"x"},"value":[1.5,"NaN"]}]}}`,
		`{ "status" : "success" , "data" : { "resultType" : "matrix" , "result" : [ { "metric" : { } , "values" : [ [ 1 , "+Inf" ] ] } ] } , "warnings" : ["w"] }`,
		`{"status":"success","data":{"result":[{"values":[[1,"1"]],"metric":{"a":"b"}}],"resultType":"matrix"}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"b"},"values":[[01,"1"]]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"b"},"values":[[0,"1e400"],[1,"0x1p3"]]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"\u0062"},"values":[[1,"1"]],"histograms":[]}]}}`,
		`{"status":"error","errorType":"bad_data","error":"x"}`,
		"\xef\xbb\xbf{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}} x",
	} {
		f.Add([]byte(s))
	}
	lim := metricsLimits{bytes: 1 << 16, points: 64, series: 16}
	f.Fuzz(func(t *testing.T, in []byte) {
		plain, ok, general := readJSONBoth(in, lim)
		if !ok {
			return
		}
		if len(general.Diagnostics) > 0 {
			t.Fatalf("the plain path read what the general path says %v about", general.Diagnostics)
		}
		if !sameExport(plain, general) {
			t.Fatalf("the plain path read %+v, the general one %+v", plain, general)
		}
	})
}
