package parser

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// The HTTP API's JSON (prometheus docs/querying/api.md, evidence.md
// §1.4): {"status":"success","data":{"resultType":"matrix","result":[
// {"metric":{...},"values":[[<unix s>,"<value>"],...]}]}}; a vector has
// "value":[<unix s>,"<value>"] instead. Timestamps are seconds with up
// to three decimals, values strings ("3171407", "NaN", "+Inf").

// readJSON reads the API's envelope: as Prometheus writes it through
// readPlainJSON, in any other form through readAnyJSON.
func (m *metricsReader) readJSON(b []byte) {
	before := m.out
	if m.readPlainJSON(b) {
		return
	}
	m.out, m.full = before, false
	clear(m.index)
	m.readAnyJSON(b)
}

// readAnyJSON reads the API's envelope in any form, and says what in it
// cannot be read.
func (m *metricsReader) readAnyJSON(b []byte) {
	if !gjson.ValidBytes(b) {
		m.diag(Diagnostic{Offset: jsonErrorOffset(b), Kind: DiagBadJSON,
			Msg: "the export is not valid JSON from here on (cut short, or damaged); the series before it were read"})
	}
	// b is not written after: the string shares it rather than copying
	// a few MB.
	env := gjson.Parse(unsafe.String(unsafe.SliceData(b), len(b)))
	if st := env.Get("status"); st.String() != "success" {
		msg := fmt.Sprintf("the query did not succeed: status %q", clipString(st.String()))
		if e := env.Get("error"); e.Exists() {
			msg += fmt.Sprintf(", %s: %s", clipString(env.Get("errorType").String()), clipString(e.String()))
		}
		m.diag(Diagnostic{Offset: int64(st.Index), Kind: DiagQueryFailed, Msg: msg})
	}
	data := env.Get("data")
	rt := data.Get("resultType")
	result := data.Get("result")
	switch rt.String() {
	case "matrix":
		m.out.Format = MetricsMatrix
	case "vector":
		m.out.Format = MetricsVector
	default:
		if rt.Exists() || result.Exists() {
			m.diag(Diagnostic{Offset: int64(rt.Index), Kind: DiagNotSeries,
				Msg: fmt.Sprintf("the query's result is a %s, not series (matrix or vector); nothing read", clipString(orNone(rt.String())))})
		}
		m.out.Format = MetricsMatrix
		return
	}
	if !result.IsArray() {
		m.diag(Diagnostic{Offset: int64(data.Index), Kind: DiagBadResult, Msg: "the answer's data has no result array"})
		return
	}
	result.ForEach(func(_, s gjson.Result) bool {
		return m.jsonSeries(s)
	})
}

// jsonErrorOffset is where invalid JSON goes wrong.
func jsonErrorOffset(b []byte) int64 {
	var se *json.SyntaxError
	if err := json.Unmarshal(b, new(json.RawMessage)); errors.As(err, &se) {
		return se.Offset
	}
	return int64(len(b))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// jsonSeries reads one element of result; false stops at the point
// bound.
func (m *metricsReader) jsonSeries(s gjson.Result) bool {
	// Its members found in one walk: each Get walks the object from its
	// start, over the values array, which is most of it.
	// As Get does, the first of a name counts.
	var metric, histograms, value, values gjson.Result
	s.ForEach(func(k, v gjson.Result) bool {
		var member *gjson.Result
		switch k.String() {
		case "metric":
			member = &metric
		case "histograms":
			member = &histograms
		case "value":
			member = &value
		case "values":
			member = &values
		default:
			return true
		}
		if !member.Exists() {
			*member = v
		}
		return true
	})
	if !metric.IsObject() {
		m.diag(Diagnostic{Offset: int64(s.Index), Kind: DiagBadSeries, Msg: "a result without a metric object; skipped"})
		return true
	}
	var name string
	var labels []MetricLabel
	metric.ForEach(func(k, v gjson.Result) bool {
		if k.String() == "__name__" {
			name = v.String()
		} else {
			labels = append(labels, MetricLabel{k.String(), v.String()})
		}
		return true
	})
	if m.out.Points >= m.lim.points {
		m.bound(int64(s.Index), fmt.Sprintf("more than %d points", m.lim.points))
		return false
	}
	k := m.series(name, sortLabels(labels), int64(s.Index))
	if k < 0 {
		return false
	}
	if h := histograms; h.IsArray() {
		n := len(h.Array())
		m.out.Skipped += n
		m.diag(Diagnostic{Offset: int64(h.Index), Kind: DiagHistogram,
			Msg: fmt.Sprintf("%d native histogram samples of %s are not read (only float samples are)", n, clipString(name))})
	}
	if value.Exists() {
		return m.jsonPoint(k, value)
	}
	if !values.Exists() {
		return true
	}
	if !values.IsArray() {
		m.diag(Diagnostic{Offset: int64(values.Index), Kind: DiagBadSeries, Msg: "a series' values are not an array; skipped"})
		return true
	}
	// Room for every point at once: a point is one '[' of the values.
	if n := strings.Count(values.Raw, "[") - 1; n > 0 {
		sr := &m.out.Series[k]
		sr.T, sr.V = slices.Grow(sr.T, n), slices.Grow(sr.V, n)
	}
	read, ok := m.plainValues(k, values.Raw, int64(values.Index))
	if !ok || read < 0 {
		return ok
	}
	// A point written otherwise: it and the rest through gjson.
	n := 0
	values.ForEach(func(_, p gjson.Result) bool {
		if n++; n <= read {
			return true
		}
		ok = m.jsonPoint(k, p)
		return ok
	})
	return ok
}

// plainValues reads the points of a values array (raw, at offset) as
// long as they are written as the API writes them, [[<t>,"<v>"],...]
// without spaces: the points are most of an export, and gjson finds each
// point's end by parsing it once more. It returns how many points it read
// before one written otherwise, or -1 when it read them all; false when
// the point bound stopped it.
func (m *metricsReader) plainValues(k int, raw string, offset int64) (int, bool) {
	read := 0
	for i := 1; i < len(raw); read++ {
		if raw[i] == ']' && i == len(raw)-1 && read == 0 {
			return -1, true // []
		}
		end := strings.IndexByte(raw[i:], ']')
		if raw[i] != '[' || end < 0 {
			return read, true
		}
		t, v, plain := plainPoint(raw[i : i+end+1])
		next := i + end + 1
		if !plain || next >= len(raw) || raw[next] != ',' && raw[next] != ']' {
			return read, true
		}
		if !m.add(k, t, v, offset+int64(i)) {
			return read, false
		}
		if raw[next] == ']' {
			if next == len(raw)-1 {
				return -1, true
			}
			return read + 1, true
		}
		i = next + 1
	}
	return read, true
}

// jsonPoint reads one [<unix s>, "<value>"] pair into series k: the
// pair as the API writes it directly (a point is most of an export, and
// gjson's Array allocates for each), any other form through gjson.
func (m *metricsReader) jsonPoint(k int, p gjson.Result) bool {
	if t, v, ok := plainPoint(p.Raw); ok {
		return m.add(k, t, v, int64(p.Index))
	}
	a := p.Array()
	if len(a) != 2 {
		m.diag(Diagnostic{Offset: int64(p.Index), Kind: DiagBadPoint, Msg: fmt.Sprintf("a point is not [time, value]: %s; skipped", clipString(p.Raw))})
		return true
	}
	t, ok := unixSeconds(a[0].Raw)
	if !ok {
		m.diag(Diagnostic{Offset: int64(a[0].Index), Kind: DiagBadPoint, Msg: fmt.Sprintf("a point's time is not Unix seconds: %s; skipped", clipString(a[0].Raw))})
		return true
	}
	v, err := strconv.ParseFloat(a[1].String(), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		m.diag(Diagnostic{Offset: int64(a[1].Index), Kind: DiagBadPoint, Msg: fmt.Sprintf("a point's value is not a number: %s; skipped", clipString(a[1].Raw))})
		return true
	}
	return m.add(k, t, v, int64(p.Index))
}

// plainPoint reads `[<unix s>,"<value>"]` without spaces or escapes.
func plainPoint(raw string) (int64, float64, bool) {
	if len(raw) < 6 || raw[0] != '[' || raw[len(raw)-1] != ']' || raw[len(raw)-2] != '"' {
		return 0, 0, false
	}
	ts, val, ok := strings.Cut(raw[1:len(raw)-2], `,"`)
	if !ok || strings.ContainsAny(val, `"\`) {
		return 0, 0, false
	}
	t, ok := unixSeconds(ts)
	if !ok {
		return 0, 0, false
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return 0, 0, false
	}
	return t, v, true
}

// unixSeconds reads Unix seconds as the API writes them (an integer and
// up to nine decimals, or a JSON number in any form) into ns, exactly
// where the decimals allow.
func unixSeconds(raw string) (int64, bool) {
	if t, ok := plainSeconds(raw); ok {
		return t, true
	}
	raw = strings.Trim(raw, `"`)
	sec, frac, dot := strings.Cut(raw, ".")
	if !strings.ContainsAny(raw, "eE") && len(frac) <= 9 && (!dot || frac != "") {
		s, err := strconv.ParseInt(sec, 10, 64)
		if err == nil && s > -math.MaxInt64/int64(1e9) && s < math.MaxInt64/int64(1e9) {
			ns := int64(0)
			for i := 0; i < 9; i++ {
				ns *= 10
				if i < len(frac) {
					if frac[i] < '0' || frac[i] > '9' {
						return 0, false
					}
					ns += int64(frac[i] - '0')
				}
			}
			if strings.HasPrefix(sec, "-") {
				ns = -ns
			}
			return s*1e9 + ns, true
		}
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsNaN(f) || math.Abs(f) >= math.MaxInt64/1e9 {
		return 0, false
	}
	return int64(math.Round(f * 1e9)), true
}

// plainSeconds reads Unix seconds written as the API writes them, digits
// and up to three decimals, in ns: the time of every point, which the
// general reading (unixSeconds) spends too long on.
func plainSeconds(raw string) (int64, bool) {
	if len(raw) == 0 || len(raw) > 14 {
		return 0, false
	}
	var sec int64
	i := 0
	for ; i < len(raw) && raw[i] >= '0' && raw[i] <= '9'; i++ {
		sec = sec*10 + int64(raw[i]-'0')
	}
	if i == 0 || i > 10 || sec >= math.MaxInt64/int64(1e9) {
		return 0, false
	}
	ns, scale := int64(0), int64(1e9)
	if i < len(raw) {
		if raw[i] != '.' || i+1 == len(raw) || len(raw)-i-1 > 3 {
			return 0, false
		}
		for _, c := range raw[i+1:] {
			if c < '0' || c > '9' {
				return 0, false
			}
			scale /= 10
			ns += int64(c-'0') * scale
		}
	}
	return sec*1e9 + ns, true
}
