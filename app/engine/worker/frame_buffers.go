//go:build js && wasm

package main

import "syscall/js"

// frameBuffers are the ArrayBuffers of frames the page has drawn over
// and given back (client.Worker.GiveBack), each written again with a
// later frame. A new buffer for each frame is memory the browser maps
// afresh, and this machine faults it in a page at a time: copying a pan
// frame's floats into a new buffer took a quarter of the worker's time
// for that frame.
type frameBuffers struct {
	free []js.Value
}

// maxFrameBuffers is how many buffers wait to be written again: a pan's
// frames come one at a time, the timeline's and the fleet's apart.
const maxFrameBuffers = 4

// put keeps buf, an ArrayBuffer the page gave back, for a later frame;
// with maxFrameBuffers kept already, the smallest of them and buf goes.
func (p *frameBuffers) put(buf js.Value) {
	if len(p.free) < maxFrameBuffers {
		p.free = append(p.free, buf)
		return
	}
	small := 0
	for i, b := range p.free {
		if b.Get("byteLength").Int() < p.free[small].Get("byteLength").Int() {
			small = i
		}
	}
	if buf.Get("byteLength").Int() > p.free[small].Get("byteLength").Int() {
		p.free[small] = buf
	}
}

// bytesOf answers a Uint8Array of b: in the smallest buffer kept that
// holds it, else in a new one with a quarter more room, which the next
// frames, a little larger or smaller, then fit when the page gives it
// back.
func (p *frameBuffers) bytesOf(b []byte) js.Value {
	fit := -1
	for i, buf := range p.free {
		if n := buf.Get("byteLength").Int(); n >= len(b) && (fit < 0 || n < p.free[fit].Get("byteLength").Int()) {
			fit = i
		}
	}
	var buf js.Value
	if fit >= 0 {
		buf = p.free[fit]
		p.free = append(p.free[:fit], p.free[fit+1:]...)
	} else {
		buf = js.Global().Get("ArrayBuffer").New(len(b) + len(b)/4)
	}
	u := js.Global().Get("Uint8Array").New(buf, 0, len(b))
	js.CopyBytesToJS(u, b)
	return u
}
