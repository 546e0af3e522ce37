package app

import "testing"

// The dock opens on the Event tab, or, when an instant is marked already
// (a link with ?at=, whose files were just dropped), on the Reconnect
// tab, which answers for it.
func TestDockOpensOnTheMarkersAnswer(t *testing.T) {
	d := &Dock{}
	d.OnInit()
	if d.tab != tabEvent {
		t.Errorf("with nothing marked the dock opens on the %s tab", d.tab)
	}
	d = &Dock{ReconnectAt: 1_764_579_898_973_000_000, Selected: -1}
	d.OnInit()
	if d.tab != tabReconnect {
		t.Errorf("with an instant marked the dock opens on the %s tab, not the Reconnect tab", d.tab)
	}
}
