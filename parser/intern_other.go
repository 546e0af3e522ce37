//go:build !wasm

package parser

// internBlockBits sets the intern table's largest block of records,
// 16 KiB: natively, smaller blocks cost nothing more to allocate, and a
// block is freed only once none of its strings is held (see
// intern_wasm.go).
const internBlockBits = 14
