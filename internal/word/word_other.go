//go:build !wasm

package word

import "encoding/binary"

// Load64 is binary.LittleEndian.Uint64(b[i:]): one load on the processors
// Go targets natively, bounds checked, and byte order kept on big-endian
// ones; see word_wasm.go.
func Load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }
