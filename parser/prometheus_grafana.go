package parser

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Grafana's exports of a panel (evidence.md §1.4). Inspect → Data →
// Download CSV writes one data frame: a header row of quoted display
// names ("Time", then each series as `name{label="value", ...}`), the
// browser locale's list separator (`,` or `;`, after an optional `sep=`
// line), \r\n, a blank line after the frame; "Series joined by time"
// makes one frame of every series, a cell empty where a series has no
// point. "Download for Excel" writes UTF-16LE with a BOM and TAB as the
// separator (the source's UTF-16 is transcoded as for every input).
// Times are epoch ms, or with "Formatted data" on, local times without a
// zone. The JSON tab's "DataFrame JSON" is {"schema":{"fields":[{name,
// type, labels, config}]}, "data":{"values":[[...], ...]}}, or a list of
// such frames; NaN and ±Inf are in data.entities.

// grafanaTimeHeader says whether a header cell names the time column.
func grafanaTimeHeader(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return s == "time" || s == "timestamp"
}

// sniffGrafanaCSV says whether decoded head starts a Grafana CSV, and
// its separator.
func sniffGrafanaCSV(head []byte) (rune, bool) {
	ln := head
	if i := bytes.IndexByte(ln, '\n'); i >= 0 {
		ln = ln[:i]
	}
	ln = bytes.TrimRight(ln, "\r")
	if sep, ok := bytes.CutPrefix(ln, []byte("sep=")); ok && len(sep) == 1 {
		return rune(sep[0]), true
	}
	for _, sep := range []byte{',', ';', '\t'} {
		first, _, ok := bytes.Cut(ln, []byte{sep})
		if ok && grafanaTimeHeader(strings.Trim(string(first), `"`)) {
			return rune(sep), true
		}
	}
	return 0, false
}

// sniffGrafanaFrame says whether decoded head starts DataFrame JSON.
func sniffGrafanaFrame(head []byte) bool {
	return (head[0] == '{' || head[0] == '[') && bytes.Contains(head, []byte(`"schema"`)) && bytes.Contains(head, []byte(`"fields"`))
}

// grafanaSeries reads a display name into a metric name and labels:
// `name{k="v", ...}`, `{__name__="name", k="v"}`, or a legend (the name,
// no labels).
func grafanaSeries(display string) (string, []MetricLabel) {
	s, ok := parseSampleLine(display+" 0", nil)
	if !ok {
		return display, nil
	}
	name := s.name
	labels := s.labels[:0]
	for _, l := range s.labels {
		if l.Name == "__name__" {
			name = l.Value
			continue
		}
		labels = append(labels, l)
	}
	if name == "" {
		name = display
	}
	return name, sortLabels(labels)
}

// grafanaTime reads a time cell: epoch ms, or a formatted local time
// (read as UTC: the file does not say the zone; zoned says whether it
// did).
func grafanaTime(cell string) (t int64, zoned, ok bool) {
	cell = strings.TrimSpace(cell)
	if ms, err := strconv.ParseInt(cell, 10, 64); err == nil && ms > -(1<<53) && ms < 1<<53 {
		return ms * 1e6, true, true
	}
	if tt, err := time.Parse(time.RFC3339Nano, cell); err == nil {
		return tt.UnixNano(), true, true
	}
	for _, layout := range []string{"2006-01-02 15:04:05.000", "2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if tt, err := time.Parse(layout, cell); err == nil {
			return tt.UnixNano(), false, true
		}
	}
	return 0, false, false
}

// grafanaValue reads a value cell; the locale's decimal comma is read
// where the separator is not a comma. ok false for an empty cell (no
// point); bad for one that is no number (a formatted value with units).
func grafanaValue(cell string, sep rune) (v float64, ok, bad bool) {
	cell = strings.TrimSpace(cell)
	if cell == "" || cell == "null" {
		return 0, false, false
	}
	if sep != ',' && strings.Contains(cell, ",") && !strings.Contains(cell, ".") {
		cell = strings.Replace(cell, ",", ".", 1)
	}
	v, err := strconv.ParseFloat(cell, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false, true
	}
	return v, true, false
}

// readGrafanaCSV reads a panel's CSV, frame after frame.
func (m *metricsReader) readGrafanaCSV(b []byte, sep rune) {
	m.out.Format = MetricsGrafanaCSV
	base := 0
	if bytes.HasPrefix(b, []byte("sep=")) {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			base = i + 1
		} else {
			return
		}
	}
	r := csv.NewReader(bytes.NewReader(b[base:]))
	r.Comma, r.FieldsPerRecord, r.LazyQuotes = sep, -1, true
	var cols []int // series of each column after the time column; -1: none
	unzoned, badValues := false, 0
	for {
		start := int64(base) + r.InputOffset()
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				// Not a row's fault (a separator CSV cannot use): no
				// row after it reads either.
				m.diag(Diagnostic{Offset: start, Kind: DiagBadCSV, Msg: fmt.Sprintf("not a CSV panel (%v)", err)})
				break
			}
			m.diag(Diagnostic{Offset: start, Line: pe.StartLine, Kind: DiagBadCSV, Msg: fmt.Sprintf("not a CSV row (%v); skipped", err)})
			continue
		}
		line, _ := r.FieldPos(0)
		if len(rec) > 0 && grafanaTimeHeader(rec[0]) {
			cols = cols[:0]
			for _, h := range rec[1:] {
				name, labels := grafanaSeries(h)
				k := -1
				if m.out.Points < m.lim.points {
					k = m.series(name, labels, start)
				}
				cols = append(cols, k)
			}
			continue
		}
		if cols == nil {
			m.diag(Diagnostic{Offset: start, Line: line, Kind: DiagBadCSV, Msg: "a row before the header row (\"Time\", then the series); skipped"})
			continue
		}
		t, zoned, ok := grafanaTime(rec[0])
		if !ok {
			m.diag(Diagnostic{Offset: start, Line: line, Kind: DiagBadCSV, Msg: fmt.Sprintf("a row's time is neither epoch ms nor a date: %s; skipped", clipString(rec[0]))})
			continue
		}
		unzoned = unzoned || !zoned
		for i, cell := range rec[1:] {
			if i >= len(cols) || cols[i] < 0 {
				continue
			}
			v, ok, bad := grafanaValue(cell, sep)
			if bad {
				if badValues++; badValues == 1 {
					m.diag(Diagnostic{Offset: start, Line: line, Kind: DiagBadValue,
						Msg: fmt.Sprintf("a value is not a number (%s): exported with \"Formatted data\" on, values carry units; such cells are skipped", clipString(cell))})
				}
				m.out.Skipped++
				continue
			}
			if ok && !m.add(cols[i], t, v, start) {
				return
			}
		}
	}
	if unzoned {
		m.diag(Diagnostic{Kind: DiagLocalTime, Msg: "the times are formatted without a zone (\"Formatted data\" on): they are read as UTC; export with it off for epoch times"})
	}
}

// readGrafanaFrames reads DataFrame JSON: one frame, or a list.
func (m *metricsReader) readGrafanaFrames(b []byte) {
	m.out.Format = MetricsGrafanaFrame
	if !gjson.ValidBytes(b) {
		m.diag(Diagnostic{Offset: jsonErrorOffset(b), Kind: DiagBadJSON,
			Msg: "the export is not valid JSON from here on (cut short, or damaged); the frames before it were read"})
	}
	doc := gjson.ParseBytes(b)
	if doc.IsArray() {
		doc.ForEach(func(_, f gjson.Result) bool { return m.grafanaFrame(f) })
		return
	}
	m.grafanaFrame(doc)
}

// grafanaFrame reads one frame: its time field and each number field as
// a series; false stops at the point bound.
func (m *metricsReader) grafanaFrame(f gjson.Result) bool {
	fields := f.Get("schema.fields").Array()
	values := f.Get("data.values").Array()
	if len(fields) == 0 || len(values) != len(fields) {
		m.diag(Diagnostic{Offset: int64(f.Index), Kind: DiagBadFrame,
			Msg: fmt.Sprintf("a frame with %d fields and %d value columns; skipped", len(fields), len(values))})
		return true
	}
	ti := -1
	for i, fd := range fields {
		if fd.Get("type").String() == "time" {
			ti = i
			break
		}
	}
	if ti < 0 {
		m.diag(Diagnostic{Offset: int64(f.Index), Kind: DiagBadFrame, Msg: "a frame without a time field; skipped"})
		return true
	}
	times := values[ti].Array()
	// entities[i] lists the rows of field i that hold NaN, Inf or -Inf
	// (JSON has no such numbers).
	entities := f.Get("data.entities").Array()
	for i, fd := range fields {
		if i == ti || fd.Get("type").String() != "number" {
			continue
		}
		name := fd.Get("labels.__name__").String()
		if name == "" {
			name = orDefault(fd.Get("config.displayNameFromDS").String(), fd.Get("name").String())
		}
		var labels []MetricLabel
		fd.Get("labels").ForEach(func(k, v gjson.Result) bool {
			if k.String() != "__name__" {
				labels = append(labels, MetricLabel{k.String(), v.String()})
			}
			return true
		})
		if m.out.Points >= m.lim.points {
			m.bound(int64(fd.Index), fmt.Sprintf("more than %d points", m.lim.points))
			return false
		}
		k := m.series(name, sortLabels(labels), int64(fd.Index))
		if k < 0 {
			return false
		}
		special := map[int64]float64{}
		if i < len(entities) {
			for key, v := range map[string]float64{"NaN": math.NaN(), "Inf": math.Inf(1), "NegInf": math.Inf(-1)} {
				for _, row := range entities[i].Get(key).Array() {
					special[row.Int()] = v
				}
			}
		}
		for row, cell := range values[i].Array() {
			if row >= len(times) {
				break
			}
			v, ok := special[int64(row)]
			if !ok {
				if cell.Type != gjson.Number {
					continue // null: no point
				}
				v = cell.Num
			}
			tm := times[row]
			if tm.Type != gjson.Number {
				m.diag(Diagnostic{Offset: int64(tm.Index), Kind: DiagBadPoint, Msg: fmt.Sprintf("a frame's time is not epoch ms: %s; skipped", clipString(tm.Raw))})
				continue
			}
			if !m.add(k, int64(math.Round(tm.Num))*1e6, v, int64(cell.Index)) {
				return false
			}
		}
	}
	return true
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
