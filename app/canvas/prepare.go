package canvas

import "watchlens/timeline"

// Prepared is the groundwork of a timeline's first frame that grows with
// its lanes, done apart so that the one task that shows the capture does
// not also spend it.
type Prepared struct {
	Cache  *Cache
	Filter timeline.Filter
	Groups []Group
	Rows   []Row
	Shown  int
	// Taken is set once a view has taken Groups and Rows: it may change
	// the groups it holds.
	Taken bool
}

// Prepare lays the groundwork of tl's first frame under filter, with
// a pause between its two long steps.
func Prepare(tl *timeline.Timeline, filter timeline.Filter, pause func()) *Prepared {
	// Which lanes the InView filter shows depends on the range, which the
	// view settles when it mounts.
	p := &Prepared{Filter: filter, Taken: filter.InView}
	if !filter.InView {
		p.Groups, p.Rows, p.Shown = BuildRows(tl, filter, nil, nil)
		pause()
	}
	p.Cache = NewCache(tl)
	return p
}
