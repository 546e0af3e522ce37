//go:build !wasm

package parser

import "bytes"

// scanLine returns the index of the first '\n' in b, or -1, and the index
// of the last `"object"` before it, or -1. Here that is two passes of
// bytes.IndexByte, which has vector assembly; see linescan_wasm.go.
func scanLine(b []byte) (end, lastObject int) {
	end = bytes.IndexByte(b, '\n')
	line := b
	if end >= 0 {
		line = b[:end]
	}
	lastObject = -1
	for i := 3; i < len(line); i++ {
		k := bytes.IndexByte(line[i:], 'j')
		if k < 0 {
			break
		}
		if i += k; i+5 <= len(line) && string(line[i-3:i+5]) == `"object"` {
			lastObject = i - 3
		}
	}
	return end, lastObject
}
