//go:build !(js && wasm)

package load

import "watchlens/app/engine"

// Outside the browser there is no worker: loads read in the process.

// UseEngineWorker does nothing outside the browser.
func UseEngineWorker(string, []string, []string, engine.ViewState) {}

// ReadsInWorker is false outside the browser: loads read in the process.
func ReadsInWorker() bool { return false }

// PrepareEngineWorker does nothing outside the browser.
func PrepareEngineWorker() {}

// EngineWorkerWarmed is nil outside the browser: there is no worker.
func EngineWorkerWarmed() <-chan struct{} { return nil }

// Release does nothing outside the browser.
func Release(*Capture) {}

func readInWorker([]Source, Options, *progressReport, Turn) (*Capture, bool, error) {
	return nil, true, nil
}
