//go:build js && wasm

// Command loadworker is the trial of issue #19's worker design: the page's
// load (parser, timeline, analysis, report, app/canvas's first frame)
// compiled into a wasm of its own that runs in a dedicated worker
// (e2e/testdata/loadworker.js starts it). The worker has a thread of its
// own, so the load runs without the page's pauses and hand-paced
// collector; it reads files and fetches as the page does, through
// app/jsrt, which needs no go-app. The page only draws the frame it is
// sent.
//
// Messages from the page: {file, width, height, dpr} loads the file and
// answers with its first frame and what it shows (see loadFile); {warm:
// [urls], width, height, dpr} runs the warm-up on those captures and
// answers {warmed, spec, bytes, n}, a frame the page draws to warm its
// own drawing up.
package main

import (
	"fmt"
	"syscall/js"

	"watchlens/app/jsrt"
)

func main() {
	// A callback must not block: the messages queue for one goroutine,
	// which handles them in turn.
	messages := make(chan js.Value, 16)
	js.Global().Set("watchlensWorkerMessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		messages <- args[0]
		return nil
	}))
	// The first capture's reading worker starts with this one, from the
	// script the worker's own script names.
	jsrt.BlobWorkerURL = js.Global().Get("watchlensBlobWorkerURL").String()
	jsrt.PrepareReadingWorker()
	for msg := range messages {
		handle(msg)
	}
}

// handle answers one message; a failure, panics included, is posted to
// the page as {error}.
func handle(msg js.Value) {
	defer func() {
		if r := recover(); r != nil {
			postError(fmt.Errorf("inside the load worker: %v", r))
		}
	}()
	v := view{width: msg.Get("width").Float(), height: msg.Get("height").Float(), dpr: msg.Get("dpr").Float()}
	var err error
	if urls := msg.Get("warm"); urls.Truthy() {
		err = warmUp(urls, v)
	} else {
		err = loadFile(msg.Get("file"), v)
	}
	if err != nil {
		postError(err)
	}
}

func postError(err error) {
	reply := js.Global().Get("Object").New()
	reply.Set("error", err.Error())
	js.Global().Call("postMessage", reply)
}
