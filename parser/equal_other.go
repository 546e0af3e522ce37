//go:build !wasm

package parser

import "bytes"

// inlineEqualMax is 0: bytes.Equal's assembly is faster than the
// metadata template's own loop for any length (see equal_wasm.go).
const inlineEqualMax = 0

// equalBytes is bytes.Equal, which has assembly here (see equal_wasm.go).
func equalBytes(a, b []byte) bool { return bytes.Equal(a, b) }

// equalStrings is a == b.
func equalStrings(a, b string) bool { return a == b }
