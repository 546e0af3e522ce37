package parser

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
)

// Prometheus exports.
//
// After an incident the API servers' own metrics are often all that is
// left of the watch caches: the head RV each server's cache had over
// time, its capacity, its restarts (evidence.md §1). Users export them as
// the Prometheus HTTP API answered a query (`query_range`: a matrix;
// `query`: a vector), or as one raw scrape of `/metrics` (the text
// exposition format: one instant, whose time only the response's Date
// header says). ReadMetrics reads each into typed series; the timeline
// picks the ones that bear on watches. The files are small (a metric
// over a quarter of an hour is a few MB), so they are read whole, within
// a bound, rather than streamed.

// MetricsFormat is the kind of Prometheus export a file is.
type MetricsFormat uint8

const (
	MetricsUnknown MetricsFormat = iota
	// MetricsMatrix is the HTTP API's `query_range` answer (or an instant
	// query of a range selector): series of many points.
	MetricsMatrix
	// MetricsVector is the HTTP API's instant `query` answer: one point a
	// series.
	MetricsVector
	// MetricsText is a raw scrape of `/metrics` in the text exposition
	// format (or OpenMetrics), possibly after its HTTP response headers.
	MetricsText
	// MetricsHeaders is only the HTTP response headers of a scrape, kept
	// in a file beside it (curl -D): they say the scrape's instant.
	MetricsHeaders
	// MetricsGrafanaCSV is a Grafana panel's data as CSV (Inspect → Data).
	MetricsGrafanaCSV
	// MetricsGrafanaFrame is a Grafana panel's DataFrame JSON.
	MetricsGrafanaFrame
)

var metricsFormatNames = [...]string{"unknown", "query_range", "query", "text", "headers", "grafana-csv", "grafana-frame"}

func (f MetricsFormat) String() string { return metricsFormatNames[f] }

// MetricLabel is one label of a series.
type MetricLabel struct{ Name, Value string }

// MetricSeries is one time series: a metric name, its labels, and its
// points in time order.
type MetricSeries struct {
	Name string
	// Labels are sorted by name, without __name__. A label with an empty
	// value is left out, as Prometheus stores it: the raw scrape's
	// group="" of a core resource and the export's missing group are one
	// series.
	Labels []MetricLabel
	// T are the points' instants (Unix ns), V their values. A point of a
	// scrape whose instant no header says has T 0 (see MetricsExport.At).
	T []int64
	V []float64
}

// Label returns the value of the label name, "" when the series has
// none.
func (s *MetricSeries) Label(name string) string {
	for _, l := range s.Labels {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// MetricsExport is what ReadMetrics read of one file.
type MetricsExport struct {
	Format MetricsFormat
	Series []MetricSeries
	// Points counts the points of every series.
	Points int
	// At is a scrape's instant (MetricsText, MetricsHeaders): its
	// response's Date header, Unix ns (1 s resolution); 0 when the file
	// has no Date. The points of a scrape without timestamps are at At.
	At int64
	// Skipped counts the points left out: non-float samples (native
	// histograms) and points past the bounds.
	Skipped     int
	Diagnostics []Diagnostic
}

// metricsLimits bound what ReadMetrics holds: the decompressed bytes it
// reads whole, the points and the series it keeps.
type metricsLimits struct {
	bytes          int64
	points, series int
}

// defaultMetricsLimits: 256 MB of export text (an hour of a thousand
// series at a 1 s step is about 100 MB of query_range JSON), 16 M points
// (256 MB as kept) and a million series.
var defaultMetricsLimits = metricsLimits{bytes: 256 << 20, points: 16 << 20, series: 1 << 20}

// metricsSniffLen is how much decoded text IsMetrics looks at.
const metricsSniffLen = 4 << 10

// IsMetrics says which Prometheus export the decoded start of a file is,
// MetricsUnknown when none. head may end anywhere.
func IsMetrics(head []byte) MetricsFormat {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(head) == 0 {
		return MetricsUnknown
	}
	if sniffGrafanaFrame(head) {
		return MetricsGrafanaFrame
	}
	if head[0] == '{' {
		// The API's envelope: {"status":..., "data":{"resultType":...}}
		// or, for an error, {"status":"error","errorType":...}.
		if bytes.Contains(head, []byte(`"resultType"`)) || bytes.Contains(head, []byte(`"status"`)) && bytes.Contains(head, []byte(`"errorType"`)) {
			if bytes.Contains(head, []byte(`"vector"`)) {
				return MetricsVector
			}
			return MetricsMatrix
		}
		return MetricsUnknown
	}
	if bytes.HasPrefix(head, []byte("HTTP/")) {
		hdr, body, whole := splitHeaders(head)
		if !metricsContentType(headerValue(hdr, "content-type")) && !bytes.HasPrefix(body, []byte("# HELP ")) && !bytes.HasPrefix(body, []byte("# TYPE ")) {
			return MetricsUnknown
		}
		if whole && len(bytes.TrimSpace(body)) == 0 {
			return MetricsHeaders
		}
		return MetricsText
	}
	if bytes.HasPrefix(head, []byte("# HELP ")) || bytes.HasPrefix(head, []byte("# TYPE ")) {
		return MetricsText
	}
	if _, ok := sniffGrafanaCSV(head); ok {
		return MetricsGrafanaCSV
	}
	// A bare sample line: name{labels} value, or name value.
	ln := head
	if i := bytes.IndexByte(ln, '\n'); i >= 0 {
		ln = ln[:i]
	} else if len(head) == metricsSniffLen {
		return MetricsUnknown
	}
	if _, basic := basicFormat(ln); basic {
		// "INFO:__main__:starting 2 informers" reads as a sample named
		// with colons: it is Python's BASIC_FORMAT log line.
		return MetricsUnknown
	}
	if s, ok := parseSampleLine(string(bytes.TrimRight(ln, "\r")), nil); ok && s.name != "" {
		return MetricsText
	}
	return MetricsUnknown
}

// metricsContentType says whether a Content-Type is the text exposition
// format or OpenMetrics.
func metricsContentType(v string) bool {
	v = strings.ToLower(v)
	return strings.HasPrefix(v, "application/openmetrics-text") || strings.HasPrefix(v, "text/plain") && strings.Contains(v, "version=0.0.4")
}

// ReadMetrics reads a Prometheus export (compressed or not): the HTTP
// API's query_range or query JSON, a raw /metrics scrape, or a Grafana
// panel's CSV or DataFrame JSON. What cannot
// be read is diagnosed with its offset and the rest is read. The error
// is the source's read error only; what was read before it is returned
// with it.
func ReadMetrics(r io.Reader, opts Options) (*MetricsExport, error) {
	return readMetrics(r, opts, defaultMetricsLimits)
}

func readMetrics(r io.Reader, opts Options, lim metricsLimits) (*MetricsExport, error) {
	if opts.MaxDecompressed > 0 && opts.MaxDecompressed < lim.bytes {
		lim.bytes = opts.MaxDecompressed
	}
	m := &metricsReader{lim: lim, index: map[string]int{}, intern: interner{}}
	cr := &countingReader{r: r}
	src, d := openSource(cr, math.MaxInt64, false)
	if d != nil {
		m.diag(*d)
	}
	b, err := readWhole(src.r, lim.bytes+1, takeExportBuffer())
	defer giveExportBuffer(b)
	if src.close != nil {
		src.close()
	}
	if cr.err != nil {
		m.finish()
		return &m.out, cr.err
	}
	if err != nil && src.codec != "" {
		m.diag(*compressionDiag(cr, src.codec, err))
	}
	if int64(len(b)) > lim.bytes {
		b = b[:lim.bytes]
		m.diag(Diagnostic{Offset: lim.bytes, Kind: DiagTooBig,
			Msg: fmt.Sprintf("the export is larger than %d bytes; only what came before was read", lim.bytes)})
	}
	if src.wide != "" {
		m.diag(wideDiag(src.wide, "the export"))
	}
	head := b[:min(len(b), metricsSniffLen)]
	switch f := IsMetrics(head); f {
	case MetricsMatrix, MetricsVector:
		m.readJSON(b)
	case MetricsText, MetricsHeaders:
		m.readText(b)
	case MetricsGrafanaFrame:
		m.readGrafanaFrames(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	case MetricsGrafanaCSV:
		b = bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
		sep, _ := sniffGrafanaCSV(b)
		m.readGrafanaCSV(b, sep)
	default:
		m.diag(Diagnostic{Kind: DiagNotMetrics, Msg: "not a Prometheus export: neither the HTTP API's JSON (resultType), the text exposition format, nor a Grafana panel's CSV or DataFrame JSON"})
	}
	m.finish()
	return &m.out, nil
}

// metricsReader holds ReadMetrics' state.
type metricsReader struct {
	out    MetricsExport
	lim    metricsLimits
	index  map[string]int // series key -> index in out.Series
	intern interner
	key    []byte
	full   bool // the point bound was reached (said once)
	// pointsT and pointsV gather a series' points as readPlainValues
	// reads them.
	pointsT []int64
	pointsV []float64
}

func (m *metricsReader) diag(d Diagnostic) { m.out.Diagnostics = addDiagnostic(m.out.Diagnostics, d) }

// exportBuffer holds the bytes of an export while it is read, kept from
// one read to the next: a page that opens the lab reads tens of them,
// which, each read into new memory growing as it comes (io.ReadAll),
// cost more to clear than to parse as wasm. A sync.Pool gives it up at
// each collection, and a load that keeps what it read collects often.
// What an export's series keep of its bytes is copied (interner.keep).
// A read while another holds it takes new memory.
var exportBuffer = make(chan []byte, 1)

// keptExportBuffer bounds the buffer kept between reads: an export
// larger than that is rare, and its memory is given back.
const keptExportBuffer = 16 << 20

// takeExportBuffer is the kept buffer, emptied, or nil when another read
// holds it.
func takeExportBuffer() []byte {
	select {
	case b := <-exportBuffer:
		return b[:0]
	default:
		return nil
	}
}

// giveExportBuffer keeps b for the next read, unless it is larger than
// keptExportBuffer or another buffer is kept already.
func giveExportBuffer(b []byte) {
	if cap(b) > keptExportBuffer {
		return
	}
	select {
	case exportBuffer <- b[:0]:
	default:
	}
}

// readWhole appends r's bytes to b, up to limit of them.
func readWhole(r io.Reader, limit int64, b []byte) ([]byte, error) {
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = slices.Grow(b, int(min(max(int64(cap(b)), 64<<10), limit-int64(len(b)))))
		}
		n, err := r.Read(b[len(b):int(min(int64(cap(b)), limit))])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// series returns the index of the series of name and labels (labels
// sorted, no empty value), adding it; -1 past the series bound.
func (m *metricsReader) series(name string, labels []MetricLabel, offset int64) int {
	m.key = append(m.key[:0], name...)
	for _, l := range labels {
		m.key = append(m.key, 0xff)
		m.key = append(m.key, l.Name...)
		m.key = append(m.key, 0xfe)
		m.key = append(m.key, l.Value...)
	}
	if k, ok := m.index[string(m.key)]; ok {
		return k
	}
	if len(m.out.Series) >= m.lim.series {
		m.bound(offset, fmt.Sprintf("more than %d series", m.lim.series))
		return -1
	}
	for i := range labels {
		labels[i].Name, labels[i].Value = m.intern.keep(labels[i].Name), m.intern.keep(labels[i].Value)
	}
	m.index[string(m.key)] = len(m.out.Series)
	m.out.Series = append(m.out.Series, MetricSeries{Name: m.intern.keep(name), Labels: labels})
	return len(m.out.Series) - 1
}

// add appends a point to series k; false past the point bound.
func (m *metricsReader) add(k int, t int64, v float64, offset int64) bool {
	if m.out.Points >= m.lim.points {
		m.bound(offset, fmt.Sprintf("more than %d points", m.lim.points))
		return false
	}
	s := &m.out.Series[k]
	s.T, s.V = append(s.T, t), append(s.V, v)
	m.out.Points++
	return true
}

// bound says once that a bound was reached, and counts what it leaves
// out.
func (m *metricsReader) bound(offset int64, what string) {
	m.out.Skipped++
	if !m.full {
		m.full = true
		m.diag(Diagnostic{Offset: offset, Kind: DiagTooManyPoints,
			Msg: fmt.Sprintf("the export holds %s, more than is kept; the rest is counted, not kept", what)})
	}
}

// finish drops the series without a point (an answer's empty values)
// and sorts each series' points by time: an export is in order, a text
// file with timestamps need not be.
func (m *metricsReader) finish() {
	kept := m.out.Series[:0]
	for _, s := range m.out.Series {
		if len(s.T) == 0 {
			continue
		}
		if !sort.SliceIsSorted(s.T, func(i, j int) bool { return s.T[i] < s.T[j] }) {
			sort.Stable(byTime{&s})
		}
		kept = append(kept, s)
	}
	m.out.Series = kept
	m.index, m.intern = nil, nil
}

type byTime struct{ s *MetricSeries }

func (b byTime) Len() int           { return len(b.s.T) }
func (b byTime) Less(i, j int) bool { return b.s.T[i] < b.s.T[j] }
func (b byTime) Swap(i, j int) {
	b.s.T[i], b.s.T[j] = b.s.T[j], b.s.T[i]
	b.s.V[i], b.s.V[j] = b.s.V[j], b.s.V[i]
}

// sortLabels sorts labels by name and drops those with an empty value.
func sortLabels(ls []MetricLabel) []MetricLabel {
	out := ls[:0]
	for _, l := range ls {
		if l.Value != "" {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
