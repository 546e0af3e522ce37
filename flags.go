//go:build !wasm

package main

import (
	"errors"
	"flag"
)

// flagErrorCode is the exit status for a flag parsing error: -h asked for
// the usage, which is no failure; anything else is a usage error.
func flagErrorCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
