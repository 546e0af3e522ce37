package engine

import (
	"sort"
	"strings"

	"watchlens/app/canvas"
	"watchlens/timeline"
)

// ViewState is the timeline view as the page holds it: everything a
// frame, a hit test or the view's summary depends on. It is plain and
// comparable, so that the page tells whether a frame is due by comparing
// two.
type ViewState struct {
	Filter   timeline.Filter
	AxisRV   bool
	From, To int64 // the range shown, on the axis AxisRV says
	// Width is the canvas's CSS width; MaxHeight, when not 0, the room it
	// has (the lane area fills it); PixelRatio the screen's.
	Width, MaxHeight, PixelRatio float64
	ScrollY                      float64
	// SeenTop and SeenHeight are the layout's rows the page shows, which
	// a frame draws alone (canvas.View's); SeenHeight 0 for all of them.
	SeenTop, SeenHeight float64
	// Folded and Pinned are the files whose groups of tracks are folded
	// and pinned to the top, as canvas.FileSet.String writes them.
	Folded, Pinned string
	// Collapsed is the keys of the collapsed groups of lanes
	// (canvas.Group.Key), each followed by "\n", in sorted order.
	Collapsed string
	Selected  int   // the selected event, -1 for none
	Marker    int64 // the instant a reconnect is asked about, 0 for none
	// Print draws a picture for a document, without the controls.
	Print bool
	// Selecting: a shift-drag is under way, between these pixel xs.
	Selecting            bool
	SelectFrom, SelectTo float64
}

// CollapsedText is ViewState.Collapsed of a set of group keys.
func CollapsedText(collapsed map[string]bool) string {
	var keys []string
	for k, c := range collapsed {
		if c {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('\n')
	}
	return b.String()
}

// rowsKey is what the rows of lanes depend on.
type rowsKey struct {
	filter    timeline.Filter
	collapsed string
	from, to  int64 // with Filter.InView on the time axis; else 0
}

// rowsCache holds the rows of the latest view asked about.
type rowsCache struct {
	key    rowsKey
	built  bool
	groups []canvas.Group
	rows   []canvas.Row
	shown  int
}

// fileSets holds the last folded and pinned sets parsed.
type fileSets struct {
	folded, pinned   string
	foldedS, pinnedS canvas.FileSet
}

func (e *Engine) fileSets(folded, pinned string) (canvas.FileSet, canvas.FileSet) {
	if folded != e.fs.folded || pinned != e.fs.pinned {
		e.fs.folded, e.fs.pinned = folded, pinned
		e.fs.foldedS, _ = canvas.ParseFileSet(folded, maxFileSet)
		e.fs.pinnedS, _ = canvas.ParseFileSet(pinned, maxFileSet)
	}
	return e.fs.foldedS, e.fs.pinnedS
}

// rowsFor builds the rows of lanes st shows, or keeps the last ones.
func (e *Engine) rowsFor(st *ViewState) *rowsCache {
	key := rowsKey{filter: st.Filter, collapsed: st.Collapsed}
	inView := st.Filter.InView && !st.AxisRV && st.To > st.From
	if inView {
		key.from, key.to = st.From, st.To
	}
	r := &e.rows
	if r.built && r.key == key {
		return r
	}
	r.key, r.built = key, true
	if p := e.prepared; !p.Taken && p.Filter == st.Filter && !inView && st.Collapsed == "" {
		// The groundwork the load did: taken once, since the rows are
		// rebuilt from then on.
		p.Taken = true
		r.groups, r.rows, r.shown = p.Groups, p.Rows, p.Shown
		return r
	}
	collapsed := map[string]bool{}
	for k := range strings.SplitSeq(st.Collapsed, "\n") {
		if k != "" {
			collapsed[k] = true
		}
	}
	var active func(int) bool
	if inView {
		active = timeline.LanesActiveIn(e.tl, st.From, st.To)
	}
	r.groups, r.rows, r.shown = canvas.BuildRows(e.tl, st.Filter, collapsed, active)
	return r
}

// canvasView is the canvas's input for st.
func (e *Engine) canvasView(st *ViewState) *canvas.View {
	r := e.rowsFor(st)
	folded, pinned := e.fileSets(st.Folded, st.Pinned)
	return &canvas.View{Analysis: e.an, Filter: st.Filter, AxisRV: st.AxisRV, From: st.From, To: st.To,
		Width: st.Width, MaxHeight: st.MaxHeight, PixelRatio: st.PixelRatio, SeenTop: st.SeenTop, SeenHeight: st.SeenHeight, Groups: r.groups, Rows: r.rows,
		ScrollY: st.ScrollY, FoldedFiles: folded, PinnedFiles: pinned, Selected: st.Selected, Print: st.Print,
		Selecting: st.Selecting, SelectFrom: st.SelectFrom, SelectTo: st.SelectTo, Marker: canvas.Marker(st.Marker)}
}

// Drawn is what a frame answers besides its drawing: its layout (where
// the plot, the bands and the lanes are, which the page's gestures and
// hit tests read), the rows of lanes shown and the scroll the lanes were
// drawn at, kept within them.
type Drawn struct {
	Layout  canvas.Layout
	Rows    int
	ScrollY float64
}

// Frame builds the frame of the view st into fr, whose buffers are
// reused from frame to frame. A frame for a picture (Print) leaves the
// layout that hit tests answer for as it was.
func (e *Engine) Frame(st ViewState, fr *canvas.Frame) Drawn {
	v := e.canvasView(&st)
	folded, pinned := e.fileSets(st.Folded, st.Pinned)
	layout := e.cache.Layout(st.Width, st.MaxHeight, len(v.Rows), st.AxisRV, canvas.HasHad(e.an), folded, pinned)
	v.ScrollY = layout.ClampScroll(v.ScrollY)
	layout = e.cache.Build(v, fr)
	if !st.Print {
		e.layout = layout
	}
	return Drawn{Layout: layout, Rows: len(v.Rows), ScrollY: v.ScrollY}
}

// Layout places the bands of the view st without drawing it: the page
// reads the stage's least height from it before the first frame.
func (e *Engine) Layout(st ViewState) canvas.Layout {
	r := e.rowsFor(&st)
	folded, pinned := e.fileSets(st.Folded, st.Pinned)
	return e.cache.Layout(st.Width, st.MaxHeight, len(r.rows), st.AxisRV, canvas.HasHad(e.an), folded, pinned)
}

// Hit is what lies under the pointer: a tooltip, the event a click
// selects (-1 for none), the group of lanes a click folds (-1 for none,
// with its key and whether it is collapsed), or a file's name band,
// whose group of tracks a click folds, or with Pin pins.
type Hit struct {
	Text           string
	Event          int
	Group          int
	GroupKey       string
	GroupCollapsed bool
	FileBand       bool
	File           int
	Pin            bool
}

// Hit answers for the pointer at (x, y), CSS pixels of the canvas, over
// the last frame drawn of the view st.
func (e *Engine) Hit(st ViewState, x, y float64) Hit {
	v := e.canvasView(&st)
	h := canvas.HitTest(e.cache, v, &e.layout, x, y)
	out := Hit{Text: h.Text, Event: h.Event, Group: h.Group, FileBand: h.FileBand, File: h.File, Pin: h.Pin}
	if h.Group >= 0 && h.Group < len(v.Groups) {
		g := &v.Groups[h.Group]
		out.GroupKey, out.GroupCollapsed = g.Key(), g.Collapsed
	}
	return out
}

// maxFileSet bounds the files a folded or pinned set names: the page has
// read them from a link already, within its own bound, and a set may
// name files past the capture's (they fold nothing).
const maxFileSet = 1 << 30
