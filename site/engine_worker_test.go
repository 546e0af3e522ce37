package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The offline cache holds the engine's worker, its script and its wasm,
// when the site has the wasm; a site without it (the page then reads in
// its own wasm) does not list a file it lacks, which would fail the
// service worker's install.
func TestOfflineCacheHoldsTheEngineWorker(t *testing.T) {
	webDir := t.TempDir()
	writeFile(t, filepath.Join(webDir, "app.wasm"), "not really wasm")
	writeFile(t, filepath.Join(webDir, "engine-worker.wasm"), "not really the worker's wasm")
	root := t.TempDir()
	if _, err := Build(root, "/", webDir, false); err != nil {
		t.Fatal(err)
	}
	worker := siteFile(t, filepath.Join(root, "app-worker.js"))
	for _, f := range []string{"/web/engine-worker.js", "/web/engine-worker.wasm", "/web/blobread.js"} {
		if !strings.Contains(worker, `"`+f+`"`) {
			t.Errorf("the offline cache lacks %s", f)
		}
	}
	siteFile(t, filepath.Join(root, "web", "engine-worker.wasm"))

	// Without it in a folder that has an app.wasm of its own, whatever
	// this binary carries (a test binary built after make wasm does).
	without := t.TempDir()
	writeFile(t, filepath.Join(without, "app.wasm"), "not really wasm")
	root = t.TempDir()
	if _, err := Build(root, "/", without, false); err != nil {
		t.Fatal(err)
	}
	if worker := siteFile(t, filepath.Join(root, "app-worker.js")); strings.Contains(worker, "engine-worker.wasm") {
		t.Error("the offline cache lists the engine worker's wasm, which the site lacks")
	}
	if _, err := os.Stat(filepath.Join(root, "web", "engine-worker.wasm")); err == nil {
		t.Error("the site serves an engine worker's wasm its folder lacks")
	}
}
