package parser

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// templateOff keeps tp from being tried or made for as many events as a
// test can read: metadataFromHead walks each event's metadata the plain
// way, and templatedValue declines.
func templateOff(tp *metaTemplate) { tp.skip = math.MaxInt }

// TestTemplateBytesOnCaptures reads every real capture twice, with the
// metadata template and without it, and holds the two to the same
// events (every field, the raw bytes, the identities), sessions and
// diagnostics. Each event's raw bytes are read again by the fast path
// through one memo, as the Reader does, and through one that never makes
// a template: where the template read an event, it gave the same fields
// and stopped at the same byte as the walk. The small events of the
// captures (ConfigMaps, Leases) must be read by the template, or the test
// says nothing.
func TestTemplateBytesOnCaptures(t *testing.T) {
	dirs := sampleDirs(t)
	for _, name := range []string{"samples-lab", "samples-watchlist", "samples-outage", "samples-fleet"} {
		if dir, ok := testsample.RecordingIfPresent(t, name); ok {
			dirs = append(dirs, dir)
		}
	}
	templated, events := 0, 0
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, path := range files {
			if strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".tsv") || strings.HasSuffix(path, ".txt") || strings.HasSuffix(path, ".go") {
				continue
			}
			if st, err := os.Stat(path); err != nil || st.IsDir() {
				continue
			}
			in := testsample.Read(t, path)
			name := filepath.Base(dir) + "/" + filepath.Base(path)
			with := NewReader(bytes.NewReader(in), Options{})
			without := NewReader(bytes.NewReader(in), Options{})
			templateOff(&without.memo.tmpl)
			tab, plainTab := newInternTable(), newInternTable()
			var memo, plain fastMemo
			templateOff(&plain.tmpl)
			for k := 0; ; k++ {
				more := with.Next()
				if more != without.Next() {
					t.Fatalf("%s: event %d: the template's Reader goes on %v, the walk's %v", name, k, more, !more)
				}
				if !more {
					break
				}
				if a, b := with.Event(), without.Event(); !reflect.DeepEqual(a, b) || !bytes.Equal(with.Raw(), without.Raw()) {
					t.Fatalf("%s: event %d: with the template %+v\nwalked %+v", name, k, a, b)
				}
				raw := with.Raw()
				if len(raw) == 0 || raw[0] != '{' {
					continue
				}
				events++
				tp := &memo.tmpl
				tried := tp.ok && tp.skip == 0
				var f, g fields
				end, early, ok := extractFast(raw, &f, tab, &memo)
				if !tried || tp.misses != 0 || !ok {
					continue
				}
				templated++
				end2, early2, ok2 := extractFast(raw, &g, plainTab, &plain)
				checkLabelsID(t, tab, &f)
				checkLabelsID(t, plainTab, &g)
				if end != end2 || early != early2 || !ok2 || f != g {
					t.Fatalf("%s: event %d by the template: %d %v %+v\nwalked: %d %v %v %+v", name, k, end, early, f, end2, early2, ok2, g)
				}
			}
			if !reflect.DeepEqual(with.Sessions(), without.Sessions()) || !reflect.DeepEqual(with.Diagnostics(), without.Diagnostics()) {
				t.Fatalf("%s: with the template %+v %+v\nwalked %+v %+v", name, with.Sessions(), with.Diagnostics(), without.Sessions(), without.Diagnostics())
			}
		}
	}
	t.Logf("%d of %d JSON events read by the template", templated, events)
	if templated < events/4 {
		t.Fatalf("only %d of %d JSON events read by the template", templated, events)
	}
}
