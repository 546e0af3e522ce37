//go:build !wasm

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestCLIUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"bogus"},
		{"build"},
		{"build", "-o"},
		{"build", "-nope", "x"},
		{"serve", "extra"},
		{"serve", "-addr"},
	} {
		var out, errOut bytes.Buffer
		if code := runCLI(args, &out, &errOut); code != 2 {
			t.Errorf("watchlens %v: exit %d, want 2", args, code)
		}
		if !strings.Contains(strings.ToLower(errOut.String()), "usage") {
			t.Errorf("watchlens %v: stderr %q does not show the usage", args, errOut.String())
		}
	}
}

func TestCLIHelpIsNoError(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"build", "-h"}, {"serve", "-h"}, {"analyze", "-h"}, {"record", "-h"}} {
		var out, errOut bytes.Buffer
		if code := runCLI(args, &out, &errOut); code != 0 {
			t.Errorf("watchlens %v: exit %d, want 0", args, code)
		}
	}
}

func TestBuildNeedsWasm(t *testing.T) {
	var out, errOut bytes.Buffer
	code := runCLI([]string{"build", "-o", t.TempDir(), "-web", t.TempDir()}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "app.wasm not found") {
		t.Errorf("exit %d, stderr %q: want 1 and a word about the missing app.wasm", code, errOut.String())
	}
}

func TestBuildSite(t *testing.T) {
	web := t.TempDir()
	writeFile(t, filepath.Join(web, "app.wasm"), "not really wasm")
	writeFile(t, filepath.Join(web, "app.css"), "body{}")

	root := t.TempDir()
	v1, err := buildSite(root, "/", web, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "app.js", "app-worker.js", "wasm_exec.js", "manifest.webmanifest", "web/app.wasm", "web/app.css", "web/samples/MANIFEST.tsv", "web/samples/w4-then-resume.http"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("the site lacks %s: %v", f, err)
		}
	}
	index := readFile(t, filepath.Join(root, "index.html"))
	if !strings.Contains(index, `id="file-input"`) {
		t.Errorf("index.html is not the pre-rendered page:\n%.400s", index)
	}
	if worker := readFile(t, filepath.Join(root, "app-worker.js")); !strings.Contains(worker, v1) {
		t.Errorf("the service worker does not carry the build's version %s", v1)
	}
	// The site says nothing leaves the browser: its pages must not fetch
	// anything from elsewhere either (go-app's defaults point at GitHub).
	url := regexp.MustCompile(`(?i)https?://[^\s"'<>)]+`)
	for _, f := range []string{"index.html", "manifest.webmanifest", "app.js", "app-worker.js"} {
		if found := url.FindAllString(readFile(t, filepath.Join(root, f)), -1); len(found) > 0 {
			t.Errorf("%s refers to %v", f, found)
		}
	}
	h := newHandler("v", "/", false)
	for _, icon := range []string{h.Icon.Default, h.Icon.Large, h.Icon.SVG, h.Icon.Maskable} {
		if _, err := os.Stat(filepath.Join("web", strings.TrimPrefix(icon, "/web/"))); err != nil {
			t.Errorf("icon %q is not one of the site's files: %v", icon, err)
		}
	}

	sub := t.TempDir()
	v2, err := buildSite(sub, "/watchlens", web, false)
	if err != nil {
		t.Fatal(err)
	}
	if v2 != v1 {
		t.Errorf("the same content built twice got versions %s and %s", v1, v2)
	}
	if index := readFile(t, filepath.Join(sub, "index.html")); !strings.Contains(index, `/watchlens/web/app.css`) {
		t.Errorf("the sub-path build does not prefix its resources:\n%.600s", index)
	}

	writeFile(t, filepath.Join(web, "app.wasm"), "a new build")
	v3, err := buildSite(t.TempDir(), "/", web, false)
	if err != nil {
		t.Fatal(err)
	}
	if v3 == v1 {
		t.Errorf("a changed app.wasm kept the version %s: browsers would keep the stale build", v1)
	}
}

func TestServeBuildUsesWorkerThatCachesNothing(t *testing.T) {
	web := t.TempDir()
	writeFile(t, filepath.Join(web, "app.wasm"), "x")
	dir := t.TempDir()
	if _, err := buildSite(dir, "/", web, true); err != nil {
		t.Fatal(err)
	}
	worker := readFile(t, filepath.Join(dir, "app-worker.js"))
	if !strings.Contains(worker, "caches.delete") || strings.Contains(worker, "caches.match") || strings.Contains(worker, `"fetch"`) {
		t.Errorf("the development worker can serve from cache, or keeps an earlier worker's cache:\n%s", worker)
	}
	// The page asks the registration for updates, which throws once its
	// worker is gone.
	if strings.Contains(worker, "unregister") {
		t.Errorf("the development worker unregisters itself:\n%s", worker)
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
