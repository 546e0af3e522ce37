//go:build !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyzeFailOnUnreadable: a CI gate must not pass a file it could not
// read as a watch capture (empty, not a capture, cut before its first
// event): under --fail-on that is exit 3. A capture cut mid-stream (a
// recording stopped with Ctrl-C) keeps its verdict.
func TestAnalyzeFailOnUnreadable(t *testing.T) {
	dir := t.TempDir()
	w1, err := os.ReadFile("samples/w1-broad-configmaps-bookmarks.http")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(w1)
	zw.Close()
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919>>3) ^ byte(i>>5)
	}
	files := map[string][]byte{
		"empty":         nil,
		"random":        random,
		"cut-at-100.gz": gz.Bytes()[:100],
		"half.http":     w1[:len(w1)/2],
		"half.http.gz":  gz.Bytes()[:gz.Len()/2],
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		files []string
		want  int
	}{
		{[]string{"empty"}, 3},
		{[]string{"random"}, 3},
		{[]string{"cut-at-100.gz"}, 3},
		{[]string{"half.http"}, 0},
		{[]string{"half.http.gz"}, 0},
		{[]string{"half.http", "empty"}, 3},
	} {
		var args []string
		for _, f := range tc.files {
			args = append(args, filepath.Join(dir, f))
		}
		code, _, errOut := analyze(t, append([]string{"--fail-on", "410"}, args...)...)
		if code != tc.want {
			t.Errorf("analyze --fail-on 410 %v: exit %d, want %d (%s)", tc.files, code, tc.want, errOut)
		}
		if said := strings.Contains(errOut, "nothing in it could be read as a watch capture"); said != (tc.want == 3) {
			t.Errorf("analyze %v: stderr %q", tc.files, errOut)
		}
		if code, _, _ := analyze(t, args...); code != 0 {
			t.Errorf("analyze %v without --fail-on: exit %d, want 0 (the report says what was read)", tc.files, code)
		}
	}
	// A response that is only a 410 Status has no event, and is a verdict.
	if code, _, errOut := analyze(t, "--fail-on", "410", "samples/l410-list-exact-stale-rv.http"); code != 1 || errOut != "" {
		t.Errorf("the LIST answered 410: exit %d, stderr %q; want 1 and nothing said", code, errOut)
	}
}
