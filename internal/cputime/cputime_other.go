//go:build !js

// Package cputime gives the CPU time the process has used, which the
// benchmarks report beside the wall time: a loaded machine inflates it
// far less.
package cputime

import "syscall"

// Process is the CPU time the process has used, in seconds, over all
// its threads.
func Process() float64 {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		panic(err)
	}
	return float64(r.Utime.Nano()+r.Stime.Nano()) / 1e9
}
