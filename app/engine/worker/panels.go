//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/engine/client"
	"watchlens/timeline"
)

// panel answers one of the panels' questions (engine.Answerer's second
// half) about the open capture: its arguments are q.args, a JSON array
// in the engine method's order, and its answer reply.answer, JSON; a
// fleet frame is set on reply as a timeline frame is (setFrame).
func (h *host) panel(kind string, q, reply js.Value) error {
	if h.eng == nil {
		return errors.New("no capture is open")
	}
	var raw []json.RawMessage
	if a := q.Get("args"); a.Truthy() {
		if err := json.Unmarshal([]byte(a.String()), &raw); err != nil {
			return fmt.Errorf("the %s question's arguments: %w", kind, err)
		}
	}
	args := func(into ...any) error {
		if len(raw) != len(into) {
			return fmt.Errorf("the %s question takes %d arguments, not %d", kind, len(into), len(raw))
		}
		for i, v := range into {
			if err := json.Unmarshal(raw[i], v); err != nil {
				return fmt.Errorf("the %s question's argument %d: %w", kind, i, err)
			}
		}
		return nil
	}
	e := h.eng
	var answer any
	switch kind {
	case "files":
		var find string
		var max int
		if err := args(&find, &max); err != nil {
			return err
		}
		answer = e.Files(find, max)
	case "event":
		var i int
		if err := args(&i); err != nil {
			return err
		}
		answer = e.Event(i)
	case "find":
		var query, zone string
		var limit int
		if err := args(&query, &limit, &zone); err != nil {
			return err
		}
		answer = e.Find(query, limit, zone)
	case "findings":
		var f timeline.Filter
		if err := args(&f); err != nil {
			return err
		}
		answer = e.Findings(f)
	case "rangestats":
		var axisRV bool
		var from, to int64
		if err := args(&axisRV, &from, &to); err != nil {
			return err
		}
		answer = e.RangeStats(axisRV, from, to)
	case "reconnectat":
		var at int64
		if err := args(&at); err != nil {
			return err
		}
		// This thread is the engine's own: nothing to pause for.
		answer = e.ReconnectAt(at, nil)
	case "fleet":
		answer = fleetOf(e, reply)
	case "fleetframe":
		var st engine.FleetState
		if err := args(&st); err != nil {
			return err
		}
		layout, err := h.fleetFrame(e, st, reply)
		if err != nil {
			return err
		}
		answer = layout
	case "fleethit":
		var st engine.FleetState
		var x, y float64
		if err := args(&st, &x, &y); err != nil {
			return err
		}
		answer = e.FleetHit(st, x, y)
	case "fleetrange":
		var from, to int64
		if err := args(&from, &to); err != nil {
			return err
		}
		answer = e.FleetRange(from, to)
	case "report":
		var format engine.ReportFormat
		var link string
		if err := args(&format, &link); err != nil {
			return err
		}
		text, err := e.Report(format, link)
		if err != nil {
			return err
		}
		answer = text
	default:
		return fmt.Errorf("no such question: %q", kind)
	}
	return setJSON(reply, "answer", answer)
}

// fleetOf is the fleet question's answer about e: its rows set on reply
// apart, as bytes and figures that the page reads at once
// (client.FleetRows), and the rest to answer as JSON.
func fleetOf(e *engine.Engine, reply js.Value) engine.Fleet {
	f, ok := e.Fleet()
	reply.Set("ok", ok)
	rows := client.WireFleetRows(f.Rows)
	setBytes(reply, "rowNames", rows.Names)
	setBytes(reply, "rowServers", rows.Servers)
	setBytes(reply, "rowInts", rows.Ints)
	f.Rows = nil
	return f
}

// fleetFrame draws e's fleet frame of st, sets it on reply and answers
// its layout.
func (h *host) fleetFrame(e *engine.Engine, st engine.FleetState, reply js.Value) (canvas.FleetLayout, error) {
	layout := e.FleetFrame(st, &h.fleetFr)
	return layout, h.setFrame(reply, &h.fleetFr)
}
