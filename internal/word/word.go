// Package word reads 8-byte little-endian words from byte slices, without
// bounds checks under wasm, where they cost most of a word loop's time,
// and mixes them into the hashes of byte strings (Mix).
package word
