//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
)

// The page's warm-up (app/load/warmup.go), run here on this worker's own wasm:
// the browser optimises each wasm instance's code for itself, so the
// page's warm-up does nothing for this one.
const (
	warmRounds = 6
	warmCopies = 12
)

// warmUp reads the captures at urls warmRounds times, then the first one
// joined warmCopies times into one capture, through the path a dropped
// file takes, and posts the last frame so the page can warm its drawing
// up too.
func warmUp(urls js.Value, v view) error {
	var blobs []js.Value
	for i := range urls.Length() {
		blob, err := fetchBlob(urls.Index(i).String())
		if err != nil {
			return err
		}
		blobs = append(blobs, blob)
	}
	for range warmRounds {
		for _, blob := range blobs {
			if _, err := load("warm-up", blob, v); err != nil {
				return err
			}
		}
	}
	copies := make([]any, warmCopies)
	for i := range copies {
		copies[i] = blobs[0]
	}
	last, err := load("warm-up", js.Global().Get("Blob").New(copies), v)
	if err != nil {
		return err
	}
	reply := frameMessage(&last.frame)
	reply.Set("warmed", true)
	post(reply)
	spare.prepare()
	return nil
}

// fetchBlob GETs url and returns its body as a Blob.
func fetchBlob(url string) (js.Value, error) {
	resp, err := await(js.Global().Call("fetch", url))
	if err != nil {
		return js.Value{}, err
	}
	if !resp.Get("ok").Truthy() {
		return js.Value{}, fmt.Errorf("fetching %s: HTTP %d", url, resp.Get("status").Int())
	}
	return await(resp.Call("blob"))
}

// await blocks the calling goroutine until promise settles; meanwhile the
// worker's event loop runs.
func await(promise js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	onResolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{v: args[0]}
		return nil
	})
	onReject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{err: fmt.Errorf("%s", args[0].Call("toString").String())}
		return nil
	})
	defer onResolve.Release()
	defer onReject.Release()
	promise.Call("then", onResolve, onReject)
	s := <-ch
	return s.v, s.err
}
