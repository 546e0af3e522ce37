package canvas

import (
	"strings"
	"testing"
)

// TestFleetRowShowsProfile: pointing at a row of samples-outage's fleet
// names its client's library: the 20 clients that send client-go's
// default User-Agent ("-defua"), of a build with no version stamp, read
// "client library: client-go, version not stamped (in fleet)"; the
// others, whose User-Agent names no library, read client-go and how it
// was told: their watches' timeout parameter.
func TestFleetRowShowsProfile(t *testing.T) {
	d := recordingFleet(t, "samples-outage", "*.ts.http")
	if len(d.Rows) != 99 {
		t.Fatalf("the fleet has %d rows, want samples-outage's 99", len(d.Rows))
	}
	var fr Frame
	var buf FleetScratch
	named := 0
	for r := range d.Rows {
		v := &FleetViewport{From: d.From, To: d.To, Width: 1280, PixelRatio: 1, ScrollY: float64(r) * FleetRowH}
		l := d.Build(v, &fr, &buf)
		h := d.HitTest(v, &l, 20, l.RowY(r, v.ScrollY)+FleetRowH/2)
		name := d.Rows[r].Client.Name
		if h.Row != r {
			t.Fatalf("row %d (%s) is not hit at its middle: row %d", r, name, h.Row)
		}
		if strings.Contains(name, "-defua") {
			named++
			if !strings.Contains(h.Text, "\nclient library: client-go, version not stamped (in fleet)\n") {
				t.Errorf("%s: the hover names its library otherwise: %q", name, h.Text)
			}
		} else if !strings.Contains(h.Text, "\nclient library: client-go; its watches send timeout=") {
			t.Errorf("%s: the hover says %q", name, h.Text)
		}
	}
	if named != 20 {
		t.Errorf("%d rows name client-go, want samples-outage's 20 clients with its default User-Agent", named)
	}
}
