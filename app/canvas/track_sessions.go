package canvas

import (
	"strconv"

	"watchlens/timeline"
)

// sessionsBand is a file's band of watch connections.
type sessionsBand struct{}

func (sessionsBand) label() string      { return "sessions" }
func (sessionsBand) height(int) float64 { return sessionH }

// paint draws each watch connection as a bar and each reconnect gap
// (from a session's end to the next one's start in the same file) as a
// notch at least 3 px wide, so a sub-second reconnect stays visible;
// dashed boundaries run down through the lanes.
func (sessionsBand) paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame) {
	var bars, gaps, bounds []float32
	for _, b := range layout.Bands {
		if b.ID == BandSessions {
			bars, gaps, bounds = c.sessionBand(v, layout, b, s, bars, gaps, bounds)
		}
	}
	fr.add(Op{Kind: "rect", Color: ColorSession, Alpha: 0.7}, bars)
	fr.add(Op{Kind: "rect", Color: ColorDeleted, Alpha: 0.8}, gaps)
	fr.add(Op{Kind: "seg", Color: ColorMuted, Size: 1, Dashed: true, Alpha: 0.6}, bounds)
}

// sessionBand adds the sessions of band b's file to bars, gaps and bounds.
// A file's band reads the file's sessions alone (see Cache.sessByFile).
func (c *Cache) sessionBand(v *View, layout *Layout, b Band, s Scale, bars, gaps, bounds []float32) ([]float32, []float32, []float32) {
	bottom := layout.LanesY + layout.LanesH
	n := len(c.tl.Sessions)
	if b.File >= 0 {
		n = 0
		if b.File < len(c.sessByFile) {
			n = len(c.sessByFile[b.File])
		}
	}
	for k := range n {
		ss := &c.tl.Sessions[k]
		if b.File >= 0 {
			ss = &c.tl.Sessions[c.sessByFile[b.File][k]]
		}
		from, to := ss.Start, ss.End
		if v.AxisRV {
			a, z, ok := ss.RVRange()
			if !ok {
				continue
			}
			from, to = int64(a), int64(z)+1
		} else if ss.Gap >= 0 && ss.Start > v.From && ss.Start-ss.Gap < v.To {
			x1, x2 := s.XClamped(ss.Start-ss.Gap), s.XClamped(ss.Start)
			w := max(x2-x1, 3)
			gaps = append(gaps, float32(x2-w), float32(b.Y+1), float32(w), float32(b.Height-2))
		}
		if to < v.From || from > v.To {
			continue
		}
		x1, x2 := s.XClamped(from), s.XClamped(to)
		bars = append(bars, float32(x1), float32(b.Y+3), float32(max(x2-x1, 1.5)), float32(b.Height-6))
		for _, x := range []float64{x1, x2} {
			if x >= s.X0 && x <= s.X0+s.Width {
				bounds = append(bounds, float32(x), float32(b.Y), float32(x), float32(bottom))
			}
		}
	}
	return bars, gaps, bounds
}

// sessionAt describes the reconnect gap or the session under the pointer;
// gaps first, within slop, since they may be narrower than a pixel.
func (c *Cache) sessionAt(b Band, axisRV bool, at, slop int64) string {
	tl := c.tl
	if !axisRV {
		for _, s := range tl.Sessions {
			if inFile(b, s.File) && s.Gap >= 0 && at >= s.Start-s.Gap-slop && at <= s.Start+slop {
				return "reconnect gap of " + timeline.FormatDuration(s.Gap) + " before session " + strconv.Itoa(s.Index) + " of " + tl.Files[s.File].Name +
					": no watch was open; the client resumed from its cursor at " + c.FormatTime(s.Start)
			}
		}
	}
	for g, s := range tl.Sessions {
		if !inFile(b, s.File) {
			continue
		}
		from, to := s.Start, s.End
		if axisRV {
			a, z, ok := s.RVRange()
			if !ok {
				continue
			}
			from, to = int64(a), int64(z)+1
		}
		if at >= from && at <= to {
			return c.sessionText(g)
		}
	}
	return ""
}

func (c *Cache) sessionText(g int) string {
	tl := c.tl
	s := tl.Sessions[g]
	t := "session " + strconv.Itoa(s.Index) + " of " + tl.Files[s.File].Name + ": " + c.FormatTime(s.Start) + " – " + c.FormatTime(s.End)
	if s.Request != nil {
		rv := s.Request.ResourceVersion
		if rv == "" {
			rv = `""`
		}
		t += "\nwatch from resourceVersion " + rv
		if s.Request.AllowWatchBookmarks {
			t += ", with bookmarks"
		}
	}
	if a := AnsweredBy(tl, g); a != "" {
		t += "\n" + a
	}
	t += "\n" + strconv.Itoa(s.Events) + " events, " + strconv.Itoa(s.Bookmarks) + " bookmarks; ended: " + s.EndReason.String()
	if s.Error != nil {
		t += " (" + s.Error.Message + ")"
	}
	return t
}

// hit answers for the sessions band at axis value at: an ERROR
// marked there first, else the session or reconnect gap, else, where no
// watch was open, what a client coming back then would get.
func (sessionsBand) hit(c *Cache, v *View, p pointer) Hit {
	b, at, slop := p.band, p.at, p.slop
	if h := c.errorHit(v, b, at, slop); h.Event >= 0 || h.Text != "" {
		return h
	}
	h := Hit{Event: -1, Group: -1, Text: c.sessionAt(b, v.AxisRV, at, slop)}
	if h.Text == "" && !v.AxisRV {
		// No watch open here: what would coming back now get?
		h.Text = c.reconnectText(v.Analysis, []timeline.CursorKind{timeline.BookmarkAware, timeline.BookmarkIgnoring, timeline.HadBookmarks}, p, "the sessions")
	}
	return h
}

// AnsweredBy says which API server, and its process, answered session
// g ("answered by server c, process 1 of 2"), "" when no audit log says.
func AnsweredBy(tl *timeline.Timeline, g int) string {
	if s := SessionServer(tl, g); s != "" {
		return "answered by server " + s
	}
	return ""
}

// SessionServer names the API server, and its process, that answered
// session g ("c, process 1 of 2"), "" when no audit log says.
func SessionServer(tl *timeline.Timeline, g int) string {
	srv, inc, ok := tl.ServerOf(g)
	if !ok {
		return ""
	}
	t := tl.Servers[srv].Name
	if inc >= 0 {
		t += ", process " + strconv.Itoa(inc+1)
		if n := len(tl.Servers[srv].Incarnations); n > 1 {
			t += " of " + strconv.Itoa(n)
		}
	}
	return t
}
