//go:build !wasm

package parser

import "encoding/binary"

// load64 is binary.LittleEndian.Uint64(b[i:]), one load on the processors
// Go targets natively; see load_wasm.go.
func load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }
