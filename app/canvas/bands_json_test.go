package canvas

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestBandsAsJSON writes a layout's bands as the page's data-bands does
// and reads them back as the browser tests do: the same bands, each
// kind by its name, and every kind of kinds with a name of its own.
func TestBandsAsJSON(t *testing.T) {
	seen := map[string]BandID{}
	for id := range kinds {
		name, ok := kindNames[id]
		if !ok || name == "" {
			t.Errorf("band kind %d has no name", int(id))
		} else if other, dup := seen[name]; dup {
			t.Errorf("band kinds %d and %d are both named %q", int(id), int(other), name)
		}
		seen[name] = id
	}
	layout := FileLayout(1280, 0, 3, []string{"w1.http", "w4.http"}, false, true, FileSet{}, FileSet{})
	layout.Bands[0].RVTop, layout.Bands[0].RVBot = 1823, 1672
	text, err := json.Marshal(layout.Bands)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"ID":"file"`, `"ID":"cursors"`, `"ID":"zone-had"`, `"Label":"w4.http"`} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the bands' JSON has no %s: %s", want, text)
		}
	}
	var back []Band
	if err := json.Unmarshal(text, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, layout.Bands) {
		t.Errorf("read back, the bands are\n%+v\nwritten, they were\n%+v", back, layout.Bands)
	}
	var id BandID
	if err := json.Unmarshal([]byte(`"zone"`), &id); err == nil {
		t.Errorf("the unknown kind \"zone\" read as %d, without an error", int(id))
	}
	if _, err := json.Marshal(BandID(len(kindNames))); err == nil {
		t.Error("a band kind past the names wrote without an error")
	}
}
