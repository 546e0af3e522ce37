package parser

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// exportIndex is a recording's prometheus/query_range/INDEX.tsv: per
// exported metric, its series and points.
type exportIndex struct {
	name           string
	series, points int
}

func readExportIndex(t *testing.T, dir string) []exportIndex {
	t.Helper()
	b := testsample.Read(t, filepath.Join(dir, "prometheus", "query_range", "INDEX.tsv"))
	var out []exportIndex
	for _, ln := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		c := strings.Split(ln, "\t")
		s, err1 := strconv.Atoi(c[3])
		p, err2 := strconv.Atoi(c[4])
		if len(c) != 6 || err1 != nil || err2 != nil {
			t.Fatalf("INDEX.tsv line %q", ln)
		}
		out = append(out, exportIndex{c[0], s, p})
	}
	return out
}

func readMetricsFile(t *testing.T, path string) *MetricsExport {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ReadMetrics(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMetricsQueryRangeExports: every query_range export of the lab and
// outage recordings reads as a matrix with the series and points its
// INDEX.tsv counted, and nothing to diagnose.
func TestMetricsQueryRangeExports(t *testing.T) {
	for _, rec := range []string{"samples-lab", "samples-outage"} {
		dir := testsample.Recording(t, rec)
		read := 0
		for _, e := range readExportIndex(t, dir) {
			path := filepath.Join(dir, "prometheus", "query_range", e.name+".json.gz")
			if _, err := os.Stat(path); err != nil {
				if e.series != 0 {
					t.Errorf("%s: %s is missing", rec, path)
				}
				continue // an empty answer was not kept
			}
			raw := testsample.Read(t, path)
			if head, _ := SniffHead(bytes.NewReader(raw)); head.Metrics() != MetricsMatrix {
				t.Errorf("%s %s: sniffed as %v", rec, e.name, head.Metrics())
			}
			m := readMetricsFile(t, path)
			read++
			if m.Format != MetricsMatrix || len(m.Series) != e.series || m.Points != e.points || len(m.Diagnostics) != 0 {
				t.Errorf("%s %s: %v, %d series, %d points, %v; INDEX.tsv says %d series, %d points",
					rec, e.name, m.Format, len(m.Series), m.Points, m.Diagnostics, e.series, e.points)
			}
			for _, s := range m.Series {
				if s.Name != e.name || len(s.T) != len(s.V) {
					t.Fatalf("%s %s: a series named %q, %d instants for %d values", rec, e.name, s.Name, len(s.T), len(s.V))
				}
			}
		}
		if read == 0 {
			t.Errorf("%s: no export read", rec)
		}
	}
}

// TestMetricsRawScrape: a raw /metrics scrape reads as text with no
// instant of its own; its headers file gives the instant; the two
// concatenated (as curl -i writes them) give the instant to every point.
// The scrape's values equal Prometheus's at that instant, and its start
// time, in exponent notation, equals the header's.
func TestMetricsRawScrape(t *testing.T) {
	for _, rec := range []string{"samples-lab", "samples-outage"} {
		dir := filepath.Join(testsample.Recording(t, rec), "prometheus")
		rng := strings.Fields(string(testsample.Read(t, filepath.Join(dir, "range.txt"))))
		start, _ := strconv.ParseInt(rng[0], 10, 64)
		end, _ := strconv.ParseInt(rng[1], 10, 64)
		qr := readMetricsFile(t, filepath.Join(dir, "query_range", "apiserver_watch_cache_resource_version.json.gz"))
		for _, srv := range []string{"a", "b", "c"} {
			body := readMetricsFile(t, filepath.Join(dir, "metrics-"+srv+"-end.txt.gz"))
			if body.Format != MetricsText || body.At != 0 || len(body.Series) < 1000 || body.Points != len(body.Series) {
				t.Fatalf("%s %s: %v at %d, %d series, %d points", rec, srv, body.Format, body.At, len(body.Series), body.Points)
			}
			if n := len(body.Diagnostics); n != 1 || body.Diagnostics[0].Kind != "no-date" {
				t.Errorf("%s %s: diagnostics %v, want one no-date", rec, srv, body.Diagnostics)
			}
			hdrBytes := testsample.Read(t, filepath.Join(dir, "metrics-"+srv+"-end.headers.txt"))
			hdr, err := ReadMetrics(bytes.NewReader(hdrBytes), Options{})
			if err != nil || hdr.Format != MetricsHeaders || hdr.At/1e9 < start || hdr.At/1e9 > end || len(hdr.Series) != 0 {
				t.Fatalf("%s %s headers: %v at %d (want within %s), %d series, %v", rec, srv, hdr.Format, hdr.At, rng, len(hdr.Series), err)
			}
			var whole bytes.Buffer
			whole.Write(hdrBytes)
			zr, err := gzip.NewReader(bytes.NewReader(testsample.Read(t, filepath.Join(dir, "metrics-"+srv+"-end.txt.gz"))))
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(&whole, zr)
			m, err := ReadMetrics(&whole, Options{})
			if err != nil || m.Format != MetricsText || m.At != hdr.At || len(m.Series) != len(body.Series) || len(m.Diagnostics) != 0 {
				t.Fatalf("%s %s with headers: %v at %d, %d series, %v, %v", rec, srv, m.Format, m.At, len(m.Series), m.Diagnostics, err)
			}
			// The RV of each resource, as Prometheus had it at the end.
			compared := 0
			for _, s := range m.Series {
				if s.T[0] != m.At {
					t.Fatalf("%s %s: a point at %d, not at the Date %d", rec, srv, s.T[0], m.At)
				}
				switch s.Name {
				case "apiserver_watch_cache_resource_version":
					for _, q := range qr.Series {
						if q.Label("server") != srv || q.Label("resource") != s.Label("resource") || q.Label("group") != s.Label("group") {
							continue
						}
						// Prometheus's point a second before (its last
						// sample then: under load a scrape may time out
						// and the point repeat an older one) is not above
						// the scrape; where the export ends at the scrape
						// (the lab, quiet by then) the two are equal.
						for i := 1; i < len(q.T); i++ {
							if q.T[i] != m.At || q.T[i-1] != m.At-1e9 {
								continue
							}
							compared++
							if s.V[0] < q.V[i-1] || i == len(q.T)-1 && s.V[0] != q.V[i] {
								t.Errorf("%s %s %s: scrape %v, Prometheus %v then %v", rec, srv, s.Label("resource"), s.V[0], q.V[i-1], q.V[i])
							}
						}
					}
				case "process_start_time_seconds":
					want := headerValue(hdrBytes, "process-start-time-unix")
					if h, _ := strconv.ParseFloat(want, 64); math.Abs(h-s.V[0]) >= 1 {
						t.Errorf("%s %s: process_start_time_seconds %v, header %s", rec, srv, s.V[0], want)
					}
				}
			}
			if compared < 20 {
				t.Errorf("%s %s: %d resources compared with Prometheus", rec, srv, compared)
			}
			// The core group is left out, as Prometheus stores it.
			for _, s := range m.Series {
				if s.Name == "apiserver_watch_cache_resource_version" && s.Label("resource") == "configmaps" {
					for _, l := range s.Labels {
						if l.Name == "group" {
							t.Errorf("%s %s: configmaps has group %q", rec, srv, l.Value)
						}
					}
				}
			}
		}
	}
}

// TestMetricsTextForms: the forms of the text format that the lab's
// 1.37 scrapes do not have: labels of 1.33 and before (resource only),
// timestamps, escapes, OpenMetrics, special values.
func TestMetricsTextForms(t *testing.T) {
	in := "# HELP apiserver_watch_cache_resource_version [ALPHA] Current resource version of watch cache broken by resource type.\n" +
		"# TYPE apiserver_watch_cache_resource_version gauge\n" +
		"apiserver_watch_cache_resource_version{resource=\"deployments.apps\"} 3.171407e+06 1764612000000\n" +
		"apiserver_watch_cache_resource_version{resource=\"deployments.apps\"} 3.171409e+06 1764612001000\n" +
		"weird{path=\"a\\\"b\\\\c\\nd\",empty=\"\"} +Inf\n" +
		"{\"utf8.name\",le=\"1\"} NaN\n" +
		"bare 1e-3\r\n"
	m, err := ReadMetrics(strings.NewReader(in), Options{})
	if err != nil || m.Format != MetricsText || len(m.Series) != 4 || m.Points != 5 {
		t.Fatalf("%v, %d series, %d points, %v, %v", m.Format, len(m.Series), m.Points, m.Diagnostics, err)
	}
	rv := m.Series[0]
	if rv.Label("resource") != "deployments.apps" || len(rv.T) != 2 || rv.T[1]-rv.T[0] != 1e9 || rv.V[1] != 3171409 {
		t.Errorf("RV series %+v", rv)
	}
	if w := m.Series[1]; w.Label("path") != "a\"b\\c\nd" || len(w.Labels) != 1 || !math.IsInf(w.V[0], 1) {
		t.Errorf("escapes: %+v", w)
	}
	if u := m.Series[2]; u.Name != "utf8.name" || !math.IsNaN(u.V[0]) {
		t.Errorf("quoted name: %+v", u)
	}
	om := "# TYPE x counter\nx_total 3 1764612000.5 # {trace=\"a\"} 1\n# EOF\n"
	m, _ = ReadMetrics(strings.NewReader("HTTP/1.1 200 OK\r\nContent-Type: application/openmetrics-text; version=1.0.0\r\n\r\n"+om), Options{})
	if len(m.Series) != 1 || m.Series[0].T[0] != 1764612000_500000000 || m.Series[0].V[0] != 3 {
		t.Errorf("OpenMetrics: %+v %v", m.Series, m.Diagnostics)
	}
}

// TestMetricsVector: an instant query's answer.
func TestMetricsVector(t *testing.T) {
	in := `{"status":"success","data":{"resultType":"vector","result":[` +
		`{"metric":{"__name__":"watch_cache_capacity","group":"","resource":"pods","instance":"10.0.0.1:6443"},"value":[1764612000.781,"400"]},` +
		`{"metric":{"__name__":"watch_cache_capacity","resource":"pods","instance":"10.0.0.2:6443"},"value":[1764612000.781,"800"]}]}}`
	m, err := ReadMetrics(strings.NewReader(in), Options{})
	if err != nil || m.Format != MetricsVector || len(m.Series) != 2 || len(m.Diagnostics) != 0 {
		t.Fatalf("%v %d %v %v", m.Format, len(m.Series), m.Diagnostics, err)
	}
	if s := m.Series[0]; s.T[0] != 1764612000_781000000 || s.V[0] != 400 || s.Label("group") != "" || len(s.Labels) != 2 {
		t.Errorf("%+v", s)
	}
}

// TestMetricsPointsWrittenOtherwise: the points of a values array read
// the same whether the API wrote them (read without gjson, see
// plainValues) or a tool re-wrote them with spaces (read through gjson):
// on the lab's exports indented, and on one array that changes form in
// the middle. The series read first keep their names and labels while
// the others are read into the same buffer (exportBuffer).
func TestMetricsPointsWrittenOtherwise(t *testing.T) {
	dir := filepath.Join(testsample.Recording(t, "samples-lab"), "prometheus", "query_range")
	var first *MetricsExport
	var firstJSON []byte
	defer func() {
		if again, _ := json.Marshal(first.Series); !bytes.Equal(again, firstJSON) {
			t.Errorf("the first export's series changed as the others were read")
		}
	}()
	for _, name := range []string{"up.json.gz", "apiserver_watch_cache_resource_version.json.gz", "watch_cache_capacity.json.gz"} {
		zr, err := gzip.NewReader(bytes.NewReader(testsample.Read(t, filepath.Join(dir, name))))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		var spaced bytes.Buffer
		if err := json.Indent(&spaced, plain, "", " "); err != nil {
			t.Fatal(err)
		}
		a, _ := ReadMetrics(bytes.NewReader(plain), Options{})
		if first == nil {
			first = a
			firstJSON, _ = json.Marshal(a.Series)
		}
		b, _ := ReadMetrics(&spaced, Options{})
		if a.Points == 0 || a.Points != b.Points || len(a.Diagnostics)+len(b.Diagnostics) != 0 || !reflect.DeepEqual(a.Series, b.Series) {
			t.Errorf("%s: %d points as written, %d indented; diagnostics %v %v", name, a.Points, b.Points, a.Diagnostics, b.Diagnostics)
		}
	}
	in := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"x"},"values":[[1,"1"],[2.5,"2"],[3, "3"],[4,"4"],[5,"a\"b"],[6,"6"] ]},` +
		`{"metric":{"__name__":"y"},"values":[]},{"metric":{"__name__":"z"},"values":[ [7,"7"]]}]}}`
	m, _ := ReadMetrics(strings.NewReader(in), Options{})
	var got []string
	for _, s := range m.Series {
		for i := range s.T {
			got = append(got, fmt.Sprintf("%s %d %g", s.Name, s.T[i], s.V[i]))
		}
	}
	want := []string{"x 1000000000 1", "x 2500000000 2", "x 3000000000 3", "x 4000000000 4", "x 6000000000 6", "z 7000000000 7"}
	if !slices.Equal(got, want) || len(m.Diagnostics) != 1 || m.Diagnostics[0].Offset != int64(strings.Index(in, `"a\"b"`)) {
		t.Errorf("points %q, diagnostics %v", got, m.Diagnostics)
	}
}

// TestMetricsBadInput: each problem is diagnosed at its offset, and what
// can be read is.
func TestMetricsBadInput(t *testing.T) {
	text := "ok 1\nnot a sample\nok2{a=\"1\" 2\nok3 3\n"
	m, _ := ReadMetrics(strings.NewReader(text), Options{})
	if len(m.Series) != 2 || len(m.Diagnostics) != 3 {
		t.Fatalf("%d series, %v", len(m.Series), m.Diagnostics)
	}
	if d := m.Diagnostics[0]; d.Offset != 5 || d.Line != 2 || d.Kind != "bad-sample" {
		t.Errorf("first: %v", d)
	}
	if d := m.Diagnostics[1]; d.Offset != int64(strings.Index(text, "ok2")) || d.Line != 3 {
		t.Errorf("second: %v", d)
	}
	qr := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"x"},"values":[[1,"1"],[2,"two"],[3]]},{"metric":{"__name__":"y"},"values":[[1,"1"],[2,`
	m, _ = ReadMetrics(strings.NewReader(qr), Options{})
	kinds := map[string]int64{}
	for _, d := range m.Diagnostics {
		if _, ok := kinds[string(d.Kind)]; !ok {
			kinds[string(d.Kind)] = d.Offset
		}
	}
	if kinds["bad-json"] != int64(len(qr)) || kinds["bad-point"] != int64(strings.Index(qr, `"two"`)) || len(m.Series) != 2 || m.Points != 2 {
		t.Errorf("%d series, %d points, %v", len(m.Series), m.Points, m.Diagnostics)
	}
	m, _ = ReadMetrics(strings.NewReader(`{"status":"error","errorType":"bad_data","error":"parse error at char 3"}`), Options{})
	if len(m.Diagnostics) != 1 || m.Diagnostics[0].Kind != "query-failed" || !strings.Contains(m.Diagnostics[0].Msg, "bad_data") {
		t.Errorf("error envelope: %v", m.Diagnostics)
	}
	m, _ = readMetrics(strings.NewReader("a 1\nb 2\nc 3\nd 4\n"), Options{}, metricsLimits{bytes: 1 << 20, points: 2, series: 10})
	if m.Points != 2 || m.Skipped != 2 || len(m.Diagnostics) != 1 || m.Diagnostics[0].Kind != "too-many-points" || m.Diagnostics[0].Offset != 8 {
		t.Errorf("bounded: %d points, %d skipped, %v", m.Points, m.Skipped, m.Diagnostics)
	}
}

// TestIsMetricsNotCaptures: no capture of the samples is taken for a
// Prometheus export.
func TestIsMetricsNotCaptures(t *testing.T) {
	paths, _ := filepath.Glob(testsample.Path(t, testsample.SamplesDir, "*"))
	n := 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".tsv") || strings.HasSuffix(p, ".md") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		n++
		if head, _ := SniffHead(bytes.NewReader(b)); head.Metrics() != MetricsUnknown {
			t.Errorf("%s sniffed as %v", p, head.Metrics())
		}
	}
	if n < 10 {
		t.Fatalf("only %d samples", n)
	}
}

// FuzzReadMetrics: any input reads without panic, within its bounds,
// with each diagnostic inside the input, each series' points in time
// order and counted, and sniffing hands back every byte.
func FuzzReadMetrics(f *testing.F) {
	dir := filepath.Join(testsample.Recording(f, "samples-lab"), "prometheus")
	hdr := testsample.Read(f, filepath.Join(dir, "metrics-a-end.headers.txt"))
	zr, err := gzip.NewReader(bytes.NewReader(testsample.Read(f, filepath.Join(dir, "metrics-a-end.txt.gz"))))
	if err != nil {
		f.Fatal(err)
	}
	scrape, _ := io.ReadAll(io.LimitReader(zr, 2048))
	f.Add(append(append([]byte{}, hdr...), scrape...))
	f.Add(scrape)
	zr, err = gzip.NewReader(bytes.NewReader(testsample.Read(f, filepath.Join(dir, "query_range", "up.json.gz"))))
	if err != nil {
		f.Fatal(err)
	}
	qr, _ := io.ReadAll(io.LimitReader(zr, 2048))
	f.Add(qr)
	f.Add([]byte(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"x"},"value":[1.5,"NaN"]}]}}`))
	f.Add([]byte("{\"a.b\",c=\"\\\"\"} 1e+06 17\n# EOF\n"))
	f.Add([]byte("sep=;\r\n\"Time\";\"x{a=\"\"1\"\"}\"\r\n1764612000000;1,5\r\n\r\n"))
	f.Add([]byte(`[{"schema":{"fields":[{"name":"Time","type":"time"},{"name":"Value","type":"number","labels":{"__name__":"x"}}]},"data":{"values":[[1000],[null]],"entities":[null,{"NaN":[0]}]}}]`))
	lim := metricsLimits{bytes: 1 << 16, points: 64, series: 16}
	f.Fuzz(func(t *testing.T, in []byte) {
		head, r := SniffHead(bytes.NewReader(in))
		format := head.Metrics()
		var back bytes.Buffer
		back.ReadFrom(r)
		if !bytes.Equal(back.Bytes(), in) {
			t.Fatalf("sniffing lost bytes: %d of %d", back.Len(), len(in))
		}
		m, err := readMetrics(bytes.NewReader(in), Options{}, lim)
		if err != nil {
			t.Fatalf("Err %v on in-memory input", err)
		}
		if format == MetricsUnknown && len(m.Series) > 0 {
			t.Fatalf("%d series read of what was sniffed as no export", len(m.Series))
		}
		checkLogDiagnostics(t, in, m.Diagnostics)
		if len(m.Series) > lim.series || m.Points > lim.points {
			t.Fatalf("%d series, %d points: past the bounds", len(m.Series), m.Points)
		}
		n := 0
		for _, s := range m.Series {
			if len(s.T) != len(s.V) || len(s.T) == 0 {
				t.Fatalf("series %q: %d instants, %d values", s.Name, len(s.T), len(s.V))
			}
			for i := 1; i < len(s.T); i++ {
				if s.T[i] < s.T[i-1] {
					t.Fatalf("series %q out of order", s.Name)
				}
			}
			for _, l := range s.Labels {
				if l.Value == "" {
					t.Fatalf("series %q keeps an empty label %q", s.Name, l.Name)
				}
			}
			n += len(s.T)
		}
		if n != m.Points {
			t.Fatalf("%d points counted, %d kept", m.Points, n)
		}
	})
}
