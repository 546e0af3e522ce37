// Package e2e holds the browser tests: they build app.wasm and the static
// site, serve it, and drive Debian's headless Chromium through chromedp as
// a user would, comparing what the page shows with what the parser, the
// timeline and the CLI compute natively for the same file. The package
// has no code of its own; its tests run natively (`go test -v ./e2e`).
package e2e
