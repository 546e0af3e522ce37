package site

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"watchlens/web"
)

// builtIn is what the binary carries of web/ (package web): the assets,
// and app.wasm when it was built before the binary.
var builtIn fs.FS = web.FS

// builtInAssets lists the files of builtIn, keyed by their path under
// /web/: with app.wasm among them `build` and `serve` need no -web folder,
// and without it one that holds only app.wasm.
func builtInAssets() (map[string]func() ([]byte, error), error) {
	files := map[string]func() ([]byte, error){}
	names, err := fs.Glob(builtIn, "*")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if path.Ext(name) == ".go" {
			continue
		}
		files[name] = func() ([]byte, error) { return fs.ReadFile(builtIn, name) }
	}
	return files, nil
}

// folderHasWasm says whether the -web folder webDir ("" for none)
// holds an app.wasm: a build of the page of its own.
func folderHasWasm(webDir string) bool {
	if webDir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(webDir, "app.wasm"))
	return err == nil
}

// needWasm explains how to get app.wasm when neither webDir nor the
// binary holds it.
func needWasm(webDir string) error {
	if folderHasWasm(webDir) {
		return nil
	}
	if _, err := fs.Stat(builtIn, "app.wasm"); err == nil {
		return nil
	}
	if webDir == "" {
		webDir = "web"
	}
	return fmt.Errorf("app.wasm not found in %s, nor built into this binary: build it in the repository with `make wasm` (or GOOS=js GOARCH=wasm go build -o DIR/app.wasm .) and pass -web DIR, or build this binary after it (`make build`)", webDir)
}
