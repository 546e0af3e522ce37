//go:build js && wasm

// Command page is the browser test's page (e2e/browser_engine_worker_test.go)
// around app/engine/client: it asks the engine in its worker as the page
// would, from goroutines, and hands the answers to the test as JSON
// through the promises of window.engineClient's functions.
package main

import (
	"encoding/json"
	"errors"
	"syscall/js"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/engine/client"
	"watchlens/app/jsrt"
	"watchlens/e2e/clientcheck"
	"watchlens/timeline"
)

// script is the engine worker's script on the test's site.
const script = "/web/engine-worker.js"

func main() {
	api := js.Global().Get("Object").New()
	api.Set("answers", promised(answers))
	api.Set("supersede", promised(supersede))
	api.Set("firstFrame", promised(firstFrame))
	api.Set("open", promised(open))
	api.Set("end", promised(end))
	api.Set("warmed", promised(warmed))
	api.Set("warm", promised(warm))
	// The spare is prepared once the page has painted, as the app
	// prepares its reading worker.
	jsrt.AfterNextPaint()
	spare.Prepare()
	js.Global().Set("engineClient", api)
	select {}
}

var spare = &client.Spare{Script: script,
	WarmURLs: []string{"/web/samples/kubectl-pods-watch.jsonl", "/web/samples/w1-broad-configmaps-bookmarks.ts.http"},
	WarmView: engine.ViewState{Width: 1000, MaxHeight: 600, PixelRatio: 1, Selected: -1}}

// promised is f as a JS function that returns a promise of f's answer,
// which f works out in a goroutine of its own: a js.Func must not block.
func promised(f func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		var settle [2]js.Value
		p := js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, r []js.Value) any {
			settle[0], settle[1] = r[0], r[1]
			return nil
		}))
		go func() {
			v, err := f(args)
			if err != nil {
				settle[1].Invoke(err.Error())
				return
			}
			settle[0].Invoke(v)
		}()
		return p
	})
}

// sourcesOf are the Files of a JS array as a load's sources.
func sourcesOf(files js.Value) []client.Source {
	var out []client.Source
	for i := range files.Length() {
		f := files.Index(i)
		out = append(out, client.Source{Name: f.Get("name").String(), Blob: f})
	}
	return out
}

func jsonOf(v any) (any, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// answers(files, width, height): the files opened in a worker of their
// own, asked clientcheck.AskEvery's questions.
func answers(args []js.Value) (any, error) {
	w := client.Start(script)
	defer w.Terminate()
	if _, err := w.Open(sourcesOf(args[0]), engine.Options{Params: timeline.DefaultParams()}); err != nil {
		return nil, err
	}
	a, err := clientcheck.AskEvery(w, args[1].Float(), args[2].Float())
	if err != nil {
		return nil, err
	}
	return jsonOf(a)
}

// supersede(files, width, height): the files opened, then two frame
// questions asked at once from two goroutines, as a pan's frames come:
// what each answered.
func supersede(args []js.Value) (any, error) {
	w := client.Start(script)
	defer w.Terminate()
	o, err := w.Open(sourcesOf(args[0]), engine.Options{Params: timeline.DefaultParams()})
	if err != nil {
		return nil, err
	}
	st := engine.ViewState{Width: args[1].Float(), MaxHeight: args[2].Float(), PixelRatio: 1, Selected: -1}
	st.From, st.To = o.Extent(false)
	later := st
	later.From += (st.To - st.From) / 8
	type answer struct {
		Err   string
		Drawn engine.Drawn
		Ops   int
	}
	ask := func(st engine.ViewState, into *answer, done chan<- struct{}) {
		var fr canvas.Frame
		d, err := w.AskFrame(st, &fr)
		if err != nil {
			into.Err = err.Error()
			if errors.Is(err, engine.ErrCancelled) {
				into.Err = "cancelled"
			}
		}
		into.Drawn, into.Ops = d, len(fr.Ops)
		done <- struct{}{}
	}
	var first, second answer
	done := make(chan struct{}, 2)
	go ask(st, &first, done)
	go ask(later, &second, done)
	<-done
	<-done
	return jsonOf(map[string]answer{"First": first, "Second": second})
}

// firstFrame(files, width, height, spare): the time from the drop to
// the first frame read, in ms, in the spare worker once it has warmed
// up (spare true: one is prepared if the last was taken) or in a worker
// started at the drop, and the page's
// count of engine workers started before the drop and by the first
// frame (window.engineWorkers, counted by the test's page).
func firstFrame(args []js.Value) (any, error) {
	useSpare := args[3].Bool()
	if useSpare {
		spare.Prepare()
		<-spare.Warmed()
	}
	count := func() int { return js.Global().Get("engineWorkers").Int() }
	before := count()
	t := time.Now()
	var w *client.Worker
	var o engine.Opened
	var err error
	if useSpare {
		w, o, err = spare.Open(sourcesOf(args[0]), engine.Options{Params: timeline.DefaultParams()})
	} else {
		w = client.Start(script)
		o, err = w.Open(sourcesOf(args[0]), engine.Options{Params: timeline.DefaultParams()})
	}
	if err != nil {
		return nil, err
	}
	defer w.Terminate()
	openMs := float64(time.Since(t).Microseconds()) / 1000
	st := engine.ViewState{Width: args[1].Float(), MaxHeight: args[2].Float(), PixelRatio: 1, Selected: -1}
	st.From, st.To = o.Extent(false)
	var fr canvas.Frame
	if _, err := w.AskFrame(st, &fr); err != nil {
		return nil, err
	}
	ms := float64(time.Since(t).Microseconds()) / 1000
	return jsonOf(map[string]any{"Ms": ms, "OpenMs": openMs, "Before": before, "AtFrame": count(), "Events": o.Events, "Ops": len(fr.Ops)})
}

// warmed(): once the spare has warmed up.
func warmed([]js.Value) (any, error) {
	<-spare.Warmed()
	return true, nil
}

// warm(urls, incident): whether a worker of its own warmed up on the
// captures at urls and the incident's files at incident to the end
// (client.Worker.Warm), or why it failed.
func warm(args []js.Value) (any, error) {
	w := client.Start(script)
	defer w.Terminate()
	return w.Warm(stringsOf(args[0]), stringsOf(args[1]), spare.WarmView, false)
}

// stringsOf is a JS Array of strings as a slice.
func stringsOf(a js.Value) []string {
	out := make([]string, a.Length())
	for i := range out {
		out[i] = a.Index(i).String()
	}
	return out
}

// held is the worker open holds until end.
var held *client.Worker

// open(files): the files opened in a worker that stays until end; the
// events read.
func open(args []js.Value) (any, error) {
	held = client.Start(script)
	o, err := held.Open(sourcesOf(args[0]), engine.Options{Params: timeline.DefaultParams()})
	if err != nil {
		return nil, err
	}
	return o.Events, nil
}

// end(): open's worker ended; whether a question to it then answers that
// it has.
func end([]js.Value) (any, error) {
	held.Terminate()
	_, err := held.Analyze(timeline.DefaultParams(), nil)
	return errors.Is(err, client.ErrEnded), nil
}
