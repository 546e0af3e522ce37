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

// Loaded is what a load makes: the capture, and what the retention model
// says of it.
type Loaded struct {
	Capture  *Capture
	Analysis *timeline.Analysis
	Summary  []timeline.SummaryLine
}

// Open reads sources into one capture and analyses it. It runs in a
// goroutine, passes its progress to show at most every progressEvery (a
// nil show gets nothing), and returns ErrSuperseded once turn is
// superseded. A panic in the read or the analysis ends the load with its
// error (see Safely), so the page can open another capture.
func Open(sources []Source, opts Options, show func(Progress), turn Turn) (Loaded, error) {
	var l Loaded
	failure := Safely(func() {
		l.Capture = read(sources, opts.Filter, opts.Split, newProgressReport(show), turn)
		if l.Capture != nil {
			l.Analysis, l.Summary = Analyze(l.Capture.Timeline, opts.Params)
		}
	})
	if failure != nil && !turn.Superseded() {
		return Loaded{}, failure
	}
	if l.Capture == nil || turn.Superseded() {
		return Loaded{}, ErrSuperseded
	}
	return l, nil
}
