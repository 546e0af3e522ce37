package main

import (
	"fmt"
	"io"
)

// runCLI exists so main compiles for the browser, where RunWhenOnBrowser
// never returns; the commands themselves are native only (cli.go).
func runCLI(_ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "watchlens: the command line is native only")
	return 2
}
