//go:build !wasm

package main

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// webAssets are the static assets of web/, built into the binary so that
// `build` and `serve` work wherever it runs, not only in a clone: -web then
// needs to hold only app.wasm. app.wasm itself cannot be built in: it is
// built, not committed, and go:embed fails on a file a clean clone lacks.
// The patterns name the assets' types, so that an app.wasm left in web/
// by `make wasm` is never embedded.
//
//go:embed web/*.css web/*.js web/*.png web/*.svg
var webAssets embed.FS

// builtInAssets lists the embedded assets, keyed by their path under web/.
func builtInAssets() (map[string]func() ([]byte, error), error) {
	files := map[string]func() ([]byte, error){}
	names, err := fs.Glob(webAssets, "web/*")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		files[name[len("web/"):]] = func() ([]byte, error) { return webAssets.ReadFile(name) }
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
