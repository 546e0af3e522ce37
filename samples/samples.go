// Package samples holds the real captures that the app offers and the tests
// read, embedded so that the native binary can serve and build the site on
// its own.
package samples

import "embed"

// FS holds every sample and MANIFEST.tsv, the expected counts beside them.
//
//go:embed MANIFEST.tsv *.http *.curl *.jsonl *.gz
var FS embed.FS
