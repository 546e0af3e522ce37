// Package web holds the page's static assets (styles, scripts, icons),
// embedded so that the native binary can serve and build the site wherever
// it runs, not only in a clone. app.wasm lands in this folder too, but is
// built, not committed: go:embed fails on a file a clean clone lacks, so
// the patterns name the assets' types and leave it out.
package web

import "embed"

// FS holds the assets, at the top of it.
//
//go:embed *.css *.js *.png *.svg
var FS embed.FS
