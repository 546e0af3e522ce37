package parser

// The intern table's hash (hashBytes) and the recent values' (fast.go)
// multiply by these: 64-bit products, native under wasm, unlike the
// 128-bit ones of the runtime's hash.
const (
	hashMul1 = 0x9e3779b97f4a7c15
	hashMul2 = 0xbf58476d1ce4e5b9
)
