// Package enginetest opens files in the engine for the tests of the
// packages that use it (app, e2e), named as the host a test stands for
// names them. It imports app/engine, so app/engine's own tests, in its
// package, open files through testsample.Files instead.
package enginetest

import (
	"bytes"
	"testing"

	"watchlens/app/engine"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// Open opens the files at paths, in order, each named by name, and
// analyses them with params; a file it cannot read or open fails t.
func Open(t testing.TB, params timeline.Params, name testsample.Naming, paths ...string) (*engine.Engine, engine.Opened) {
	t.Helper()
	var sources []engine.Source
	for _, f := range testsample.Files(t, name, paths...) {
		sources = append(sources, engine.Source{Name: f.Name, Size: int64(len(f.Data)), Data: bytes.NewReader(f.Data)})
	}
	e, o, err := engine.Open(sources, engine.Options{Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return e, o
}
