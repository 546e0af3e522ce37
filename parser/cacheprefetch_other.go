//go:build !amd64

package parser

// prefetchBytes does nothing here: Go has no prefetch of its own, and
// this architecture has no assembly version (see cacheprefetch_amd64.go).
func prefetchBytes(b []byte) {}
