//go:build js

// Package cputime gives the CPU time the process has used, which the
// benchmarks report beside the wall time: a loaded machine inflates it
// far less.
package cputime

import "syscall/js"

// Process is the CPU time node's process has used, in seconds, over all
// its threads (the collector's, and node's compilers).
func Process() float64 {
	u := js.Global().Get("process").Call("cpuUsage")
	return (u.Get("user").Float() + u.Get("system").Float()) / 1e6
}
