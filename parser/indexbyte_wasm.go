package parser

// indexByte is bytes.IndexByte(b, c) sixteen bytes at a step, written in
// assembly (indexbyte_wasm.s): bytes.IndexByte tests four bytes a step
// under wasm, and finds the end of every line a body is read in line by
// line (chunked HTTP, time prefixes), a large part of reading them.
//
//go:noescape
func indexByte(b []byte, c byte) int
