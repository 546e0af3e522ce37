package parser

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestYAMLRealSamples prints every event of real captures the way
// `kubectl get -w --output-watch-events -o yaml` does (writeYAML;
// documents separated by ---) and reads them back: every field,
// labels included, must equal what the JSON form gives.
func TestYAMLRealSamples(t *testing.T) {
	for _, name := range []string{"w3-narrow-label-bookmarks.http", "kubectl-pods-watch.jsonl", "w2-broad-pods-bookmarks.http.gz", "w4-then-resume.http"} {
		t.Run(name, func(t *testing.T) {
			want := mustReadOpts(t, decompressed(t, "../samples/"+name))
			plain := decompressed(t, "../samples/"+name)
			var docs bytes.Buffer
			labelled := 0
			for _, e := range want.Events {
				var v any
				if err := json.Unmarshal(plain[e.Offset:e.Offset+e.Length], &v); err != nil {
					t.Fatal(err)
				}
				docs.WriteString("---\n")
				writeYAML(&docs, v, 0)
				if e.Labels != "" {
					labelled++
				}
			}
			if labelled == 0 && name != "w4-then-resume.http" {
				t.Fatalf("no event of %s has labels: the test proves nothing of them", name)
			}
			got := mustRead(t, docs.Bytes())
			noDiags(t, got)
			sameEvents(t, got.Events, want.Events)
		})
	}
}

// writeYAML prints a decoded JSON value in the shape kubectl's printer
// (sigs.k8s.io/yaml on go-yaml v2) gives it: block mappings with sorted
// keys indented by two spaces, sequences at their key's indentation with
// an item's first key on its dash, plain scalars where they read back as
// strings, double quotes where a plain one would read as a number, a bool,
// null or a time ("1234", "2026-11-30T08:41:32Z"), single quotes where it
// would not parse.
func writeYAML(b *bytes.Buffer, v any, indent int) {
	pad := strings.Repeat(" ", indent)
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if i > 0 || b.Len() == 0 || b.Bytes()[b.Len()-1] == '\n' {
				b.WriteString(pad)
			}
			b.WriteString(yamlString(k) + ":")
			writeYAMLValue(b, v[k], indent)
		}
	case []any:
		for _, item := range v {
			b.WriteString(pad + "- ")
			if m, ok := item.(map[string]any); ok && len(m) > 0 {
				writeYAML(b, m, indent+2) // its first key goes on the dash
				continue
			}
			writeYAMLValue(b, item, indent+2)
		}
	}
}

// writeYAMLValue writes the value of a key at indent (or of a sequence
// item), after the key's colon.
func writeYAMLValue(b *bytes.Buffer, v any, indent int) {
	switch c := v.(type) {
	case map[string]any:
		if len(c) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, c, indent+2)
	case []any:
		if len(c) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, c, indent) // go-yaml v2 does not indent a sequence in a mapping
	case string:
		b.WriteString(" " + yamlString(c) + "\n")
	default:
		js, _ := json.Marshal(c) // numbers, bools and null are plain
		b.WriteString(" " + string(js) + "\n")
	}
}

// notPlainString matches what a plain scalar would read as something else
// than a string.
var notPlainString = regexp.MustCompile(`^(?:[-+]?[0-9][0-9_]*(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F]+|\.[0-9]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|~|null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N|[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[Tt ].*)?)$`)

// yamlString writes a string as go-yaml v2 does: plain when it reads back
// as the same string, double-quoted when it would read as another type or
// holds what only an escape can say, single-quoted otherwise.
func yamlString(s string) string {
	switch {
	case s == "":
		return `""`
	case notPlainString.MatchString(s), strings.ContainsAny(s, "\n\t\r\\") || !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		js, _ := json.Marshal(s)
		return string(js)
	case strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@` ") || strings.HasSuffix(s, " ") || strings.HasSuffix(s, ":") ||
		strings.Contains(s, ": ") || strings.Contains(s, " #"):
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}
