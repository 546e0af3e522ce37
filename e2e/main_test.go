//go:build !wasm

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"watchlens/internal/testsample"

	"github.com/chromedp/chromedp"
)

// TestMain runs the browser tests from the module root, as a user's shell
// in a clone would: they name the samples as samples/NAME, build the app
// from ".", and write their screenshots into screenshots/ there.
func TestMain(m *testing.M) {
	root, err := testsample.FindRoot()
	if err == nil {
		err = os.Chdir(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	code := m.Run()
	if shared.stop != nil {
		shared.stop()
	}
	for _, dir := range []string{cli.dir, wasm.dir, built.dir, engineWorkerWasm.dir, millionSharded.dir, shared.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// cli is the watchlens command, built once for the tests that compare the
// page with it.
var cli struct {
	once sync.Once
	dir  string // holds the binary, removed by TestMain
	err  error
}

// wasm is the app, built once for every test that serves the site: the
// tests build it themselves so that they never run a stale app.wasm.
var wasm struct {
	once sync.Once
	dir  string // holds app.wasm, removed by TestMain
	err  error
}

// sites are the static site's folders (builtSite).
type sites struct {
	web  string // the assets, app.wasm included
	root string // the site built for the root
	sub  string // the site built for /watchlens
}

// built is the static site, built once for every test that serves it.
var built struct {
	once  sync.Once
	dir   string // holds the sites, removed by TestMain
	sites *sites
	err   error
}

// shared is the one Chromium the tests open their tabs in, started by
// the first test that needs it: a browser per test costs the 2-core
// machine a browser's start each time, and a test runs in a browser context
// of its own in it (see startSite).
var shared struct {
	once    sync.Once
	dir     string // its profile, removed by TestMain
	browser context.Context
	stop    func()
	err     error
}

// sharedBrowser returns the shared Chromium, starting it on the first call.
func sharedBrowser(t testing.TB) context.Context {
	t.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "watchlens-e2e-chromium-"); shared.err != nil {
			return
		}
		shared.browser, shared.stop = startBrowser(shared.dir)
		// Started now, outside any test's time limit.
		shared.err = chromedp.Do(shared.browser)
	})
	must(t, shared.err)
	return shared.browser
}

// builtWasm returns the path of the app built for the browser; the
// engine's worker (engine-worker.wasm) is built beside it.
func builtWasm(t testing.TB) string {
	t.Helper()
	wasm.once.Do(func() {
		if wasm.dir, wasm.err = os.MkdirTemp("", "watchlens-e2e-wasm-"); wasm.err != nil {
			return
		}
		// The page, and the engine's worker it reads captures in.
		for name, pkg := range map[string]string{"app.wasm": ".", "engine-worker.wasm": "./app/engine/worker"} {
			build := exec.Command("go", "build", "-o", filepath.Join(wasm.dir, name), pkg)
			build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
			if out, err := build.CombinedOutput(); err != nil {
				wasm.err = fmt.Errorf("building %s: %v\n%s", name, err, out)
				return
			}
		}
	})
	must(t, wasm.err)
	return filepath.Join(wasm.dir, "app.wasm")
}

// runWatchlens runs the watchlens command with args in dir and returns
// what it wrote to standard output; the test fails if it exits non-zero.
func runWatchlens(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cli.once.Do(func() {
		if cli.dir, cli.err = os.MkdirTemp("", "watchlens-e2e-"); cli.err != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(cli.dir, "watchlens"), ".").CombinedOutput()
		if err != nil {
			cli.err = fmt.Errorf("building watchlens: %v\n%s", err, out)
		}
	})
	must(t, cli.err)
	cmd := exec.Command(filepath.Join(cli.dir, "watchlens"), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("watchlens %v: %v: %s", args, err, stderr.String())
	}
	return stdout.String()
}
