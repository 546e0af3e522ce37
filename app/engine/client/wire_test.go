package client

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"watchlens/timeline"
)

// The retention model's params cross a message whole, their zone by
// name, where their own JSON loses the zone.
func TestParamsCrossWithTheirZone(t *testing.T) {
	p := timeline.DefaultParams()
	p.CacheWindow, p.Servers = 20*time.Second, 3
	p.Restarts = []timeline.Restart{{From: 1e18, To: 1e18 + 5e9}}
	loc, err := timeline.ParseZone("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	p.Zone = loc
	for _, want := range []timeline.Params{p, timeline.DefaultParams()} {
		b, err := json.Marshal(WireParams(want))
		if err != nil {
			t.Fatal(err)
		}
		var w Params
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		got, err := w.Read()
		if err != nil {
			t.Fatal(err)
		}
		if got.Zone.String() != want.Zone.String() {
			t.Errorf("the zone crossed as %v, want %v", got.Zone, want.Zone)
		}
		got.Zone, want.Zone = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the params crossed as %+v, want %+v", got, want)
		}
	}
	var plain timeline.Params
	b, _ := json.Marshal(p)
	if json.Unmarshal(b, &plain); plain.Zone != nil && plain.Zone.String() == "Europe/Paris" {
		t.Error("the params' own JSON keeps the zone: the name is not needed")
	}
}

// A question the user repeats as they move (frames, hits, finds as they
// type, loads, analyses) is answered only while it is the latest of its
// kind; a panel's question, which its panel waits for, always is, as is
// the warm-up.
func TestSupersedes(t *testing.T) {
	for _, kind := range []string{"open", "analyze", "frame", "layout", "summary", "hit", "step", "zones", "find", "fleetframe", "fleethit"} {
		if !Supersedes(kind) {
			t.Errorf("a later %s question does not supersede an earlier one", kind)
		}
	}
	for _, kind := range []string{"warm", "files", "event", "findings", "rangestats", "reconnectat", "fleet", "fleetrange", "report"} {
		if Supersedes(kind) {
			t.Errorf("a later %s question supersedes an earlier one, whose panel waits for it", kind)
		}
	}
}
