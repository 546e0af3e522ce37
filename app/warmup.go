package app

import (
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// warmSamples are read once in the background after the page has shown
// its first capture: real pod events as NDJSON, and a time-prefixed
// chunked HTTP capture, the two paths most dropped files take.
var warmSamples = []string{"kubectl-pods-watch.jsonl", "w1-broad-configmaps-bookmarks.ts.http"}

// warmUp reads the warm samples through the same path a dropped file
// takes (the reading worker, the parser, the timeline, the analysis) and
// throws the result away. The browser runs new wasm code unoptimised at
// first and optimises what runs hot: in Chromium a first 100 MB load
// took 0.6 s where the same load again took 0.35 s, and reading 1 MB
// before it was enough to close most of that gap. It runs in a goroutine
// and yields like a load, so the page stays responsive.
func (p *Page) warmUp(ctx goapp.Context) {
	var sources []source
	for _, name := range warmSamples {
		blob, err := fetchSample(ctx, name)
		if err != nil {
			return // the samples are missing: loads stay as they were
		}
		sources = append(sources, source{name: name, blob: blob})
	}
	c := readCapture(sources, Filter{}, func(progress) {})
	analyze(c.tl, timeline.DefaultParams())
	ctx.Dispatch(func(goapp.Context) { p.warm = true })
}
