//go:build js

package parser

import "syscall/js"

// processCPU is the CPU time node's process has used, in seconds: a
// benchmark's time that other processes on the machine do not inflate.
func processCPU() float64 {
	u := js.Global().Get("process").Call("cpuUsage")
	return (u.Get("user").Float() + u.Get("system").Float()) / 1e6
}
