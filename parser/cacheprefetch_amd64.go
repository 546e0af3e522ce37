package parser

// prefetchBytes asks the CPU to bring b's cache lines (64 bytes each) in,
// without waiting for them (cacheprefetch_amd64.s).
//
//go:noescape
func prefetchBytes(b []byte)
