package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// withBuiltIn makes the binary's own copy of web/ fsys for the test.
func withBuiltIn(t *testing.T, fsys fstest.MapFS) {
	t.Helper()
	saved := builtIn
	builtIn = fsys
	t.Cleanup(func() { builtIn = saved })
}

// A binary built before app.wasm (a clean clone's) needs a -web folder
// holding it, and says how to get one.
func TestBuildNeedsWasm(t *testing.T) {
	withBuiltIn(t, fstest.MapFS{"app.css": {Data: []byte("body{}")}, "web.go": {Data: []byte("package web")}})
	for _, webDir := range []string{"", t.TempDir()} {
		_, err := Build(t.TempDir(), "/", webDir, false)
		if err == nil || !strings.Contains(err.Error(), "app.wasm not found") || !strings.Contains(err.Error(), "make wasm") {
			t.Errorf("-web %q and no app.wasm built in: %v, want how to get app.wasm", webDir, err)
		}
	}
}

// A binary built after `make wasm` carries app.wasm, and builds the whole
// site with no -web folder, wherever it runs; a -web folder's files still
// replace its own.
func TestBuildWithTheBinarysWasm(t *testing.T) {
	withBuiltIn(t, fstest.MapFS{
		"app.css":  {Data: []byte("body{}")},
		"app.wasm": {Data: []byte("the built-in wasm")},
		"web.go":   {Data: []byte("package web")},
	})
	out := t.TempDir()
	if _, err := Build(out, "/", "", false); err != nil {
		t.Fatal(err)
	}
	if got := siteFile(t, filepath.Join(out, "web", "app.wasm")); got != "the built-in wasm" {
		t.Errorf("the site's app.wasm is %q, want the binary's", got)
	}
	if _, err := os.Stat(filepath.Join(out, "web", "web.go")); err == nil {
		t.Error("the site serves package web's Go source")
	}
	webDir := t.TempDir()
	writeFile(t, filepath.Join(webDir, "app.wasm"), "a fresher build")
	out = t.TempDir()
	if _, err := Build(out, "/", webDir, false); err != nil {
		t.Fatal(err)
	}
	if got := siteFile(t, filepath.Join(out, "web", "app.wasm")); got != "a fresher build" {
		t.Errorf("with -web the site's app.wasm is %q, want the folder's", got)
	}
}
