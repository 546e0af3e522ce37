package canvas

import "watchlens/app/words"

// The timeline shows a margin before the shared clock's first instant
// and past its last, where nothing was recorded. The zones, the sessions
// and the cursors stop at the clock's ends, so a band's hover in a margin
// says that nothing was recorded there and, past the end, answers for
// the clock's last instant, said as such, as the zones drawn there do;
// an Alt-click there (Reconnect at) asks the instant clicked, each cursor
// as the client left it, and the hover says so.

// offClock says where instant at lies against the shared clock: -1
// before its first instant, 1 past its last, 0 on it, and 0 where there
// is no clock to be off (no file, or none with a clock).
func (c *Cache) offClock(at int64) int {
	switch {
	case c.noClock || len(c.tl.Files) == 0:
		return 0
	case at < c.start:
		return -1
	case at > c.end:
		return 1
	}
	return 0
}

// beginsText says that nothing was recorded before the clock's start.
func (c *Cache) beginsText() string {
	return words.RecordingBegins(len(c.tl.Files) > 1, c.FormatTime(c.start)) + "."
}

// endsText says that nothing was recorded past the clock's end, where
// marks (the zones, the cursors; "" for none named) stop.
func (c *Cache) endsText(marks string) string {
	t := words.RecordingEnds(len(c.tl.Files) > 1, c.FormatTime(c.end))
	if marks != "" {
		t += ", and " + marks + " stop there"
	}
	return t + "."
}

// askLaterText says what an Alt-click past the clock's end asks instead
// of what the hover says: a reconnect at instant at, the one the click
// marks (Scale.Roundest).
func (c *Cache) askLaterText(at int64) string {
	return "Alt-click: what a reconnect at " + c.FormatTime(at) + " would get, each cursor judged as the client left it."
}
