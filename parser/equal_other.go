//go:build !wasm

package parser

import "bytes"

// wholePostFirst is true: bytes.Equal's assembly compares an entry's
// bytes after its time, fieldsV1 and all, faster than skipMemo's
// comparison of the fieldsV1 and the calls around it (see equal_wasm.go).
const wholePostFirst = true

// equalBytes is bytes.Equal, which has assembly here (see equal_wasm.go).
func equalBytes(a, b []byte) bool { return bytes.Equal(a, b) }

// equalStrings is a == b.
func equalStrings(a, b string) bool { return a == b }

// equalShort is string(k) == name (see equal_wasm.go).
func equalShort(k []byte, name string) bool { return string(k) == name }
