package site

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

func TestBuildSite(t *testing.T) {
	webDir := t.TempDir()
	writeFile(t, filepath.Join(webDir, "app.wasm"), "not really wasm")
	writeFile(t, filepath.Join(webDir, "app.css"), "body{}")

	root := t.TempDir()
	v1, err := Build(root, "/", webDir, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "app.js", "app-worker.js", "wasm_exec.js", "manifest.webmanifest", "web/app.wasm", "web/app.css", "web/samples/MANIFEST.tsv", "web/samples/w4-then-resume.http", "web/warmup/audit-a-1.log"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("the site lacks %s: %v", f, err)
		}
	}
	index := siteFile(t, filepath.Join(root, "index.html"))
	if !strings.Contains(index, `id="file-input"`) {
		t.Errorf("index.html is not the pre-rendered page:\n%.400s", index)
	}
	worker := siteFile(t, filepath.Join(root, "app-worker.js"))
	if !strings.Contains(worker, v1) {
		t.Errorf("the service worker does not carry the build's version %s", v1)
	}
	// It answers the app's own files alone: a link's fetch it made for
	// the page could not be aborted by the page.
	if !strings.Contains(worker, "!resourcesToCache.includes(url.pathname)") || strings.Contains(worker, goFetchListener) {
		t.Errorf("the service worker answers requests other than the app's files:\n%s", worker)
	}
	// It installs and activates inside the events, so the browser keeps
	// it running until it has cached the site and taken over, and tells
	// a page which version it serves.
	for _, want := range []string{ownInstallListener, ownActivateListener, `event.ports[0].postMessage("` + v1 + `")`} {
		if !strings.Contains(worker, want) {
			t.Errorf("the service worker lacks %q", want)
		}
	}
	// The page asks it, knowing its own version.
	if !strings.Contains(index, `"watchlens:version"`) || !strings.Contains(index, `event.data !== "`+v1+`"`) {
		t.Errorf("index.html does not ask the worker for its version against %s", v1)
	}
	// The site says nothing leaves the browser: its pages must not fetch
	// anything from elsewhere either (go-app's defaults point at GitHub).
	url := regexp.MustCompile(`(?i)https?://[^\s"'<>)]+`)
	for _, f := range []string{"index.html", "manifest.webmanifest", "app.js", "app-worker.js"} {
		if found := url.FindAllString(siteFile(t, filepath.Join(root, f)), -1); len(found) > 0 {
			t.Errorf("%s refers to %v", f, found)
		}
	}
	h := newHandler("v", "/", false)
	for _, icon := range []string{h.Icon.Default, h.Icon.Large, h.Icon.SVG, h.Icon.Maskable} {
		if _, err := os.Stat(testsample.Path(t, "web", strings.TrimPrefix(icon, "/web/"))); err != nil {
			t.Errorf("icon %q is not one of the site's files: %v", icon, err)
		}
	}

	sub := t.TempDir()
	v2, err := Build(sub, "/watchlens", webDir, false)
	if err != nil {
		t.Fatal(err)
	}
	if v2 != v1 {
		t.Errorf("the same content built twice got versions %s and %s", v1, v2)
	}
	if index := siteFile(t, filepath.Join(sub, "index.html")); !strings.Contains(index, `/watchlens/web/app.css`) {
		t.Errorf("the sub-path build does not prefix its resources:\n%.600s", index)
	}

	writeFile(t, filepath.Join(webDir, "app.wasm"), "a new build")
	v3, err := Build(t.TempDir(), "/", webDir, false)
	if err != nil {
		t.Fatal(err)
	}
	if v3 == v1 {
		t.Errorf("a changed app.wasm kept the version %s: browsers would keep the stale build", v1)
	}
}

// TestOpenGraphHostRelative: a link to the site shows its page and icon
// on the host it is served from (go-app wrote "https://" with no host).
func TestOpenGraphHostRelative(t *testing.T) {
	webDir := t.TempDir()
	writeFile(t, filepath.Join(webDir, "app.wasm"), "not really wasm")
	for base, want := range map[string][2]string{"/": {"/", "/web/icon-512.png"}, "/watchlens": {"/watchlens/", "/watchlens/web/icon-512.png"}} {
		root := t.TempDir()
		if _, err := Build(root, base, webDir, false); err != nil {
			t.Fatal(err)
		}
		index := siteFile(t, filepath.Join(root, "index.html"))
		for i, prop := range []string{"og:url", "og:image"} {
			// go-app writes a tag's attributes in any order.
			tag := regexp.MustCompile(`<meta [^>]*property="` + prop + `"[^>]*>`).FindString(index)
			if !strings.Contains(tag, `content="`+want[i]+`"`) {
				t.Errorf("base %s: %s is %s, want %s", base, prop, tag, want[i])
			}
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(want[1], base)))); err != nil {
			t.Errorf("base %s: the og:image is not one of the site's files: %v", base, err)
		}
	}
}

func TestServeBuildUsesWorkerThatCachesNothing(t *testing.T) {
	webDir := t.TempDir()
	writeFile(t, filepath.Join(webDir, "app.wasm"), "x")
	dir := t.TempDir()
	if _, err := Build(dir, "/", webDir, true); err != nil {
		t.Fatal(err)
	}
	worker := siteFile(t, filepath.Join(dir, "app-worker.js"))
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

// siteFile returns a file of a built site as text.
func siteFile(t *testing.T, name string) string {
	t.Helper()
	return string(testsample.Read(t, name))
}
