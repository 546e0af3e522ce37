package parser

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// The HTTP API's JSON as Prometheus writes it: its strings without
// escapes, each point [<unix s>,"<value>"], the time in digits and up to
// three decimals.
// Its points are most of an export, and read through gjson each is
// walked several times: once to validate the file, again to find the
// end of each series and of each values array, and once more to read
// it. readPlainJSON walks such a file once, validating what it walks,
// and reads it into the same series readJSON's general path would; any
// other form, or anything the general path would say something about (a
// failed query, a histogram, a bound reached, JSON that is not valid),
// it leaves to that path.

// plainJSON walks the text s of an export from i.
type plainJSON struct {
	s string
	i int
}

// readPlainJSON reads b, an export as Prometheus writes it, and says
// whether it did. When it did not, m may hold part of the export: the
// caller starts again from what it held before.
func (m *metricsReader) readPlainJSON(b []byte) bool {
	// b is not written after: the walk reads it in place, and what the
	// series keep of it is copied (interner.keep).
	p := plainJSON{s: unsafe.String(unsafe.SliceData(b), len(b))}
	var status, resultType string
	var seen [3]bool // status, data, and data's resultType and result
	ok := p.object(func(key string) bool {
		switch key {
		case "status":
			if seen[0] {
				return false
			}
			seen[0] = true
			var ok bool
			status, ok = p.str()
			return ok
		case "data":
			if seen[1] {
				return false
			}
			seen[1] = true
			var typed, result bool
			return p.object(func(key string) bool {
				switch key {
				case "resultType":
					if typed {
						return false
					}
					typed = true
					var ok bool
					resultType, ok = p.str()
					return ok
				case "result":
					if result {
						return false
					}
					result = true
					seen[2] = true
					return p.array(func() bool { return m.readPlainSeries(&p) })
				}
				return p.skip()
			}) && typed
		}
		return p.skip()
	})
	if !ok || status != "success" || !seen[2] {
		return false
	}
	for ; p.i < len(p.s); p.i++ {
		if !isSpace(p.s[p.i]) {
			return false
		}
	}
	switch resultType {
	case "matrix":
		m.out.Format = MetricsMatrix
	case "vector":
		m.out.Format = MetricsVector
	default:
		return false
	}
	return true
}

// readPlainSeries reads one series of the result at p.i: its metric, then
// its values (a matrix's) or its value (a vector's).
func (m *metricsReader) readPlainSeries(p *plainJSON) bool {
	at := p.i
	k := -1
	var points bool
	return p.object(func(key string) bool {
		switch key {
		case "metric":
			if k >= 0 || m.out.Points >= m.lim.points {
				return false
			}
			var name string
			var labels []MetricLabel
			if !p.object(func(key string) bool {
				v, ok := p.str()
				if key == "__name__" {
					name = v
				} else {
					labels = append(labels, MetricLabel{key, v})
				}
				return ok
			}) {
				return false
			}
			k = m.series(name, sortLabels(labels), int64(at))
			return k >= 0
		case "values", "value":
			if k < 0 || points {
				return false
			}
			points = true
			if key == "value" {
				return m.readPlainPoint(p, k)
			}
			return m.readPlainValues(p, k)
		case "histograms":
			return false
		}
		return p.skip()
	}) && k >= 0
}

// readPlainValues reads the values array at p.i into series k. The
// points gather in m's buffers, then go to the series in one copy, its
// memory as large as they are: grown as they come, a series' slices
// would be up to twice that. The array is walked here, not by array: as
// wasm, its call of a closure for each point made the exports' read a
// fifth slower.
func (m *metricsReader) readPlainValues(p *plainJSON, k int) bool {
	if !p.open('[') {
		return false
	}
	ts, vs := m.pointsT[:0], m.pointsV[:0]
	defer func() { m.pointsT, m.pointsV = ts[:0], vs[:0] }()
	if !p.close(']') {
		for {
			p.space()
			t, v, ok := p.point()
			if !ok || m.out.Points+len(ts) >= m.lim.points {
				return false
			}
			ts, vs = append(ts, t), append(vs, v)
			p.space()
			if p.i >= len(p.s) {
				return false
			}
			if p.s[p.i] == ']' {
				p.i++
				break
			}
			if p.s[p.i] != ',' {
				return false
			}
			p.i++
		}
	}
	sr := &m.out.Series[k]
	sr.T, sr.V = append(sr.T, ts...), append(sr.V, vs...)
	m.out.Points += len(ts)
	return true
}

// readPlainPoint reads the one point of a vector's series at p.i into
// series k.
func (m *metricsReader) readPlainPoint(p *plainJSON, k int) bool {
	at := p.i
	t, v, ok := p.point()
	return ok && m.add(k, t, v, int64(at))
}

// point reads a point at p.i, [<t>,"<v>"].
func (p *plainJSON) point() (t int64, v float64, ok bool) {
	s, i := p.s, p.i
	if i >= len(s) || s[i] != '[' {
		return 0, 0, false
	}
	// The time as plainSeconds reads it, in the same pass.
	i++
	start := i
	for i < len(s) && isDigit(s[i]) {
		t = t*10 + int64(s[i]-'0')
		i++
	}
	// A JSON number has no leading zero.
	if n := i - start; n == 0 || n > 10 || t >= math.MaxInt64/int64(1e9) || s[start] == '0' && n > 1 {
		return 0, 0, false
	}
	t *= 1e9
	if i < len(s) && s[i] == '.' {
		i++
		decimals := i
		for scale := int64(1e8); i < len(s) && isDigit(s[i]) && i-decimals < 3; scale /= 10 {
			t += int64(s[i]-'0') * scale
			i++
		}
		if i == decimals {
			return 0, 0, false
		}
	}
	if i+1 >= len(s) || s[i] != ',' || s[i+1] != '"' {
		return 0, 0, false
	}
	i += 2
	end := strings.IndexByte(s[i:], '"')
	if end < 0 || i+end+1 >= len(s) || s[i+end+1] != ']' {
		return 0, 0, false
	}
	if v, ok = plainValue(s[i : i+end]); !ok {
		return 0, 0, false
	}
	p.i = i + end + 2
	return t, v, true
}

// plainValue reads a point's value: digits as most are, else any form
// strconv reads without error.
func plainValue(s string) (float64, bool) {
	if len(s) == 0 || len(s) > 15 {
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	n := int64(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			v, err := strconv.ParseFloat(s, 64)
			return v, err == nil
		}
		n = n*10 + int64(c-'0')
	}
	// Exact: 15 digits are below 2^53.
	return float64(n), true
}

// object walks the object at p.i, calling member with p.i at each
// member's value, which member reads past.
func (p *plainJSON) object(member func(key string) bool) bool {
	if !p.open('{') {
		return false
	}
	if p.close('}') {
		return true
	}
	for {
		key, ok := p.str()
		if !ok || !p.open(':') {
			return false
		}
		p.space()
		if !member(key) {
			return false
		}
		if p.close('}') {
			return true
		}
		if !p.open(',') {
			return false
		}
	}
}

// array walks the array at p.i, calling element with p.i at each
// element, which element reads past.
func (p *plainJSON) array(element func() bool) bool {
	if !p.open('[') {
		return false
	}
	if p.close(']') {
		return true
	}
	for {
		p.space()
		if !element() {
			return false
		}
		if p.close(']') {
			return true
		}
		if !p.open(',') {
			return false
		}
	}
}

// open reads c after spaces.
func (p *plainJSON) open(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// close reads c after spaces if it is there.
func (p *plainJSON) close(c byte) bool {
	j := p.i
	if p.open(c) {
		return true
	}
	p.i = j
	return false
}

// str reads a string without escapes, after spaces.
func (p *plainJSON) str() (string, bool) {
	if !p.open('"') {
		return "", false
	}
	start := p.i
	for i := start; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '"':
			p.i = i + 1
			return p.s[start:i], true
		case c == '\\' || c < 0x20:
			return "", false
		}
	}
	return "", false
}

// skip reads past a value nothing reads, valid JSON.
func (p *plainJSON) skip() bool {
	v := gjson.Parse(p.s[p.i:])
	if v.Raw == "" || !gjson.Valid(v.Raw) {
		return false
	}
	p.i += len(v.Raw)
	return true
}

func (p *plainJSON) space() {
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
}
