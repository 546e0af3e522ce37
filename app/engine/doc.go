// Package engine owns one load's model (the timeline, its analysis and
// the canvas's groundwork) and answers the page's typed questions about
// it with plain data: structs of numbers, strings and slices, no pointer
// into the model and no func, so that each answer can cross a
// postMessage once the engine runs in a Web Worker (docs/engine.md). It
// imports neither go-app nor syscall/js: it is tested natively, on the
// real recordings, and runs in the page's wasm or in a worker's alike.
package engine
