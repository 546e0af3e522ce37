package timeline

import "sort"

// StampedeReason is one model's part in a stampede: how many clients
// it refuses, or puts at risk, at the stampede's start, with bookmarks or
// without, whatever the other models say (a client counts under each
// model that decides against it, so the counts do not add up to the
// stampede's), and the exact reason it gives for the first of them (each
// client's names its own cursor and age).
type StampedeReason struct {
	Model   Model
	Outcome Outcome // Refused or AtRisk
	Clients int
	Example string
}

// stampedeReasons fills each stampede's Reasons from the zones of the
// clients' cursors (both sides, as the counts take them) that hold its
// start.
func (a *Analysis) stampedeReasons(fl *Fleet) {
	if len(fl.Stampedes) == 0 {
		return
	}
	sides := map[fileCursor]bool{}
	for k := range fl.Clients {
		with, without := a.sides(&fl.Clients[k])
		sides[fileCursor{fl.Clients[k].File, with}] = true
		sides[fileCursor{fl.Clients[k].File, without}] = true
	}
	type key struct {
		model   Model
		outcome Outcome
	}
	for k := range fl.Stampedes {
		st := &fl.Stampedes[k]
		files := map[key]map[int]bool{}
		example := map[key]string{}
		for _, zs := range []struct {
			zones   []Zone
			outcome Outcome
		}{{a.Zones, Refused}, {a.RiskZones, AtRisk}} {
			for _, z := range zs.zones {
				if z.From > st.From || z.To <= st.From || !sides[fileCursor{z.File, z.Kind}] || a.TL.Files[z.File].EndsBefore(st.From) {
					continue
				}
				m := key{z.Model, zs.outcome}
				if files[m] == nil {
					files[m], example[m] = map[int]bool{}, a.ZoneReason(z)
				}
				files[m][z.File] = true
			}
		}
		for m, fs := range files {
			st.Reasons = append(st.Reasons, StampedeReason{Model: m.model, Outcome: m.outcome, Clients: len(fs), Example: example[m]})
		}
		// Refused before at risk, then the most clients first.
		sort.Slice(st.Reasons, func(i, j int) bool {
			ri, rj := st.Reasons[i], st.Reasons[j]
			if ri.Outcome != rj.Outcome {
				return ri.Outcome == Refused
			}
			if ri.Clients != rj.Clients {
				return ri.Clients > rj.Clients
			}
			return ri.Model < rj.Model
		})
	}
}
