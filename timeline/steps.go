package timeline

import (
	"sort"
)

// Steps is a step series: at T(k) the value became (or was re-confirmed
// at) RV(k). The head estimate and the cursors are such series, and
// nearly all of their steps are events of the table, so a step is stored
// as its event's index, packed (about 2 bytes a step, where an instant
// and an RV took 16): the instant and RV are the event's. The steps that
// are no event (a cursor set from a session's request) or whose value is
// not the event's RV (the head raised by an error's too-old Y) are kept
// apart.
type Steps struct {
	tl    *Timeline
	ev    packed[int32] // step k's event, or ^j for extra[j]
	extra []step
	desc  []int32 // see Descents
}

type step struct {
	t  int64
	rv uint64
}

// Len is the number of steps.
func (s *Steps) Len() int { return s.ev.len() }

// T is step k's instant.
func (s *Steps) T(k int) int64 {
	i := s.ev.at(k)
	if i < 0 {
		return s.extra[^i].t
	}
	return s.tl.tab.t.at(int(i))
}

// RV is step k's value.
func (s *Steps) RV(k int) uint64 {
	i := s.ev.at(k)
	if i < 0 {
		return s.extra[^i].rv
	}
	return s.tl.tab.rv.at(int(i))
}

// Step is step k's instant and value, decoding the step once.
func (s *Steps) Step(k int) (t int64, rv uint64) {
	i := s.ev.at(k)
	if i < 0 {
		return s.extra[^i].t, s.extra[^i].rv
	}
	return s.tl.tab.t.at(int(i)), s.tl.tab.rv.at(int(i))
}

// Range returns the step index range [lo, hi) of the steps in
// [from, to), plus the step in force at from (lo-1) when there is one:
// what a drawing of that window needs.
func (s *Steps) Range(from, to int64) (lo, hi int) {
	n := s.Len()
	lo = max(sort.Search(n, func(k int) bool { return s.T(k) >= from })-1, 0)
	hi = sort.Search(n, func(k int) bool { return s.T(k) >= to })
	return lo, max(hi, lo)
}

// stepBuilder appends to a Steps while the table is walked in order.
type stepBuilder struct {
	s      *Steps
	ev     column[int32]
	lastT  int64
	lastRV uint64
}

func newStepBuilder(tl *Timeline, s *Steps) *stepBuilder {
	s.tl = tl
	return &stepBuilder{s: s}
}

func (b *stepBuilder) len() int { return b.ev.n }

// set records a new value (event ev, or when ev < 0 a step kept apart) or a
// re-confirmation; several at one instant keep only the last (estimated
// clocks put many events on one second).
func (b *stepBuilder) set(t int64, rv uint64, ev int) {
	replace := b.ev.n > 0 && b.lastT == t
	if replace {
		// A step that was no event gives way: drop its record.
		if old := b.ev.at(b.ev.n - 1); old < 0 && int(^old) == len(b.s.extra)-1 {
			b.s.extra = b.s.extra[:len(b.s.extra)-1]
		}
	}
	e := int32(ev)
	if ev < 0 {
		e = ^int32(len(b.s.extra))
		b.s.extra = append(b.s.extra, step{t, rv})
	}
	if replace {
		b.ev.set(b.ev.n-1, e)
	} else {
		b.ev.add(e)
	}
	b.lastT, b.lastRV = t, rv
}

// finish packs the steps and lists their descents, from the plain
// column: a drawing would otherwise decode every step to find them.
func (b *stepBuilder) finish(pace *pacer) {
	s, tab := b.s, &b.s.tl.tab
	prev := uint64(0)
	for k := range b.ev.n {
		pace.tick(1)
		var rv uint64
		if i := b.ev.at(k); i < 0 {
			rv = s.extra[^i].rv
		} else {
			rv = tab.rv.at(int(i))
		}
		if rv == unsetRV || k > 0 && (prev == unsetRV || rv < prev) {
			s.desc = append(s.desc, int32(k))
		}
		prev = rv
	}
	s.ev = pack(&b.ev, pace)
}

// Descents lists, in order, the steps where the series does not rise: its
// value goes down, is unset, or comes back after being unset. Between two
// of them it only rises, which lets a drawing fold a run of steps from
// its two ends. The head never goes down and a cursor seldom does, so the
// list is short. The slice is the Steps' own: do not modify it.
func (s *Steps) Descents() []int32 { return s.desc }
