// Package jsrt is the page's browser runtime: awaiting a promise from a
// goroutine, yielding the page's thread to the browser, reading a Blob
// through a worker as an io.Reader, pacing the garbage collector during a
// load, fetching and downloading. It holds no user interface, and knows
// nothing of captures.
package jsrt
