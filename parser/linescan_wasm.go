package parser

// scanLine returns the index of the first '\n' in b, or -1, and the keys
// that tell whether an `"object"` follows a position on that line. The
// fast path needs both for each compact event, and skips most of the rest
// of its bytes: as two passes of bytes.IndexByte, which tests four bytes
// at a step under wasm, they are a large part of reading NDJSON
// (docs/performance.md, "The parser as wasm").
// newlineOrJ finds the next '\n' or 'j' (rare in Kubernetes JSON) sixteen
// bytes at a step, and one pass finds both.
func scanLine(b []byte) (int, objectKeys) {
	keys := objectKeys{last: -1}
	for i := 0; ; i++ {
		k := newlineOrJ(b[i:])
		if k < 0 {
			return -1, keys
		}
		i += k
		if b[i] == '\n' {
			return i, keys
		}
		if objectKeyAt(b, i) {
			keys.last = i - 3
		}
	}
}

// objectKeys is where the last `"object"` on the line starts, or -1.
type objectKeys struct{ last int }

// after reports whether an `"object"` starts at or after i on the line.
func (k objectKeys) after(i int) bool { return k.last >= i }

// newlineOrJ returns the index of the first '\n' or 'j' in b, or -1. It is
// written in assembly (linescan_wasm.s): the same loop in Go is no faster
// than the two passes.
//
//go:noescape
func newlineOrJ(b []byte) int
