package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"watchlens/app/engine"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// The fleet recording's rows, and rows of names that are not UTF-8 or
// not ASCII, cross as their JSON did: the same names, servers, files and
// marks, read back from the strings and figures that crossed.
func TestFleetRowsCrossAsTheirJSON(t *testing.T) {
	files := testsample.Files(t, testsample.AsGiven, testsample.FleetRecords(t)...)
	sources := make([]engine.Source, len(files))
	for i, f := range files {
		sources[i] = engine.Source{Name: f.Name, Size: int64(len(f.Data)), Data: bytes.NewReader(f.Data)}
	}
	e, _, err := engine.Open(sources, engine.Options{Params: timeline.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	f, ok := e.Fleet()
	if !ok || len(f.Rows) < 10 {
		t.Fatalf("the fleet recording has %d rows (a fleet: %v)", len(f.Rows), ok)
	}
	servers := 0
	for _, r := range f.Rows {
		if r.Servers != "" {
			servers++
		}
	}
	if servers == 0 {
		t.Fatal("no row of the fleet recording names its servers: the test would check none")
	}
	rows := append(f.Rows,
		engine.FleetRow{Name: "bad \xff\xfe name", Servers: "a#1 \xc3", File: 7, MayMix: true},
		engine.FleetRow{Name: "", Servers: "", File: -1},
		engine.FleetRow{Name: "ünïcode ⚠ name", Servers: "b#2", File: 1 << 20})
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	var want []engine.FleetRow
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	got, err := WireFleetRows(rows).Read()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("row %d crossed as %+v, its JSON as %+v", i, got[i], want[i])
			}
		}
		t.Fatalf("%d rows crossed, %d in their JSON", len(got), len(want))
	}
	// Figures that do not fit the strings are an error, not rows.
	w := WireFleetRows(rows)
	for _, bad := range []FleetRows{{Names: w.Names[1:], Servers: w.Servers, Ints: w.Ints}, {Names: w.Names, Servers: w.Servers, Ints: w.Ints[1:]}, {Names: append(bytes.Clone(w.Names), 'x'), Servers: w.Servers, Ints: w.Ints}} {
		if rows, err := bad.Read(); err == nil {
			t.Errorf("%d rows read from figures that do not fit", len(rows))
		}
	}
}
