//go:build !wasm

// Command watchlens reads recorded Kubernetes watch captures and shows where a
// reconnecting client would have hit 410 Gone. Compiled for GOOS=js it is the
// browser app (main_wasm.go); natively it is the CLI (package cli) that
// serves and builds that app and analyses captures for reports in CI and
// postmortems.
package main

import (
	"os"

	"watchlens/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
