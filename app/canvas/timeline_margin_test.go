package canvas

import (
	"strings"
	"testing"

	"watchlens/timeline"
)

// w4-then-resume.http's server answered 410 Gone at the recording's last
// instant: the red zones are that instant's, the amber ones (at risk) run
// up to it, and all stop there, as the recording does. Past the end, in
// the view's margin, nothing was recorded: the hovers of the zone bands,
// the sessions band and the cursor strip say that the recording ends
// there and answer for its last instant, as the zones drawn there do,
// not for an instant where nothing is drawn; the zone bands' hover says
// that an Alt-click asks the later instant instead (Reconnect at), which
// on this capture gets the same answer. Before the start, the hovers say
// that the recording begins.
func TestTimelineMarginSaysTheRecordingEnds(t *testing.T) {
	tl, c, v, layout, s := wholeFrame(t, "w4-then-resume.http")
	an := v.Analysis
	start, end := tl.Start(), tl.End()
	if s.X(start) <= layout.PlotX+1 || s.X(end+1) >= layout.PlotX+layout.PlotW-1 {
		t.Fatalf("the clock %.0f-%.0f px leaves no margin in the plot %.0f-%.0f", s.X(start), s.X(end+1), layout.PlotX, layout.PlotX+layout.PlotW)
	}

	// The zones drawn stop at the clock's end, the last of them red.
	var fr Frame
	c.Build(v, &fr)
	redAtEnd := false
	for _, col := range []string{ColorZone, ColorRisk} {
		for _, op := range opsOf(&fr, "rect", col) {
			for k := 0; k < op.Count/4; k++ {
				x := float64(fr.floats[op.Offset+4*k])
				if x > s.X(end+1) {
					t.Errorf("a %s zone is drawn from x %.0f, past the clock's end at %.0f", col, x, s.X(end+1))
				}
				redAtEnd = redAtEnd || col == ColorZone && x >= s.X(end)-1
			}
		}
	}
	if !redAtEnd {
		t.Fatal("no red zone at the recording's last instant: the margin is not exercised")
	}

	past := s.At(s.X(end + (v.To-end)/2))
	// An Alt-click there marks the pixel's roundest instant, which the
	// hover names; the exact instant would read otherwise.
	asked := s.Roundest(past)
	if c.FormatTime(asked) == c.FormatTime(past) {
		t.Fatalf("the pointer's instant %s reads as its pixel's roundest: the rounding is not exercised", c.FormatTime(past))
	}
	endsAt := "The recording ends at " + c.FormatTime(end) + ": nothing was recorded after it"
	for _, b := range layout.Bands {
		x, y := s.X(past), b.Y+b.Height/2
		text := HitTest(c, v, &layout, x, y).Text
		switch b.ID {
		case BandZoneAware, BandZoneIgnoring, BandZoneHad:
			kind := ZoneBandKind(b.ID)
			last := an.Verdict(0, kind, end, an.Params.Delay)
			for _, want := range []string{
				endsAt + ", and the zones stop there.",
				"a drop at " + c.FormatTime(end) + ":",
				kind.Words() + ": " + an.Words(last),
				"Alt-click: what a reconnect at " + c.FormatTime(asked) + " would get, each cursor judged as the client left it.",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("past the end the %s band says\n%s\nwithout %q", b.Label, text, want)
				}
			}
			if strings.Contains(text, "a drop at "+c.FormatTime(past)) {
				t.Errorf("past the end the %s band answers for %s, where no zone is drawn:\n%s", b.Label, c.FormatTime(past), text)
			}
			// What the Alt-click there answers.
			for _, rv := range an.ResumeAt(0, asked) {
				if rv.Kind == kind && rv.Outcome != last.Outcome {
					t.Errorf("past the end the %s band says %s at the last instant; an Alt-click there gets %s", b.Label, last.Outcome, rv.Outcome)
				}
			}
			if kind == timeline.BookmarkIgnoring && last.Outcome != timeline.Refused {
				t.Errorf("a drop at the last instant, ignoring bookmarks, is %s, not refused as the zone drawn there", last.Outcome)
			}
		case BandSessions:
			if want := endsAt + ", and the sessions stop there.\na drop at " + c.FormatTime(end) + ":"; !strings.HasPrefix(text, want) {
				t.Errorf("past the end the sessions band says\n%s\nwant it to begin %q", text, want)
			}
		case BandCursors:
			cur := &tl.Cursors[int(timeline.BookmarkIgnoring)]
			_, since, _, _ := cur.At(end)
			want := endsAt + ", and the cursors stop there.\nat " + c.FormatTime(end)
			if !strings.HasPrefix(text, want) || !strings.Contains(text, "bookmark-ignoring: RV 389, last current "+timeline.FormatDuration(end-since)+" before") {
				t.Errorf("past the end the cursor strip says\n%s\nwant it to begin %q and give the cursors at the end", text, want)
			}
		}

		// Before the start.
		text = HitTest(c, v, &layout, s.X(v.From+(start-v.From)/2), y).Text
		switch b.ID {
		case BandZoneAware, BandZoneIgnoring, BandZoneHad, BandSessions, BandCursors:
			if want := "The recording begins at " + c.FormatTime(start) + ": nothing was recorded before it."; text != want {
				t.Errorf("before the start the %s band says %q, want %q", b.Label, text, want)
			}
		}
	}
}

// Two recordings share a clock that ends at the later one's end: past
// it the hover speaks of the recordings, and the earlier one's zones,
// which run on to the clock's end, answer for that end too.
func TestTimelineMarginOfTwoRecordings(t *testing.T) {
	tl, an := twoFiles(t)
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	s := v.PlotScale(&layout)
	end := tl.End()
	w4 := 1 // w4-then-resume.ts.http, which ended before the clock
	if tl.Files[w4].End >= end {
		t.Fatalf("%s ends at the clock's end: the test needs it to end before", tl.Files[w4].Name)
	}
	past := s.At(s.X(end + (v.To-end)/2))
	for _, b := range layout.Bands {
		if b.ID != BandZoneIgnoring || b.File != w4 {
			continue
		}
		text := HitTest(c, v, &layout, s.X(past), b.Y+b.Height/2).Text
		last := an.Verdict(w4, timeline.BookmarkIgnoring, end, an.Params.Delay)
		for _, want := range []string{
			"The recordings end at " + c.FormatTime(end) + ": nothing was recorded after it, and the zones stop there.",
			"a drop at " + c.FormatTime(end) + ":",
			"ignoring bookmarks: " + an.Words(last),
		} {
			if !strings.Contains(text, want) {
				t.Errorf("past the clock's end %s's band says\n%s\nwithout %q", tl.Files[w4].Name, text, want)
			}
		}
		if last.Outcome != timeline.Refused {
			t.Errorf("%s's reconnect at the clock's end, ignoring bookmarks, is %s: its 410 said refused", tl.Files[w4].Name, last.Outcome)
		}
		return
	}
	t.Fatalf("no zone band of %s", tl.Files[w4].Name)
}
