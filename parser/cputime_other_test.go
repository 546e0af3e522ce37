//go:build !js

package parser

import "syscall"

// processCPU is the CPU time the process has used, in seconds: a
// benchmark's time that other processes on the machine do not inflate.
func processCPU() float64 {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		panic(err)
	}
	return float64(r.Utime.Nano()+r.Stime.Nano()) / 1e9
}
