//go:build js && wasm

package client

import (
	"encoding/json"
	"fmt"
	"syscall/js"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/timeline"
)

// The panels' questions (engine.Answerer's second half): each posts its
// arguments as a JSON array, in the engine method's order, and reads
// the answer's JSON (app/engine/worker's panels.go).

// askPanel asks the question kind with args and reads its answer into v.
func (w *Worker) askPanel(kind string, v any, args ...any) (js.Value, error) {
	q := question(kind)
	setJSON(q, "args", args)
	m, err := w.ask(q, nil, nil)
	if err != nil {
		return m, err
	}
	return m, answerOf(m, "answer", v)
}

// Files answers the files matching find, at most max of them; none
// when the worker could not answer.
func (w *Worker) Files(find string, max int) engine.FilesReport {
	var r engine.FilesReport
	if _, err := w.askPanel("files", &r, find, max); err != nil {
		return engine.FilesReport{}
	}
	return r
}

// Event answers event i in full; Index -1 when the worker could not
// answer.
func (w *Worker) Event(i int) engine.EventDetail {
	var d engine.EventDetail
	if _, err := w.askPanel("event", &d, i); err != nil {
		return engine.EventDetail{Index: -1, Prev: -1}
	}
	return d
}

// Find answers at most limit matches of query, instants in zone; none
// when a later Find superseded it or the worker could not answer.
func (w *Worker) Find(query string, limit int, zone string) []timeline.Match {
	var ms []timeline.Match
	if _, err := w.askPanel("find", &ms, query, limit, zone); err != nil {
		return nil
	}
	return ms
}

// Findings answers the latest analysis's findings that pass filter.
func (w *Worker) Findings(filter timeline.Filter) engine.Findings {
	var f engine.Findings
	if _, err := w.askPanel("findings", &f, filter); err != nil {
		return engine.Findings{}
	}
	return f
}

// RangeStats answers what [from, to) holds on the axis.
func (w *Worker) RangeStats(axisRV bool, from, to int64) timeline.RangeStats {
	var s timeline.RangeStats
	if _, err := w.askPanel("rangestats", &s, axisRV, from, to); err != nil {
		return timeline.RangeStats{}
	}
	return s
}

// ReconnectAt answers what a reconnect at instant at would get; pause
// is not needed: the worker's thread is its own.
func (w *Worker) ReconnectAt(at int64, _ func()) engine.ReconnectAt {
	var r engine.ReconnectAt
	if _, err := w.askPanel("reconnectat", &r, at); err != nil {
		return engine.ReconnectAt{At: at}
	}
	return r
}

// Fleet answers the latest analysis's fleet, and whether there is one.
func (w *Worker) Fleet() (engine.Fleet, bool) {
	var f engine.Fleet
	m, err := w.askPanel("fleet", &f)
	if err != nil {
		return engine.Fleet{}, false
	}
	var rows FleetRows
	rows.Names, err = bytesOf(m, "rowNames")
	if err == nil {
		rows.Servers, err = bytesOf(m, "rowServers")
	}
	if err == nil {
		rows.Ints, err = bytesOf(m, "rowInts")
	}
	if err != nil {
		return engine.Fleet{}, false
	}
	if f.Rows, err = rows.Read(); err != nil {
		return engine.Fleet{}, false
	}
	return f, m.Get("ok").Truthy()
}

// AskFleetFrame has the worker build the fleet's frame of st and reads
// it into fr, as AskFrame does a timeline's. A later fleet frame
// supersedes it (ErrCancelled), leaving fr as it was.
func (w *Worker) AskFleetFrame(st engine.FleetState, fr *canvas.Frame) (canvas.FleetLayout, error) {
	var l canvas.FleetLayout
	m, err := w.askPanel("fleetframe", &l, st)
	if err != nil {
		return canvas.FleetLayout{}, err
	}
	if err := w.readFrame(m, fr); err != nil {
		return canvas.FleetLayout{}, err
	}
	if !st.Print {
		w.fleetLayout = l
	}
	return l, nil
}

// AskEncodedFleetFrame is AskFleetFrame for a page that draws the frame,
// as AskEncodedFrame is AskFrame: it answers the frame as the worker
// encoded it, its spec and bytes the JS values that came, which the page
// hands to web/timeline.js as they are.
func (w *Worker) AskEncodedFleetFrame(st engine.FleetState) (canvas.FleetLayout, canvas.EncodedJS, error) {
	var l canvas.FleetLayout
	m, err := w.askPanel("fleetframe", &l, st)
	if err != nil {
		return canvas.FleetLayout{}, canvas.EncodedJS{}, err
	}
	if !st.Print {
		w.fleetLayout = l
	}
	return l, encodedOf(m), nil
}

// FleetFrame is AskFleetFrame as engine.Answerer has it, for a frame
// the page reads into Go (the fleet's PNG; its view draws the encoded
// frame, AskEncodedFleetFrame): a frame superseded or unanswered leaves fr
// and answers the last frame's layout.
func (w *Worker) FleetFrame(st engine.FleetState, fr *canvas.Frame) canvas.FleetLayout {
	l, err := w.AskFleetFrame(st, fr)
	if err != nil {
		return w.fleetLayout
	}
	return l
}

// FleetHit answers for the pointer at (x, y) over the last fleet frame
// of st; nothing (Row and File -1) when superseded or unanswered.
func (w *Worker) FleetHit(st engine.FleetState, x, y float64) engine.FleetHit {
	var h engine.FleetHit
	if _, err := w.askPanel("fleethit", &h, st, x, y); err != nil {
		return engine.FleetHit{Row: -1, File: -1}
	}
	return h
}

// FleetRange counts what [from, to) of the shared clock holds.
func (w *Worker) FleetRange(from, to int64) canvas.FleetRange {
	r := canvas.FleetRange{From: from, To: to}
	if _, err := w.askPanel("fleetrange", &r, from, to); err != nil {
		return canvas.FleetRange{From: from, To: to}
	}
	return r
}

// Report writes the latest analysis's report in format (engine.Report).
func (w *Worker) Report(format engine.ReportFormat, link string) (string, error) {
	var text string
	if _, err := w.askPanel("report", &text, format, link); err != nil {
		return "", err
	}
	return text, nil
}

// readFrame reads the frame of answer m ({spec, bytes}) into fr.
func (w *Worker) readFrame(m js.Value, fr *canvas.Frame) error {
	// encoding/json decodes into the elements a slice holds past its
	// length as they are: a field the spec omits would keep an earlier
	// frame's value.
	clear(fr.Ops[:cap(fr.Ops)])
	clear(fr.Texts[:cap(fr.Texts)])
	if err := json.Unmarshal([]byte(m.Get("spec").String()), fr); err != nil {
		return fmt.Errorf("the frame's spec: %w", err)
	}
	bytes := m.Get("bytes")
	if n := bytes.Length(); cap(w.floats) < n {
		w.floats = make([]byte, n)
	}
	w.floats = w.floats[:bytes.Length()]
	js.CopyBytesToGo(w.floats, bytes)
	fr.SetFloats(w.floats)
	return nil
}
