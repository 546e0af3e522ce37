// Package jsrt is the page's browser runtime: awaiting a promise from a
// goroutine, yielding the page's thread to the browser, reading a Blob
// through a worker as an io.Reader, pacing the garbage collector during a
// load, fetching and downloading. It holds no user interface, and knows
// nothing of captures.
//
// It is written on syscall/js, not on go-app, so that a wasm without
// go-app (app/engine/worker, the engine run in a worker) reads and awaits as
// the page does. The page holds go-app's Values, and unwraps them where
// it calls in (package goappjs).
package jsrt
