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
	path     string // e.g. object.metadata.labels.app (see diffJSON)
	old, new string // JSON of the value; empty when absent on that side
}

// diffJSON lists the fields that differ between two events' JSON, leaf by
// leaf, in path order. With foldManaged, metadata.managedFields counts as one
// field: it changes on every write and would drown what the user looks for.
// An item of a LIST is its object alone, which a watch event holds under
// "object": it is compared as the object of a watch event, and the event's
// type, which the item has none of, is left out, as are the kind and
// apiVersion its list gives for every item where the item lacks them.
func diffJSON(before, after []byte, foldManaged bool) ([]change, error) {
	var a, b any
	if err := json.Unmarshal(before, &a); err != nil {
		return nil, fmt.Errorf("previous version: %w", err)
	}
	if err := json.Unmarshal(after, &b); err != nil {
		return nil, fmt.Errorf("this version: %w", err)
	}
	a, itemA := asWatchEvent(a)
	b, itemB := asWatchEvent(b)
	fa, fb := map[string]string{}, map[string]string{}
	flatten("", a, fa, foldManaged)
	flatten("", b, fb, foldManaged)
	if itemA || itemB {
		delete(fa, "type")
		delete(fb, "type")
		for _, p := range []string{"object.kind", "object.apiVersion"} {
			if _, ok := fa[p]; !ok && itemA {
				delete(fb, p)
			}
			if _, ok := fb[p]; !ok && itemB {
				delete(fa, p)
			}
		}
	}
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

// asWatchEvent gives v, an event's decoded JSON, the shape of a watch
// event: an item of a LIST, a bare object, is put under "object"; item
// says it was one.
func asWatchEvent(v any) (event any, item bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, false
	}
	if _, ok := m["object"]; ok && m["type"] != nil {
		return v, false
	}
	return map[string]any{"object": m}, true
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
