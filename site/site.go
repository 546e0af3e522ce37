// Package site builds watchlens's static site: go-app's pre-rendered
// pages and service worker for the app, the assets of package web (or a
// folder's files in their place), the built app.wasm and the embedded
// samples, every page carrying its Content-Security-Policy. The CLI's
// `build` writes it; `serve` builds it afresh and serves it.
package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"watchlens/app"
	"watchlens/samples"
	"watchlens/warmup"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// devWorker replaces go-app's cache-first service worker while serving for
// local development: a cache-first worker keeps serving the previous app.wasm
// after a rebuild. This one handles no fetch, so every request goes to the
// server, and deletes what an earlier worker of the origin cached. It stays
// registered: the page asks its registration for updates (app.TryUpdate),
// which threw "InvalidStateError" on every load while this worker
// unregistered itself.
const devWorker = `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) { await caches.delete(key); }
  })());
});
`

// takeoverScript runs first in the page's head: a new version's worker
// claims the page at any moment, often while it loads, before any other
// script could listen. The browser tells of a takeover (controllerchange)
// only to a page whose scripts are listening: one that came between the
// page's arrival and this script went untold, and the page was left with
// the new version's worker and its own, older, HTML. So the script also
// asks the worker that controls the page which version it serves
// (worker.go's versionListener): another than the page's is a takeover.
// And while a new version's worker waits, it asks that worker to take
// over, every 2 s for up to 5 minutes: an activation a request came into
// waits otherwise until every tab of the site has closed (the rare
// "installed, waiting" of the browser tests' new version), and a page
// still warming up on a busy machine makes requests for longer than the
// 30 s it once asked for.
// %s is the page's version, quoted.
const takeoverScript = `<script>
window.watchlensFirstWorker = navigator.serviceWorker && navigator.serviceWorker.controller ? navigator.serviceWorker.controller.scriptURL : "";
if (navigator.serviceWorker) {
  const tookOver = () => {
    if (window.watchlensTakenOver) return;
    window.watchlensTakenOver = true;
    window.dispatchEvent(new Event("watchlens-takeover"));
  };
  navigator.serviceWorker.addEventListener("controllerchange", tookOver);
  if (navigator.serviceWorker.controller) {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => { if (event.data !== %s) tookOver(); };
    navigator.serviceWorker.controller.postMessage({type: "watchlens:version"}, [channel.port2]);
  }
  const nudge = (reg, tries) => {
    if (!reg.waiting || tries === 0) return;
    reg.waiting.postMessage({type: "watchlens:skip-waiting"});
    setTimeout(() => nudge(reg, tries - 1), 2000);
  };
  navigator.serviceWorker.getRegistration().then((reg) => {
    if (!reg) return;
    // A worker installing now began as the page loaded, before this
    // could listen for it (updatefound).
    const watch = (w) => {
      if (w) w.addEventListener("statechange", () => { if (w.state === "installed") nudge(reg, 150); });
    };
    nudge(reg, 150);
    watch(reg.installing);
    reg.addEventListener("updatefound", () => watch(reg.installing));
  });
}
</script>`

// newHandler describes the app to go-app. base is the sub-path the site is
// hosted under ("" or "/" for the root).
// dev swaps in devWorker.
func newHandler(version, base string, dev bool) *goapp.Handler {
	// The handler pre-renders the routed pages, so they must be routed here:
	// only the browser's main routes them (main_wasm.go), and natively
	// nothing else does.
	app.Register()
	h := &goapp.Handler{
		Name:        "watchlens",
		ShortName:   "watchlens",
		Title:       "watchlens: what a Kubernetes watch capture says",
		Description: "Drop a recorded Kubernetes watch log and see its events, bookmarks, sessions, cursor gaps and where a reconnect would have hit 410 Gone. Nothing leaves the browser.",
		Author:      "watchlens",
		Keywords:    []string{"kubernetes", "watch", "resourceVersion", "410 Gone", "bookmark"},
		Lang:        "en",
		// Every icon is the site's own: left empty, go-app fills the SVG one
		// (and the default ones) with a URL on GitHub, a request to a third
		// party on every visit of a page that says nothing leaves it.
		Icon:   goapp.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		Styles: []string{"/web/app.css"},
		// crash.js first: it must see wasm_exec.js define the Go class.
		Scripts: []string{"/web/crash.js", "/web/drop.js", "/web/menus.js", "/web/timeline.js"},
		// The worker that reads dropped files is loaded by the app, not
		// by the page, so the offline cache must be told of it.
		CacheableResources: []string{"/web/blobread.js"},
		// Which worker controlled the page when it opened, and whether
		// another took over since, recorded before go-app registers its
		// own (see app.Page's watchForNewVersion).
		RawHeaders:      []string{fmt.Sprintf(takeoverScript, strconv.Quote(version))},
		BackgroundColor: "#111827",
		ThemeColor:      "#1f2a37",
		LoadingLabel:    "Loading watchlens {progress}%",
		Version:         version,
	}
	if base = strings.TrimRight(base, "/"); base != "" {
		h.Resources = goapp.PrefixedLocation(base)
	}
	h.ServiceWorkerTemplate = appWorker
	if dev {
		h.ServiceWorkerTemplate = devWorker
	}
	return h
}

// siteFiles lists what goes under /web/ besides go-app's own files: the
// built-in assets, replaced by the files in webDir ("" for none; one of
// the two must hold app.wasm), the embedded samples, and the incident
// the engine's spare worker warms up on (package warmup), keyed by their
// path under /web/. Go source in webDir (package web's) is no asset.
func siteFiles(webDir string) (map[string]func() ([]byte, error), error) {
	if err := needWasm(webDir); err != nil {
		return nil, err
	}
	files, err := builtInAssets()
	if err != nil {
		return nil, err
	}
	if webDir != "" {
		if folderHasWasm(webDir) {
			// A folder with an app.wasm of its own is a build of its own:
			// the engine worker's wasm this binary carries may be of
			// another version than its page, or the folder's build may
			// have none. The worker's wasm comes from the folder or not
			// at all.
			delete(files, "engine-worker.wasm")
		}
		if err := addFolder(files, webDir); err != nil {
			return nil, err
		}
	}
	names, err := fs.Glob(samples.FS, "*")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		files["samples/"+name] = func() ([]byte, error) { return samples.FS.ReadFile(name) }
	}
	incident, err := fs.Glob(warmup.FS, "*")
	if err != nil {
		return nil, err
	}
	for _, name := range incident {
		files["warmup/"+name] = func() ([]byte, error) { return warmup.FS.ReadFile(name) }
	}
	return files, nil
}

// engineWorker lists the engine's worker (web/engine-worker.js and the
// wasm it starts) for the offline cache, if the site has its wasm: the
// app starts it, not the page, so the cache must be told of it. A site
// without it reads captures in the page's own wasm; a missing file in
// the list would fail the service worker's install.
func engineWorker(files map[string]func() ([]byte, error)) []string {
	if files["engine-worker.wasm"] == nil || files["engine-worker.js"] == nil {
		return nil
	}
	return []string{"/web/engine-worker.js", "/web/engine-worker.wasm"}
}

// addFolder adds the files of dir to files, keyed by their path in it,
// replacing those of the same name; Go source is no asset.
func addFolder(files map[string]func() ([]byte, error), dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) == ".go" {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = func() ([]byte, error) { return os.ReadFile(p) }
		return nil
	})
}

// contentVersion hashes every file the site serves, so a new build gets a
// new Version and go-app's worker drops its stale cache, and an unchanged
// build keeps the old one.
func contentVersion(files map[string]func() ([]byte, error)) (string, error) {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		b, err := files[name]()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Build writes a complete static site into outDir and returns its
// version. base is the URL path the site is hosted under ("/" for the
// root); webDir holds the built app.wasm, and its other files replace the
// built-in assets; dev selects the service worker that caches nothing,
// for `serve`.
func Build(outDir, base, webDir string, dev bool) (string, error) {
	files, err := siteFiles(webDir)
	if err != nil {
		return "", err
	}
	version, err := contentVersion(files)
	if err != nil {
		return "", err
	}
	h := newHandler(version, base, dev)
	h.CacheableResources = append(h.CacheableResources, engineWorker(files)...)
	if err := goapp.GenerateStaticWebsite(outDir, h); err != nil {
		return "", fmt.Errorf("generating pages: %w", err)
	}
	if err := addPolicies(outDir); err != nil {
		return "", err
	}
	if err := hostRelativeOG(outDir, base); err != nil {
		return "", err
	}
	for name, read := range files {
		b, err := read()
		if err != nil {
			return "", err
		}
		dst := filepath.Join(outDir, "web", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return "", err
		}
	}
	return version, nil
}
