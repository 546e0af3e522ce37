package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"watchlens/web"
)

// builtInAssets lists the assets built into the binary (package web),
// keyed by their path under /web/: `build` and `serve` then need a -web
// folder that holds only app.wasm.
func builtInAssets() (map[string]func() ([]byte, error), error) {
	files := map[string]func() ([]byte, error){}
	names, err := fs.Glob(web.FS, "*")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		files[name] = func() ([]byte, error) { return web.FS.ReadFile(name) }
	}
	return files, nil
}

// needWasm explains how to get app.wasm when webDir lacks it.
func needWasm(webDir string) error {
	if _, err := os.Stat(filepath.Join(webDir, "app.wasm")); err == nil {
		return nil
	}
	return fmt.Errorf("app.wasm not found in %s: build it in the repository with `make wasm` (or GOOS=js GOARCH=wasm go build -o DIR/app.wasm .) and pass -web DIR", webDir)
}
