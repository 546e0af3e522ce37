//go:build !wasm

package parser

// maxZstdWindow is the largest window a zstd capture may need: 2 GiB, what
// `zstd --long=31` declares, the most the zstd tool writes (klauspost's
// default, 512 MiB, turned --long=30 and --long=31 captures away). The
// decoder allocates a frame's whole window, plus 256 KiB, when the frame
// starts, but memory is only touched as bytes are decoded into it: a
// capture smaller than its window costs about its decompressed size, a
// larger one the window.
const maxZstdWindow uint64 = 1 << 31

const zstdWindowAdvice = "is not read here"
