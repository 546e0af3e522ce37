package load

import "watchlens/timeline"

// Options say how a load reads its sources and analyses what they hold.
type Options struct {
	// Filter is the view the capture is prepared for.
	Filter timeline.Filter
	// Split, if not nil, splits each capture into virtual clients.
	Split *timeline.Split
	// Params are the retention model's settings for the analysis.
	Params timeline.Params
}

// Open has the engine read sources into one capture and analyse it
// (the verdict is the capture's Opened.Summary). It runs in a goroutine, passes its progress to show at most every progressEvery (a
// nil show gets nothing), and returns ErrSuperseded once turn is
// superseded. A panic in the read or the analysis ends the load with its
// error (see Safely), so the page can open another capture.
func Open(sources []Source, opts Options, show func(Progress), turn Turn) (*Capture, error) {
	var c *Capture
	failure := Safely(func() { c = read(sources, opts, newProgressReport(show), turn) })
	if failure != nil && !turn.Superseded() {
		return nil, failure
	}
	if c == nil || turn.Superseded() {
		return nil, ErrSuperseded
	}
	return c, nil
}
