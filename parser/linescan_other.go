//go:build !wasm

package parser

import "bytes"

// scanLine returns the index of the first '\n' in b, or -1, and the keys
// that tell whether an `"object"` follows a position on that line. Here
// bytes.IndexByte, which has vector code, finds the line's end, and the
// keys are looked for only when asked, after the metadata of an event in
// the API server's key order; see linescan_wasm.go for the other way.
func scanLine(b []byte) (int, objectKeys) {
	end := bytes.IndexByte(b, '\n')
	if end < 0 {
		return end, objectKeys{b}
	}
	return end, objectKeys{b[:end]}
}

// objectKeys is the line scanLine found.
type objectKeys struct{ line []byte }

// after reports whether an `"object"` starts at or after i on the line.
func (k objectKeys) after(i int) bool { return hasObjectKey(k.line[i:]) }
