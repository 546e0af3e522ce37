package parser

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// TestYAMLRealSamples prints every event of real captures the way
// `kubectl get -w --output-watch-events -o yaml` does (keys sorted, two
// spaces, documents separated by ---) and reads them back: every field,
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

// writeYAML prints a decoded JSON value as kubectl's YAML printer does:
// block mappings with sorted keys, block sequences, double-quoted strings.
func writeYAML(b *bytes.Buffer, v any, indent int) {
	pad := strings.Repeat(" ", indent)
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			b.WriteString(pad + yamlKey(k) + ":")
			writeYAMLValue(b, v[k], indent+2)
		}
	case []any:
		for _, item := range v {
			b.WriteString(pad + "-")
			writeYAMLValue(b, item, indent+2)
		}
	}
}

func writeYAMLValue(b *bytes.Buffer, v any, indent int) {
	switch c := v.(type) {
	case map[string]any:
		if len(c) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, c, indent)
	case []any:
		if len(c) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, c, indent)
	default:
		js, _ := json.Marshal(c) // a JSON scalar is a YAML flow scalar
		b.WriteString(" " + string(js) + "\n")
	}
}

func yamlKey(k string) string {
	if strings.ContainsAny(k, ":#'\" ") || k == "" {
		js, _ := json.Marshal(k)
		return string(js)
	}
	return k
}
