//go:build !wasm

package parser

import "bytes"

// indexByte is bytes.IndexByte, which has vector code here (see
// indexbyte_wasm.go).
func indexByte(b []byte, c byte) int { return bytes.IndexByte(b, c) }
