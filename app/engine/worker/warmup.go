//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"syscall/js"

	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/internal/synth"
	"watchlens/timeline"
)

// The page's warm-up (app/load/warmup.go), run here on this worker's own
// wasm: the browser optimises each wasm instance's code for itself, so
// the page's warm-up does nothing for this one.
const (
	warmRounds = 6
	warmCopies = 12
	// warmPodsSize is the size of the warm-up's last capture, pods as a
	// real cluster's are (synth.RealisticPod): the kubelet, controllers
	// and appliers each own fields, and every event's managedFields
	// differ from the last. The samples the site ships come from a test
	// cluster whose pods have one field manager, so a first load of a
	// production cluster's pods otherwise runs the parser's paths for
	// those entries unoptimised while Chromium compiles them beside it.
	warmPodsSize = 4 << 20
)

// warm opens the captures at q.urls warmRounds times, then the first one
// joined warmCopies times into one capture, then warmPodsSize of pods
// generated as a real cluster's are, each answered as an open
// question asking for its first frame of q.view would be (answerOpened:
// the frame, its summary and every red zone, encoded as an answer is,
// then thrown away, but for the last capture's, which is the warm-up's
// answer: the page warms its drawing up on its frame). The engine it
// made is thrown away. A question that arrives meanwhile (the load it
// warms up for) ends it at the next capture: the load must not wait for
// the warm-up.
func (h *host) warm(q, reply js.Value) error {
	asked := h.arrived
	var st engine.ViewState
	if err := json.Unmarshal([]byte(q.Get("view").String()), &st); err != nil {
		return fmt.Errorf("the warm-up's view: %w", err)
	}
	urls := q.Get("urls")
	var blobs []js.Value
	for i := range urls.Length() {
		url := urls.Index(i).String()
		blob, err := jsrt.FetchBlob(url)
		if err != nil {
			return fmt.Errorf("fetching %s: %w", url, err)
		}
		blobs = append(blobs, blob)
	}
	// open answers into what the warm-up's reply is for the last capture
	// (its frame the page draws), a throwaway object for the others.
	open := func(blob, into js.Value) error {
		r := jsrt.NewBlobReader(blob)
		r.Pause = nil
		defer r.Close()
		eng, o, err := engine.Open([]engine.Source{{Name: "warm-up", Size: int64(blob.Get("size").Float()), Data: r}},
			engine.Options{Params: timeline.DefaultParams()})
		if err != nil {
			return err
		}
		return h.answerOpened(into, eng, o, &st, math.MaxInt, func(string) {})
	}
	// gaveWay says whether a question has come since the warm-up was
	// asked (the load it warms up for, which must not wait for it), and
	// if so has the reply say that the warm-up did not end.
	gaveWay := func() bool {
		if h.arrived == asked {
			return false
		}
		reply.Set("warmed", false)
		return true
	}
	for range warmRounds {
		for _, blob := range blobs {
			if gaveWay() {
				return nil
			}
			if err := open(blob, js.Global().Get("Object").New()); err != nil {
				return err
			}
		}
	}
	copies := make([]any, warmCopies)
	for i := range copies {
		copies[i] = blobs[0]
	}
	if gaveWay() {
		return nil
	}
	if err := open(js.Global().Get("Blob").New(copies), js.Global().Get("Object").New()); err != nil {
		return err
	}
	if gaveWay() {
		return nil
	}
	if err := open(jsrt.BlobOf(synth.CaptureOf(warmPodsSize, synth.RealisticPod), ""), reply); err != nil {
		return err
	}
	reply.Set("warmed", true)
	jsrt.PrepareReadingWorker()
	return nil
}
