//go:build js && wasm

package main

import (
	"runtime/metrics"
	"syscall/js"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/jsrt"
	"watchlens/parser"
	"watchlens/report"
	"watchlens/timeline"
)

// view is the canvas the first frame is built for, in CSS pixels, as the
// page's timeline view measures its stage.
type view struct {
	width, height, dpr float64
}

// loaded is what a load made: the first frame and how long each step took.
type loaded struct {
	frame canvas.Frame
	// What the frame shows, as the page's timeline summary says it.
	summary canvas.Summary
	events  int
	steps   []step
	// The collections during the load, and the CPU time Go counts for
	// them.
	gcCycles int
	gcMs     float64
}

// step is how long one step of a load took.
type step struct {
	name string
	ms   float64
}

// load reads blob named name and builds its timeline, analysis, report
// and first frame, with no pause: nothing else runs on this thread.
func load(name string, blob js.Value, v view) (*loaded, error) {
	out := &loaded{}
	t := time.Now()
	step := func(what string) {
		now := time.Now()
		out.steps = append(out.steps, step{what, float64(now.Sub(t).Microseconds()) / 1000})
		t = now
	}
	// How much of the load is Go's collector, left to pace itself here.
	gc := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(gc)
	cycles, gcSeconds := gc[0].Value.Uint64(), gc[1].Value.Float64()
	b := timeline.NewBuilder()
	r := jsrt.NewBlobReader(blob)
	// This thread is the load's own: there is no page to yield to.
	r.Pause = nil
	err := b.AddReader(name, r, parser.Options{})
	r.Close()
	if err != nil {
		return nil, err
	}
	step("read")
	tl := b.Build()
	step("build")
	an := tl.Analyze(timeline.DefaultParams())
	step("analyze")
	// The page's panels show the report; here it is only made, as the
	// page makes it during a load.
	report.New(an, nil)
	step("report")
	prep := canvas.Prepare(tl, timeline.Filter{}, func() {})
	from, to := prep.Cache.Extent(false)
	first := &canvas.View{Analysis: an, From: from, To: to, Width: v.width, MaxHeight: v.height, PixelRatio: v.dpr,
		Groups: prep.Groups, Rows: prep.Rows, Selected: -1}
	prep.Cache.Build(first, &out.frame)
	step("frame")
	out.summary, out.events = prep.Cache.Summarize(first, prep.Shown), tl.Len()
	metrics.Read(gc)
	out.gcCycles, out.gcMs = int(gc[0].Value.Uint64()-cycles), (gc[1].Value.Float64()-gcSeconds)*1000
	return out, nil
}

// loadFile loads a dropped file and posts its first frame.
func loadFile(file js.Value, v view) error {
	l, err := load(file.Get("name").String(), file, v)
	if err != nil {
		return err
	}
	reply := frameMessage(&l.frame)
	reply.Set("events", l.events)
	reply.Set("lanes", l.summary.Lanes)
	reply.Set("bookmarks", l.summary.Bookmarks)
	reply.Set("zonesAware", l.summary.Zones[timeline.BookmarkAware].Count)
	reply.Set("zonesIgnoring", l.summary.Zones[timeline.BookmarkIgnoring].Count)
	steps := js.Global().Get("Object").New()
	for _, s := range l.steps {
		steps.Set(s.name, s.ms)
	}
	reply.Set("steps", steps)
	reply.Set("gcCycles", l.gcCycles)
	reply.Set("gcMs", l.gcMs)
	post(reply)
	// The next load's reading worker, started while the page draws.
	jsrt.PrepareReadingWorker()
	return nil
}

// frameMessage is a frame as web/timeline.js's watchlensDraw takes it:
// {spec, bytes, n}.
func frameMessage(fr *canvas.Frame) js.Value {
	spec, err := fr.Spec()
	if err != nil {
		panic(err) // a Frame is plain data: it always marshals
	}
	b, n := fr.Floats(nil)
	bytes := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(bytes, b)
	reply := js.Global().Get("Object").New()
	reply.Set("spec", string(spec))
	reply.Set("bytes", bytes)
	reply.Set("n", n)
	return reply
}

// post sends a reply holding a frame to the page, moving the frame's
// buffer rather than copying it.
func post(reply js.Value) {
	js.Global().Call("postMessage", reply, []any{reply.Get("bytes").Get("buffer")})
}
