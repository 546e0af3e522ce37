package load

import (
	"fmt"
	"time"

	"watchlens/app/engine"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// progressEvery is how often the progress bar moves: a few times a
// second shows the read going on, and each move is a call into the page
// that the load pays for.
const progressEvery = 200 * time.Millisecond

// Progress is the state of the file being read.
type Progress struct {
	Name   string
	Size   int64
	Read   int64
	Events int
	// Building: every file is read, and the timeline is being built and
	// analysed (about a second for a million events).
	Building bool
	// Downloading: the file is a link's body, still coming from its
	// server; Size is -1 when the server did not say it.
	Downloading bool
	// Connecting is the host of a link whose server has not answered
	// yet, "" once it has.
	Connecting string
	// Clients of OfClients virtual clients are made of the file read
	// (?split=); 0 of 0 before, or with no split.
	Clients, OfClients int
}

// Bar is the progress bar's value and maximum: bytes, or the virtual
// clients made once a split capture is read.
func (l Progress) Bar() (value, maximum int64) {
	if l.OfClients > 0 && !l.Building {
		return int64(l.Clients), int64(l.OfClients)
	}
	return l.Read, max(l.Size, 1)
}

// Text is what the progress bar says.
func (l Progress) Text() string {
	if l.Connecting != "" {
		return fmt.Sprintf("Connecting to %s for %s…", words.Isolated(l.Connecting), words.Isolated(l.Name))
	}
	if l.Downloading {
		if l.Size < 0 {
			return fmt.Sprintf("Downloading %s: %s", words.Isolated(l.Name), quantity.Bytes(l.Read))
		}
		return fmt.Sprintf("Downloading %s: %s of %s", words.Isolated(l.Name), quantity.Bytes(l.Read), quantity.Bytes(l.Size))
	}
	if l.OfClients > 0 && !l.Building {
		return fmt.Sprintf("Splitting %s into virtual clients: %d of %d made", words.Isolated(l.Name), l.Clients, l.OfClients)
	}
	if l.Building {
		return fmt.Sprintf("Building the timeline of %s read from %s", quantity.Plural(l.Events, "event"), words.Isolated(l.Name))
	}
	return fmt.Sprintf("Reading %s: %s of %s, %s", words.Isolated(l.Name), quantity.Bytes(l.Read), quantity.Bytes(l.Size), quantity.Plural(l.Events, "event"))
}

// progressReport passes a load's progress on to show, at most every
// progressEvery; with no show (the warm-up) it passes nothing on.
type progressReport struct {
	show   func(Progress)
	size   int64 // of the file being read
	events int   // read so far
	last   time.Time
	// built is the last report, once every file is read (building).
	built *Progress
}

func newProgressReport(show func(Progress)) *progressReport {
	return &progressReport{show: show, last: time.Now()}
}

// reading is told of each file before it is read.
func (r *progressReport) reading(src engine.Source) { r.size = src.Size }

// fromBuilder is the Builder's Progress.
func (r *progressReport) fromBuilder(p timeline.ReadProgress) {
	r.events = p.Events
	if r.show == nil || time.Since(r.last) < progressEvery {
		return
	}
	r.last = time.Now()
	r.show(Progress{Name: p.File, Size: r.size, Read: p.Bytes, Events: p.Events, Clients: p.Clients, OfClients: p.OfClients})
}

// building reports that every file is read, and the timeline is being
// built: the last report, which sets go-app's render clock going (see
// the page's showProgress).
func (r *progressReport) building(name string) {
	if r.show != nil {
		Stamp(ReadDone)
		r.built = &Progress{Name: name, Size: r.size, Read: r.size, Events: r.events, Building: true}
		r.show(*r.built)
	}
}
