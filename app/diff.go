package app

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// change is one field that differs between two versions of an object.
type change struct {
	path     string // e.g. object.metadata.labels.app
	old, new string // JSON of the value; empty when absent on that side
}

// diffJSON lists the fields that differ between two events' JSON, leaf by
// leaf, in path order. With foldManaged, metadata.managedFields counts as one
// field: it changes on every write and would drown what the user looks for.
func diffJSON(before, after []byte, foldManaged bool) ([]change, error) {
	var a, b any
	if err := json.Unmarshal(before, &a); err != nil {
		return nil, fmt.Errorf("previous version: %w", err)
	}
	if err := json.Unmarshal(after, &b); err != nil {
		return nil, fmt.Errorf("this version: %w", err)
	}
	fa, fb := map[string]string{}, map[string]string{}
	flatten("", a, fa, foldManaged)
	flatten("", b, fb, foldManaged)
	var out []change
	for p, v := range fa {
		if w, ok := fb[p]; !ok || w != v {
			out = append(out, change{path: p, old: v, new: fb[p]})
		}
	}
	for p, w := range fb {
		if _, ok := fa[p]; !ok {
			out = append(out, change{path: p, new: w})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

func flatten(prefix string, v any, out map[string]string, foldManaged bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			out[prefix] = "{}"
		}
		for k, child := range x {
			p := join(prefix, k)
			if foldManaged && strings.HasSuffix(p, "metadata.managedFields") {
				out[p] = compactJSON(child)
				continue
			}
			flatten(p, child, out, foldManaged)
		}
	case []any:
		if len(x) == 0 {
			out[prefix] = "[]"
		}
		for i, child := range x {
			flatten(prefix+"["+strconv.Itoa(i)+"]", child, out, foldManaged)
		}
	default:
		out[prefix] = compactJSON(x)
	}
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
