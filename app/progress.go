package app

import (
	"fmt"
	"runtime"
	"time"

	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// progressEvery is how often the progress bar moves. Each move rendered
// the page until moveProgress: done every MiB, that cost a fifth of a 100
// MB load.
const progressEvery = 200 * time.Millisecond

// progress is the state of the file being read.
type progress struct {
	name   string
	size   int64
	read   int64
	events int
	// building: every file is read, and the timeline is being built and
	// analysed (about a second for a million events).
	building bool
	// downloading: the file is a link's body, still coming from its
	// server; size is -1 when the server did not say it.
	downloading bool
	// connecting is the host of a link whose server has not answered
	// yet, "" once it has.
	connecting string
	// clients of ofClients virtual clients are made of the file read
	// (?split=); 0 of 0 before, or with no split.
	clients, ofClients int
}

// bar is the progress bar's value and maximum: bytes, or the virtual
// clients made once a split capture is read.
func (l progress) bar() (value, maximum int64) {
	if l.ofClients > 0 && !l.building {
		return int64(l.clients), int64(l.ofClients)
	}
	return l.read, max(l.size, 1)
}

func (l progress) text() string {
	if l.connecting != "" {
		return fmt.Sprintf("Connecting to %s for %s…", words.Isolated(l.connecting), words.Isolated(l.name))
	}
	if l.downloading {
		if l.size < 0 {
			return fmt.Sprintf("Downloading %s: %s", words.Isolated(l.name), quantity.Bytes(l.read))
		}
		return fmt.Sprintf("Downloading %s: %s of %s", words.Isolated(l.name), quantity.Bytes(l.read), quantity.Bytes(l.size))
	}
	if l.ofClients > 0 && !l.building {
		return fmt.Sprintf("Splitting %s into virtual clients: %d of %d made", words.Isolated(l.name), l.clients, l.ofClients)
	}
	if l.building {
		return fmt.Sprintf("Building the timeline of %s read from %s", quantity.Plural(l.events, "event"), words.Isolated(l.name))
	}
	return fmt.Sprintf("Reading %s: %s of %s, %s", words.Isolated(l.name), quantity.Bytes(l.read), quantity.Bytes(l.size), quantity.Plural(l.events, "event"))
}

// loadReport passes a load's progress on to show, at most every
// progressEvery; with no show (the warm-up) it passes nothing on.
type loadReport struct {
	show   func(progress)
	size   int64 // of the file being read
	events int   // read so far
	last   time.Time
}

func newLoadReport(show func(progress)) *loadReport {
	return &loadReport{show: show, last: time.Now()}
}

// fromBuilder is the Builder's Progress.
func (r *loadReport) fromBuilder(p timeline.ReadProgress) {
	r.events = p.Events
	if r.show == nil || time.Since(r.last) < progressEvery {
		return
	}
	r.last = time.Now()
	r.show(progress{name: p.File, size: r.size, read: p.Bytes, events: p.Events, clients: p.Clients, ofClients: p.OfClients})
}

// building reports that every file is read, and the timeline is being
// built: the last report, which sets go-app's render clock going (see
// Page.showProgress).
func (r *loadReport) building(name string) {
	if r.show != nil {
		r.show(progress{name: name, size: r.size, read: r.size, events: r.events, building: true})
	}
}

// renderProgress draws the bar that moveProgress then moves: what one
// shows of a progress report, the other must update.
func (p *Page) renderProgress() goapp.UI {
	l := p.loading
	value, maximum := l.bar()
	return goapp.Div().ID("progress").Class("progress").Body(
		goapp.Label().For("progress-bar").Text(l.text()),
		goapp.Progress().ID("progress-bar").Max(maximum).Attr("value", value),
	)
}

// moveProgress shows a report in the bar on the page, if there is one,
// without rendering the page: a render there costs 5-10 ms of the thread
// that parses, and came every progressEvery. It changes the nodes go-app
// made, as its next render would: the label's text node and the bar's
// attributes.
func moveProgress(l progress) bool {
	doc := goapp.Window().Get("document")
	bar, label := doc.Call("getElementById", "progress-bar"), doc.Call("querySelector", "#progress > label")
	if !bar.Truthy() || !label.Truthy() || !label.Get("firstChild").Truthy() {
		return false
	}
	label.Get("firstChild").Set("nodeValue", l.text())
	value, maximum := l.bar()
	bar.Call("setAttribute", "max", maximum)
	bar.Call("setAttribute", "value", value)
	return true
}

// showProgress shows a report of a goroutine's read in the progress bar.
func (p *Page) showProgress(ctx goapp.Context, pr progress) {
	ctx.Dispatch(func(ctx goapp.Context) {
		p.loading = &pr
		if moveProgress(pr) {
			ctx.PreventUpdate()
		}
	})
	// go-app runs a dispatch only once this goroutine lets it, and
	// renders 1/120 s after the first dispatch since it last did. Let it
	// now: the bar moves at once, and the last report, sent as the
	// timeline's building starts, sets that clock going, so the render
	// that shows the capture comes as soon as it is built, not 8 ms later.
	runtime.Gosched()
}
