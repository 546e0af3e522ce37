package canvas

import (
	"math"
	"strconv"
)

// requestTrack is a counter track of an API server's metrics: the LIST
// and WATCH requests it finished per second between scrapes
// (apiserver_request_total, over every resource), as bars per pixel
// column on a log scale every server's track shares. A stampede of relists
// is a column of LISTs.
type requestTrack struct {
	c    *Cache
	srv  *serverInfo
	peak *float64 // the highest rate of any server's track
	// cols is the frame's scratch: the highest rate in each column.
	cols []float64
}

// requestsH is a request track's height, and requestColW its columns'
// width, CSS px.
const (
	requestsH   = 22.0
	requestColW = 2.0
)

func (t *requestTrack) label() string   { return "requests · " + t.srv.name }
func (t *requestTrack) height() float64 { return requestsH }

func (t *requestTrack) draw(v *View, b Band, s Scale, fr *Frame) {
	if *t.peak <= 0 {
		return
	}
	for _, verb := range []struct {
		rs    *requestSeries
		color string
		alpha float32
		inset float64
	}{{&t.srv.watch, ColorSession, 0.5, 0}, {&t.srv.list, ColorDeleted, 0.9, 0.5}} {
		fr.add(Op{Kind: "rect", Color: verb.color, Alpha: verb.alpha}, t.bars(verb.rs, b, s, verb.inset))
	}
}

// bars are a series' columns in view: each as high as the highest rate
// whose interval ends in it.
func (t *requestTrack) bars(rs *requestSeries, b Band, s Scale, inset float64) []float32 {
	n := max(int(s.Width/requestColW), 1)
	if cap(t.cols) < n {
		t.cols = make([]float64, n)
	}
	cols := t.cols[:n]
	clear(cols)
	for k := max(lastAtOrBefore(rs.t, s.From), 1); k < len(rs.t); k++ {
		if rs.t[k-1] > s.To {
			break
		}
		if rs.t[k]-rs.t[k-1] > rs.gap {
			continue
		}
		// The interval (t[k-1], t[k]] covers the columns it spans.
		a := max(int((s.XClamped(rs.t[k-1])-s.X0)/requestColW), 0)
		z := min(int((s.XClamped(rs.t[k])-s.X0)/requestColW), n-1)
		r := rs.rate(k)
		for col := a; col <= z; col++ {
			cols[col] = max(cols[col], r)
		}
	}
	var rects []float32
	h := b.Height - 3
	for col, r := range cols {
		if r <= 0 {
			continue
		}
		// A log scale: a stampede of relists stands out, and so does a
		// trickle beside it.
		bh := max(math.Log1p(r)/math.Log1p(*t.peak)*h, 1)
		rects = append(rects, float32(s.X0+float64(col)*requestColW+inset), float32(b.Y+b.Height-1-bh), float32(requestColW-inset), float32(bh))
	}
	return rects
}

func (t *requestTrack) hit(v *View, b Band, s Scale, at int64, x, y float64) Hit {
	h := Hit{Event: -1, Group: -1}
	l, w := &t.srv.list, &t.srv.watch
	k := lastAtOrBefore(l.t, at) + 1
	if k <= 0 || k >= len(l.t) {
		h.Text = "requests · server " + t.srv.name + ": no scrape of its requests then"
		return h
	}
	from, to := l.t[k-1], l.t[k]
	watches := 0.0
	for j := max(lastAtOrBefore(w.t, from)+1, 1); j < len(w.t) && w.t[j] <= to; j++ {
		watches += w.n[j]
	}
	finished := count(int(l.n[k]), "LIST", "LISTs") + " and " + count(int(watches), "WATCH", "WATCHes")
	if to-from > l.gap {
		// As the bars leave it out: nobody scraped the server then, and
		// what a process that ended unscraped counted is lost.
		h.Text = "requests · server " + t.srv.name + ": not scraped between " + clock(from, t.c.zone) + " and " + clock(to, t.c.zone) + ", so what it finished then is not known"
		if r := lastAtOrBefore(t.srv.restarts, to); r >= 0 && t.srv.restarts[r] > from {
			h.Text += "; it restarted then, and its new process had finished " + finished + " by " + clock(to, t.c.zone) + " (its metrics, every resource)"
		}
		return h
	}
	h.Text = "server " + t.srv.name + " finished " + finished +
		" between " + clock(from, t.c.zone) + " and " + clock(to, t.c.zone) + " (its metrics, every resource; a WATCH counts when it ends)"
	return h
}

// count says n of a thing, one or many.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
