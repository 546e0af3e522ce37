package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"watchlens/internal/testsample"
)

// Grafana's exports, made from the lab's real query_range values (there
// is no real Grafana export in the recordings) in the shapes evidence.md
// §1.4 quotes. The files in testdata/grafana are what these writers make
// of the export; `go test ./parser -run Grafana -update` rewrites them.

// grafanaSourceSeries are the lab's watch-cache RVs of ConfigMaps and
// Secrets on each server: six series with the restarts' gaps.
func grafanaSourceSeries(t *testing.T) []MetricSeries {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	m := readMetricsFile(t, filepath.Join(dir, "prometheus", "query_range", "apiserver_watch_cache_resource_version.json.gz"))
	var out []MetricSeries
	for _, s := range m.Series {
		if r := s.Label("resource"); r == "configmaps" || r == "secrets" {
			out = append(out, s)
		}
	}
	if len(out) != 6 {
		t.Fatalf("%d source series", len(out))
	}
	return out
}

// grafanaDisplay is a series' display name as Grafana shows a Prometheus
// series without a legend: name{k="v", ...}.
func grafanaDisplay(s MetricSeries) string {
	var ls []string
	for _, l := range s.Labels {
		ls = append(ls, fmt.Sprintf("%s=%q", l.Name, l.Value))
	}
	return s.Name + "{" + strings.Join(ls, ", ") + "}"
}

// grafanaJoinedCSV is "Series joined by time": a Time column of epoch ms
// (or, formatted, "2006-01-02 15:04:05" in the browser's zone, here
// UTC), a column per series, empty where it has no point.
func grafanaJoinedCSV(series []MetricSeries, sep string, sepLine, formatted bool) []byte {
	var times []int64
	at := map[int64]map[int]float64{}
	for k, s := range series {
		for i, t := range s.T {
			if at[t] == nil {
				at[t] = map[int]float64{}
				times = append(times, t)
			}
			at[t][k] = s.V[i]
		}
	}
	sortInt64(times)
	var b bytes.Buffer
	if sepLine {
		b.WriteString("sep=" + sep + "\r\n")
	}
	head := []string{`"Time"`}
	for _, s := range series {
		head = append(head, `"`+strings.ReplaceAll(grafanaDisplay(s), `"`, `""`)+`"`)
	}
	b.WriteString(strings.Join(head, sep) + "\r\n")
	for _, t := range times {
		row := []string{strconv.FormatInt(t/1e6, 10)}
		if formatted {
			row[0] = time.Unix(0, t).UTC().Format("2006-01-02 15:04:05")
		}
		for k := range series {
			cell := ""
			if v, ok := at[t][k]; ok {
				cell = strconv.FormatFloat(v, 'f', -1, 64)
			}
			row = append(row, cell)
		}
		b.WriteString(strings.Join(row, sep) + "\r\n")
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// grafanaExcel is "Download for Excel": UTF-16LE with a BOM, TAB.
func grafanaExcel(series []MetricSeries) []byte {
	text := grafanaJoinedCSV(series, "\t", false, false)
	u := utf16.Encode([]rune(string(text)))
	out := []byte{0xff, 0xfe}
	for _, c := range u {
		out = append(out, byte(c), byte(c>>8))
	}
	return out
}

// grafanaFrames is the JSON tab's DataFrame JSON: one frame per series,
// as the Prometheus data source answers a range query.
func grafanaFrames(series []MetricSeries) []byte {
	type field struct {
		Name   string            `json:"name"`
		Type   string            `json:"type"`
		Labels map[string]string `json:"labels,omitempty"`
		Config map[string]any    `json:"config"`
	}
	type frame struct {
		Schema struct {
			RefID  string  `json:"refId"`
			Fields []field `json:"fields"`
		} `json:"schema"`
		Data struct {
			Values [][]float64 `json:"values"`
		} `json:"data"`
	}
	var frames []frame
	for _, s := range series {
		var f frame
		f.Schema.RefID = "A"
		labels := map[string]string{"__name__": s.Name}
		for _, l := range s.Labels {
			labels[l.Name] = l.Value
		}
		f.Schema.Fields = []field{
			{Name: "Time", Type: "time", Config: map[string]any{"interval": 1000}},
			{Name: "Value", Type: "number", Labels: labels, Config: map[string]any{"displayNameFromDS": grafanaDisplay(s)}},
		}
		var ts []float64
		for _, t := range s.T {
			ts = append(ts, float64(t/1e6))
		}
		f.Data.Values = [][]float64{ts, s.V}
		frames = append(frames, f)
	}
	b, _ := json.MarshalIndent(frames, "", "  ")
	return append(b, '\n')
}

func sortInt64(ts []int64) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j] < ts[j-1]; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// TestGrafanaExports: each file of testdata/grafana is what the writers
// make of the lab's export, and reads back as its six series, point for
// point.
func TestGrafanaExports(t *testing.T) {
	src := grafanaSourceSeries(t)
	for _, tc := range []struct {
		file   string
		make   func() []byte
		format MetricsFormat
		diag   string // the one diagnostic expected, "" for none
	}{
		{"lab-rv-joined.csv", func() []byte { return grafanaJoinedCSV(src, ",", false, false) }, MetricsGrafanaCSV, ""},
		{"lab-rv-joined-de.csv", func() []byte { return grafanaJoinedCSV(src, ";", true, false) }, MetricsGrafanaCSV, ""},
		{"lab-rv-formatted.csv", func() []byte { return grafanaJoinedCSV(src, ",", false, true) }, MetricsGrafanaCSV, "local-time"},
		{"lab-rv-excel.csv", func() []byte { return grafanaExcel(src) }, MetricsGrafanaCSV, "utf-16"},
		{"lab-rv-frames.json", func() []byte { return grafanaFrames(src) }, MetricsGrafanaFrame, ""},
	} {
		path := filepath.Join("testdata", "grafana", tc.file)
		want := tc.make()
		if *update {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the writer makes of the lab's export (-update rewrites it)", tc.file)
		}
		if head, _ := SniffHead(bytes.NewReader(got)); head.Metrics() != tc.format {
			t.Errorf("%s: sniffed as %v", tc.file, head.Metrics())
		}
		m, err := ReadMetrics(bytes.NewReader(got), Options{})
		if err != nil || m.Format != tc.format || len(m.Series) != len(src) {
			t.Fatalf("%s: %v, %d series, %v", tc.file, m.Format, len(m.Series), err)
		}
		if tc.diag == "" && len(m.Diagnostics) != 0 || tc.diag != "" && (len(m.Diagnostics) != 1 || string(m.Diagnostics[0].Kind) != tc.diag) {
			t.Errorf("%s: diagnostics %v, want %q", tc.file, m.Diagnostics, tc.diag)
		}
		for k, s := range m.Series {
			w := src[k]
			if s.Name != w.Name || grafanaDisplay(s) != grafanaDisplay(w) || len(s.T) != len(w.T) {
				t.Fatalf("%s: series %d is %s with %d points, want %s with %d", tc.file, k, grafanaDisplay(s), len(s.T), grafanaDisplay(w), len(w.T))
			}
			for i := range s.T {
				if s.T[i] != w.T[i] || s.V[i] != w.V[i] {
					t.Fatalf("%s %s: point %d is (%d, %v), want (%d, %v)", tc.file, s.Name, i, s.T[i], s.V[i], w.T[i], w.V[i])
				}
			}
		}
	}
}

// TestGrafanaBadCells: a formatted value with units, a row before the
// header and a bad time are each diagnosed at their row, and the rest
// is read; NaN and Inf come from a frame's entities.
func TestGrafanaBadCells(t *testing.T) {
	in := "\"Time\";\"rv{server=\"\"a\"\"}\";\"rv{server=\"\"b\"\"}\"\r\n1764612000000;1,5;3.2 K\r\nyesterday;1;2\r\n1764612001000;;4\r\n"
	m, _ := ReadMetrics(strings.NewReader(in), Options{})
	if m.Format != MetricsGrafanaCSV || len(m.Series) != 2 || m.Points != 2 || m.Skipped != 1 || len(m.Diagnostics) != 2 {
		t.Fatalf("%v, %d series, %d points, %d skipped, %v", m.Format, len(m.Series), m.Points, m.Skipped, m.Diagnostics)
	}
	if a := m.Series[0]; a.Label("server") != "a" || a.V[0] != 1.5 || len(a.T) != 1 {
		t.Errorf("a: %+v", a)
	}
	if d := m.Diagnostics[1]; d.Kind != "bad-csv" || d.Offset != int64(strings.Index(in, "yesterday")) || d.Line != 3 {
		t.Errorf("bad time: %v", d)
	}
	frame := `{"schema":{"fields":[{"name":"Time","type":"time"},{"name":"Value","type":"number","labels":{"__name__":"x","instance":"i"}}]},` +
		`"data":{"values":[[1000,2000,3000],[1,null,null]],"entities":[null,{"NaN":[1],"Inf":[2]}]}}`
	m, _ = ReadMetrics(strings.NewReader(frame), Options{})
	if len(m.Series) != 1 || m.Points != 3 || m.Series[0].Label("instance") != "i" || m.Series[0].V[2] <= 1e308 || m.Series[0].V[1] == m.Series[0].V[1] {
		t.Errorf("frame: %+v %v", m.Series, m.Diagnostics)
	}
}
