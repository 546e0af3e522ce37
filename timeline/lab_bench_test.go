package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// labFiles reads the lab's 207 captures, six audit logs and Prometheus
// exports into memory, by their names in the recording.
func labFiles(b *testing.B) (names []string, data [][]byte) {
	dir := testsample.Recording(b, "samples-lab")
	for _, pattern := range []string{"*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz"} {
		paths, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, p := range paths {
			bs, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			names, data = append(names, rel), append(data, bs)
		}
	}
	return names, data
}

// parseLab reads every file through the parser alone, as its kind asks.
func parseLab(b *testing.B, names []string, data [][]byte) {
	for k, bs := range data {
		r := bytes.NewReader(bs)
		var err error
		switch filepath.Ext(names[k]) {
		case ".log":
			_, err = parser.ReadAudit(r, parser.Options{})
		case ".gz":
			_, err = parser.ReadMetrics(r, parser.Options{})
		default:
			rd := parser.NewReader(r, parser.Options{})
			for rd.Next() {
			}
			err = rd.Err()
		}
		if err != nil {
			b.Fatalf("%s: %v", names[k], err)
		}
	}
}

// analyzeLab builds the timeline of every file, analyses it with the
// lab's compaction interval, and answers the fleet and the summary: the
// postmortem's whole work.
func analyzeLab(b *testing.B, names []string, data [][]byte) {
	bl := NewBuilder()
	for k, bs := range data {
		if err := bl.AddReader(names[k], bytes.NewReader(bs), parser.Options{}); err != nil {
			b.Fatalf("%s: %v", names[k], err)
		}
	}
	p := realServer()
	p.EtcdInterval = time.Minute
	a := bl.Build().Analyze(p)
	if a.Fleet() == nil || len(a.Summary(nil)) == 0 {
		b.Fatal("no fleet, no summary")
	}
}

// BenchmarkLabAnalyze: the lab's postmortem natively, against reading its
// bytes through the parser alone, alternated in one run; "x-parse" is
// the ratio (the goal is at most 2).
//
//	go test -run '^$' -bench LabAnalyze -benchtime 5x ./timeline
func BenchmarkLabAnalyze(b *testing.B) {
	names, data := labFiles(b)
	var parse, analyze time.Duration
	for b.Loop() {
		t0 := time.Now()
		parseLab(b, names, data)
		t1 := time.Now()
		analyzeLab(b, names, data)
		parse, analyze = parse+t1.Sub(t0), analyze+time.Since(t1)
	}
	b.ReportMetric(float64(parse.Milliseconds())/float64(b.N), "parse-ms/op")
	b.ReportMetric(float64(analyze.Milliseconds())/float64(b.N), "analyze-ms/op")
	b.ReportMetric(float64(analyze)/float64(parse), "x-parse")
}
