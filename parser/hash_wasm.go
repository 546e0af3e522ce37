package parser

// hashBytes mixes b eight bytes at a time, from seed: for each word w,
// h = rotl((h^w) * word.Mul2, 31), the last bytes as one word; it returns
// the high half of murmur3's finalizer of h, or-ed with 1 so that it is
// never 0, which marks an empty slot of the intern table. It is written
// in assembly (hash_wasm.s): Go's loop goes through the function's
// dispatch table at each word, and every small event's identity is
// hashed.
//
//go:noescape
func hashBytes(seed uint64, b []byte) uint32
