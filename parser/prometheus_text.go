package parser

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The text exposition format of a raw scrape (`kubectl get --raw
// /metrics`, evidence.md §1.4): `# HELP` and `# TYPE` lines, then
// `name{label="value",...} value [timestamp]`. kube-apiserver writes
// floats with strconv's 'g' format, so an RV of 3171407 is
// `3.171407e+06`. A scrape is one instant and carries no time of its own;
// the response's Date header, when the file keeps the headers (curl -i),
// says it. OpenMetrics (`# EOF`, exemplars after ` # `, timestamps in
// seconds) is read too.

// readText reads a scrape, after its HTTP response headers when the file
// starts with them.
func (m *metricsReader) readText(b []byte) {
	m.out.Format = MetricsText
	base := int64(0)
	openMetrics := false
	if lead := len(b) - len(bytes.TrimLeft(b, " \t\r\n")); bytes.HasPrefix(b[lead:], []byte("HTTP/")) {
		hdr, body, _ := splitHeaders(b[lead:])
		base = int64(len(b) - len(body))
		openMetrics = strings.HasPrefix(strings.ToLower(headerValue(hdr, "content-type")), "application/openmetrics-text")
		if d := headerValue(hdr, "date"); d != "" {
			if t, ok := httpDate(d); ok {
				m.out.At = t
			} else {
				m.diag(Diagnostic{Offset: int64(lead), Kind: DiagBadDate, Msg: fmt.Sprintf("the Date header %q is not an HTTP date; the scrape's instant is unknown", clipString(d))})
			}
		}
		b = body
		if len(bytes.TrimSpace(b)) == 0 {
			m.out.Format = MetricsHeaders
			if m.out.At == 0 {
				m.diag(Diagnostic{Offset: int64(lead), Kind: DiagNoDate, Msg: "the response headers have no Date: they say no instant"})
			}
			return
		}
	}
	var labels []MetricLabel
	no := 0
	for off := 0; off < len(b); {
		end := bytes.IndexByte(b[off:], '\n')
		next := len(b)
		if end >= 0 {
			next = off + end + 1
			end += off
		} else {
			end = len(b)
		}
		no++
		ln := strings.TrimRight(string(b[off:end]), "\r")
		at := base + int64(off)
		off = next
		trimmed := strings.TrimLeft(ln, " \t")
		if trimmed == "" {
			continue
		}
		if trimmed[0] == '#' {
			openMetrics = openMetrics || trimmed == "# EOF"
			continue
		}
		s, ok := parseSampleLine(ln, labels[:0])
		if !ok {
			m.diag(Diagnostic{Offset: at, Line: no, Kind: DiagBadSample,
				Msg: fmt.Sprintf("not a sample line (name{labels} value [timestamp]): %s; skipped", clipString(ln))})
			continue
		}
		labels = s.labels
		t := m.out.At
		if s.ts != "" {
			if t, ok = sampleTime(s.ts, openMetrics); !ok {
				m.diag(Diagnostic{Offset: at, Line: no, Kind: DiagBadSample, Msg: fmt.Sprintf("a sample's timestamp is not a number: %s; skipped", clipString(s.ts))})
				continue
			}
		}
		k := -1
		if m.out.Points < m.lim.points {
			k = m.series(s.name, sortLabels(append([]MetricLabel(nil), s.labels...)), at)
		} else {
			m.bound(at, fmt.Sprintf("more than %d points", m.lim.points))
		}
		if k < 0 || !m.add(k, t, s.value, at) {
			m.out.Skipped += bytes.Count(b[off:], []byte("\n"))
			return
		}
	}
	if m.out.At == 0 && len(m.out.Series) > 0 {
		m.diag(Diagnostic{Kind: DiagNoDate, Msg: "the scrape says no instant (no Date header before it); give its response headers, or its points have no time"})
	}
}

// sample is one parsed sample line.
type sample struct {
	name   string
	labels []MetricLabel
	value  float64
	ts     string
}

// parseSampleLine reads `name{labels} value [timestamp]`, appending the
// labels to buf. A UTF-8 metric name may be quoted inside the braces
// ({"my.metric",le="1"}); an OpenMetrics exemplar after ` # ` is
// dropped.
func parseSampleLine(ln string, buf []MetricLabel) (sample, bool) {
	s := sample{labels: buf}
	i := 0
	for i < len(ln) && (ln[i] == ' ' || ln[i] == '\t') {
		i++
	}
	j := i
	for j < len(ln) && isMetricNameByte(ln[j], j == i) {
		j++
	}
	s.name = ln[i:j]
	i = j
	if i < len(ln) && ln[i] == '{' {
		i++
		for {
			for i < len(ln) && (ln[i] == ' ' || ln[i] == ',') {
				i++
			}
			if i < len(ln) && ln[i] == '}' {
				i++
				break
			}
			var name string
			if i < len(ln) && ln[i] == '"' {
				v, n, ok := quotedValue(ln[i:])
				if !ok {
					return s, false
				}
				i += n
				for i < len(ln) && ln[i] == ' ' {
					i++
				}
				if i < len(ln) && ln[i] != '=' {
					if s.name != "" {
						return s, false
					}
					s.name = v // the quoted metric name
					continue
				}
				name = v
			} else {
				j = i
				for j < len(ln) && isMetricNameByte(ln[j], j == i) && ln[j] != ':' {
					j++
				}
				name = ln[i:j]
				i = j
			}
			for i < len(ln) && ln[i] == ' ' {
				i++
			}
			if name == "" || i >= len(ln) || ln[i] != '=' {
				return s, false
			}
			i++
			for i < len(ln) && ln[i] == ' ' {
				i++
			}
			v, n, ok := quotedValue(ln[i:])
			if !ok {
				return s, false
			}
			i += n
			s.labels = append(s.labels, MetricLabel{name, v})
		}
	}
	if s.name == "" {
		return s, false
	}
	rest := ln[i:]
	if k := strings.Index(rest, " # "); k >= 0 {
		rest = rest[:k]
	}
	if rest == "" || rest[0] != ' ' && rest[0] != '\t' {
		return s, false
	}
	fields := strings.Fields(rest)
	if len(fields) < 1 || len(fields) > 2 {
		return s, false
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return s, false
	}
	s.value = v
	if len(fields) == 2 {
		s.ts = fields[1]
	}
	return s, true
}

func isMetricNameByte(c byte, first bool) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9'
}

// quotedValue reads a double-quoted label value with the format's
// escapes (\\, \", \n) at the start of s, and how many bytes it took.
func quotedValue(s string) (string, int, bool) {
	if len(s) == 0 || s[0] != '"' {
		return "", 0, false
	}
	var sb strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return sb.String(), i + 1, true
		case '\\':
			if i+1 == len(s) {
				return "", 0, false
			}
			i++
			switch s[i] {
			case 'n':
				sb.WriteByte('\n')
			default:
				sb.WriteByte(s[i])
			}
		default:
			sb.WriteByte(c)
		}
	}
	return "", 0, false
}

// sampleTime reads a sample's timestamp: integer ms in the text format,
// seconds in OpenMetrics (or any with a decimal point or exponent).
func sampleTime(ts string, openMetrics bool) (int64, bool) {
	if !openMetrics && !strings.ContainsAny(ts, ".eE") {
		ms, err := strconv.ParseInt(ts, 10, 64)
		if err != nil || ms > 1<<53 || ms < -(1<<53) {
			return 0, false
		}
		return ms * 1e6, true
	}
	return unixSeconds(ts)
}

// splitHeaders splits an HTTP response at the blank line after its
// headers; whole says the blank line was found (else body is empty and
// the headers may be cut).
func splitHeaders(b []byte) (hdr, body []byte, whole bool) {
	for off := 0; off < len(b); {
		end := bytes.IndexByte(b[off:], '\n')
		if end < 0 {
			return b, nil, false
		}
		ln := bytes.TrimRight(b[off:off+end], "\r")
		if off > 0 && len(ln) == 0 {
			return b[:off], b[off+end+1:], true
		}
		off += end + 1
	}
	return b, nil, false
}

// headerValue returns the first value of header name (any case) in hdr.
func headerValue(hdr []byte, name string) string {
	for _, ln := range strings.Split(string(hdr), "\n") {
		k, v, ok := strings.Cut(ln, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// httpDate reads an HTTP Date header (RFC 9110 §5.6.7: IMF-fixdate, and
// the obsolete RFC 850 and asctime forms) into Unix ns.
func httpDate(v string) (int64, bool) {
	for _, layout := range []string{time.RFC1123, time.RFC1123Z, time.RFC850, time.ANSIC} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UnixNano(), true
		}
	}
	return 0, false
}
