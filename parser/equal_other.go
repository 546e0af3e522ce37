//go:build !wasm

package parser

import "bytes"

// equalBytes is bytes.Equal, which has assembly here (see equal_wasm.go).
func equalBytes(a, b []byte) bool { return bytes.Equal(a, b) }

// equalStrings is a == b.
func equalStrings(a, b string) bool { return a == b }
