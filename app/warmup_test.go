package app

import (
	"io/fs"
	"slices"
	"testing"

	"watchlens/warmup"
)

// TestWarmIncidentIsTheSites: the files the page has the engine's spare
// worker open in its warm-up are the incident the site serves under
// /web/warmup/, each once: a file missing from the site would end the
// warm-up before it opened the incident, and one left out of the list
// would be shipped for nothing.
func TestWarmIncidentIsTheSites(t *testing.T) {
	served, err := fs.Glob(warmup.FS, "*")
	if err != nil {
		t.Fatal(err)
	}
	listed := slices.Sorted(slices.Values(warmIncident))
	if !slices.Equal(listed, served) {
		t.Errorf("the page lists the incident's files %v, the site serves %v", listed, served)
	}
}
