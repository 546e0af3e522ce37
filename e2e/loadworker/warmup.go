//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"watchlens/app/jsrt"
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
		url := urls.Index(i).String()
		blob, err := jsrt.FetchBlob(url)
		if err != nil {
			return fmt.Errorf("fetching %s: %w", url, err)
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
	jsrt.PrepareReadingWorker()
	return nil
}
