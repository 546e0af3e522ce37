//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"math"
	"path"
	"syscall/js"

	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/internal/synth"
	"watchlens/timeline"
)

// The page's warm-up (app/load/warmup.go), run here on this worker's own
// wasm: the browser optimises each module's code apart, so the page's
// warm-up of its own module does nothing for this one.
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
	// warmIncidentRounds is how many times the warm-up opens its
	// incident: the code a load runs once a file or once a client runs
	// only a few times in one opening of the small incident, and the
	// browser optimises a function only once it has run enough (the
	// larger the function, the more). Twelve openings have it optimise
	// most of what a lab-sized incident's load runs (the klog and
	// metrics readers, the fleet's analysis and its drawing), where
	// fewer leave more of that compiling to the load, beside it on the
	// machine's other core; each opening takes a few tens of
	// milliseconds of the spare's core, while the page waits for its
	// user.
	warmIncidentRounds = 12
)

// A brief warm-up (the question's brief) opens each capture and the
// incident once: the browser shares a module's optimised code among the
// workers of a page that run it, so a worker started while another that
// warmed up fully still runs finds its code optimised already. What is
// still its own is its memory, which one opening of each grows as a
// load of its size needs, and that is what the brief warm-up is for;
// the repeated openings would only take the machine's cores for a
// second beside the user's gestures.
const briefRounds = 1

// warm opens the captures at q.urls warmRounds times (briefRounds when
// q.brief), then the first one joined warmCopies times into one
// capture, then warmPodsSize of pods generated as a real cluster's are,
// each answered as an open question asking for its first frame of
// q.view would be (answerOpened: the frame, its summary and every red
// zone, encoded as an answer is, then thrown away, but for the pods',
// which is the warm-up's answer: the page warms its drawing up on its
// frame), then the files at q.incident together warmIncidentRounds
// times (briefRounds when q.brief), answered the same way with their
// fleet and its frame. The engines it made are thrown away. A question
// that arrives meanwhile (the load it warms up for) ends it at the next
// capture, or within the incident's opening: the load must not wait for
// the warm-up.
//
// The captures are each one client of one server. An incident, several
// servers' clients with the servers' audit logs, the informers' klog and
// Prometheus exports (package warmup), runs what only such a load runs:
// reading audit logs, klog and exports, joining the clients' requests to
// the servers that answered them, the fleet's analysis and its frame.
// Left to the load, that code runs unoptimised while Chromium compiles
// it on the machine's other core, beside the load. The incident comes
// last: the browser optimises a function once, for the calls it has
// seen by then, and the code every load runs is optimised on the single
// captures first, as a single capture's load runs it.
func (h *host) warm(q, reply js.Value) error {
	asked := h.arrived
	rounds, incidentRounds := warmRounds, warmIncidentRounds
	if q.Get("brief").Truthy() {
		rounds, incidentRounds = briefRounds, briefRounds
	}
	st, err := h.readView(q.Get("view"))
	if err != nil {
		return fmt.Errorf("the warm-up's view: %w", err)
	}
	samples, err := fetchAll(q.Get("urls"))
	if err != nil {
		return err
	}
	// open answers into what the warm-up's reply is for the last capture
	// (its frame the page draws), a throwaway object for the others.
	open := func(blob, into js.Value) error {
		_, err := h.openWarm([]fetched{{name: "warm-up", blob: blob}}, into, &st, nil)
		return err
	}
	// arrived says whether a question has come since the warm-up was
	// asked: the load it warms up for, which must not wait for it.
	arrived := func() bool { return h.arrived != asked }
	// gaveWay says whether a question has arrived, and if so has the
	// reply say that the warm-up did not end.
	gaveWay := func() bool {
		if !arrived() {
			return false
		}
		reply.Set("warmed", false)
		return true
	}
	for range rounds {
		for _, f := range samples {
			if gaveWay() {
				return nil
			}
			if err := open(f.blob, js.Global().Get("Object").New()); err != nil {
				return err
			}
		}
	}
	copies := make([]any, warmCopies)
	for i := range copies {
		copies[i] = samples[0].blob
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
	if gaveWay() {
		return nil
	}
	incident, err := fetchAll(q.Get("incident"))
	if err != nil {
		return err
	}
	for range incidentRounds {
		if len(incident) == 0 {
			break
		}
		if gaveWay() {
			return nil
		}
		// An incident takes longer to open than a capture: a question
		// that arrives meanwhile ends it at once.
		err := h.warmIncident(incident, &st, arrived)
		if errors.Is(err, engine.ErrCancelled) {
			continue // gaveWay says so
		}
		if err != nil {
			return err
		}
	}
	if gaveWay() {
		return nil
	}
	reply.Set("warmed", true)
	jsrt.LoadGC.Settle()
	jsrt.PrepareReadingWorker()
	return nil
}

// fetched is a file the warm-up fetched, and its name: the last part of
// its URL.
type fetched struct {
	name string
	blob js.Value
}

// fetchAll fetches the files at urls, an Array of strings; none when
// urls is undefined.
func fetchAll(urls js.Value) ([]fetched, error) {
	if urls.IsUndefined() {
		return nil, nil
	}
	var files []fetched
	for i := range urls.Length() {
		url := urls.Index(i).String()
		blob, err := jsrt.FetchBlob(url)
		if err != nil {
			return nil, fmt.Errorf("fetching %s: %w", url, err)
		}
		files = append(files, fetched{name: path.Base(url), blob: blob})
	}
	return files, nil
}

// warmIncident opens the files of an incident together, each named as
// its URL names it (audit logs are told apart by their names), answers
// the open as a load's question with the first frame of st would be,
// then the fleet's question and its frame, as the page asks them of a
// load that opens on the fleet, and throws the answers away. It gives
// up with engine.ErrCancelled once cancelled says so.
func (h *host) warmIncident(files []fetched, st *engine.ViewState, cancelled func() bool) error {
	eng, err := h.openWarm(files, js.Global().Get("Object").New(), st, cancelled)
	if err != nil {
		return err
	}
	f := fleetOf(eng, js.Global().Get("Object").New())
	_, err = h.fleetFrame(eng, engine.FleetState{From: f.From, To: f.To, Width: st.Width, PixelRatio: st.PixelRatio}, js.Global().Get("Object").New())
	return err
}

// openWarm opens files together as one load and answers into into as
// the load's open question, asking for the first frame of st, would be
// answered. It gives up with engine.ErrCancelled once cancelled (nil for
// never) says so.
func (h *host) openWarm(files []fetched, into js.Value, st *engine.ViewState, cancelled func() bool) (*engine.Engine, error) {
	sources := make([]engine.Source, len(files))
	for i, f := range files {
		r := jsrt.NewBlobReader(f.blob)
		r.Pause = nil
		defer r.Close()
		sources[i] = engine.Source{Name: f.name, Size: int64(f.blob.Get("size").Float()), Data: r}
	}
	eng, o, err := engine.Open(sources, engine.Options{Params: timeline.DefaultParams(), Cancelled: cancelled})
	if err != nil {
		return nil, err
	}
	return eng, h.answerOpened(into, eng, o, st, math.MaxInt, func(string) {})
}
