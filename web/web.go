// Package web holds the page's static assets (styles, scripts, icons),
// embedded so that the native binary can serve and build the site wherever
// it runs, not only in a clone. app.wasm lands in this folder too, built,
// not committed: the pattern takes every file here, so a binary built
// after `make wasm` (as `make build` and `make run` build it) carries the
// page's wasm too, and one built in a clean clone carries the assets
// alone.
package web

import "embed"

// FS holds the folder's files, at the top of it (web.go among them: it is
// no asset).
//
//go:embed *
var FS embed.FS
