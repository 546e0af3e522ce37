package parser

import (
	"bytes"
	"strconv"
	"strings"
)

// yamlFields reads the few fields the analysis needs from one YAML document
// as kubectl prints it (block mappings and sequences, plain or quoted
// scalars). It is no general YAML parser: anything else is skipped.
func yamlFields(doc []byte, f *fields) {
	*f = fields{}
	type frame struct {
		indent int
		key    string // "-" for a sequence item
	}
	var stack []frame
	blockIndent := -1 // inside a block scalar (| or >) deeper than this
	var root, obj fields
	var est, objEst yamlTimes
	for len(doc) > 0 {
		var ln []byte
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			ln, doc = doc[:i], doc[i+1:]
		} else {
			ln, doc = doc, nil
		}
		ln = bytes.TrimRight(ln, " \t\r")
		body := bytes.TrimLeft(ln, " ")
		indent := len(ln) - len(body)
		if len(body) == 0 || body[0] == '#' {
			continue
		}
		if blockIndent >= 0 {
			if indent > blockIndent {
				continue
			}
			blockIndent = -1
		}
		for len(body) >= 2 && body[0] == '-' && body[1] == ' ' || len(body) == 1 && body[0] == '-' {
			for len(stack) > 0 && (stack[len(stack)-1].indent > indent ||
				stack[len(stack)-1].indent == indent && stack[len(stack)-1].key == "-") {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, frame{indent, "-"})
			if len(body) == 1 {
				body = nil
				break
			}
			rest := bytes.TrimLeft(body[2:], " ")
			indent += len(body) - len(rest)
			body = rest
		}
		if len(body) == 0 {
			continue
		}
		key, value, ok := yamlKeyValue(body)
		if !ok {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		if value == "|" || value == ">" || strings.HasPrefix(value, "|") || strings.HasPrefix(value, ">") {
			blockIndent = indent
			stack = append(stack, frame{indent, key})
			continue
		}
		path := make([]string, 0, len(stack)+1)
		for _, fr := range stack {
			path = append(path, fr.key)
		}
		path = append(path, key)
		stack = append(stack, frame{indent, key})
		scalar := yamlScalar(value)
		if len(path) == 1 {
			switch key {
			case "type":
				if !f.hasType {
					f.hasType, f.typ = true, scalar
				}
			case "object":
				f.hasObject = true
			}
		}
		setYAMLField(&root, &est, path, scalar, value == "")
		if len(path) > 1 && path[0] == "object" {
			setYAMLField(&obj, &objEst, path[1:], scalar, value == "")
		}
	}
	src, times := &root, est
	if f.hasObject {
		src, times = &obj, objEst
	}
	f.hasKind, f.kind, f.apiVersion = src.hasKind, src.kind, src.apiVersion
	f.namespace, f.name, f.uid, f.rv, f.labels = src.namespace, src.name, src.uid, src.rv, src.labels
	f.initialEventsEnd = src.initialEventsEnd
	f.code, f.reason, f.message = src.code, src.reason, src.message
	f.estimated = times.estimate()
}

type yamlTimes struct {
	managed            int64
	deletion, creation string
	seenDel, seenCre   bool
}

// estimate is fastTimes.estimate: parseTimeBytes reads what parseTime does.
func (t yamlTimes) estimate() int64 {
	ft := fastTimes{managed: t.managed, deletion: []byte(t.deletion), creation: []byte(t.creation)}
	return ft.estimate()
}

func setYAMLField(f *fields, t *yamlTimes, path []string, v string, empty bool) {
	set := func(dst *string) {
		if *dst == "" && !empty {
			*dst = v
		}
	}
	switch len(path) {
	case 1:
		switch path[0] {
		case "kind":
			if !f.hasKind {
				f.hasKind, f.kind = true, v
			}
		case "apiVersion":
			set(&f.apiVersion)
		case "code":
			if f.code == 0 {
				f.code, _ = strconv.Atoi(v)
			}
		case "reason":
			set(&f.reason)
		case "message":
			set(&f.message)
		}
	case 2:
		if path[0] != "metadata" {
			return
		}
		switch path[1] {
		case "name":
			set(&f.name)
		case "namespace":
			set(&f.namespace)
		case "uid":
			set(&f.uid)
		case "resourceVersion":
			set(&f.rv)
		case "deletionTimestamp":
			if !t.seenDel {
				t.seenDel, t.deletion = true, v
			}
		case "creationTimestamp":
			if !t.seenCre {
				t.seenCre, t.creation = true, v
			}
		}
	case 3:
		if path[0] == "metadata" && path[1] == "annotations" && path[2] == "k8s.io/initial-events-end" {
			f.initialEventsEnd = v == "true"
		}
		if path[0] == "metadata" && path[1] == "labels" {
			f.labels = appendLabel(f.labels, path[2], v)
		}
	case 4:
		if path[0] == "metadata" && path[1] == "managedFields" && path[2] == "-" && path[3] == "time" {
			if ns, ok := parseTime(v); ok && ns > t.managed {
				t.managed = ns
			}
		}
	}
}

// appendLabel adds key: value to labels, the raw JSON object of
// metadata.labels that the JSON forms hand to canonicalLabels.
func appendLabel(labels, key, value string) string {
	b := []byte("{")
	if labels != "" {
		b = append([]byte(labels[:len(labels)-1]), ',')
	}
	b = appendJSONString(b, key)
	b = append(b, ':')
	b = appendJSONString(b, value)
	return string(append(b, '}'))
}

// appendJSONString quotes s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// yamlKeyValue splits "key: value" (the key plain or quoted).
func yamlKeyValue(b []byte) (string, string, bool) {
	s := string(b)
	var key string
	if s[0] == '"' || s[0] == '\'' {
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", "", false
		}
		key = yamlScalar(s[:end+2])
		s = s[end+2:]
		if !strings.HasPrefix(s, ":") {
			return "", "", false
		}
		return key, strings.TrimSpace(s[1:]), true
	}
	i := strings.Index(s, ": ")
	if i < 0 {
		if !strings.HasSuffix(s, ":") {
			return "", "", false
		}
		return s[:len(s)-1], "", true
	}
	return s[:i], strings.TrimSpace(s[i+2:]), true
}

// yamlScalar reads a plain, single- or double-quoted scalar.
func yamlScalar(v string) string {
	switch {
	case v == "" || v == "~" || v == "null":
		return ""
	case v[0] == '"':
		if u, err := strconv.Unquote(v); err == nil {
			return u
		}
		return strings.Trim(v, `"`)
	case v[0] == '\'':
		return strings.ReplaceAll(strings.TrimSuffix(v[1:], "'"), "''", "'")
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

func (r *Reader) onYAML(doc []byte, start, end int64, line int, arrival int64) {
	yamlFields(doc, &r.fields)
	r.onFields(&r.fields, doc, start, end, line, arrival, false, nil)
}
