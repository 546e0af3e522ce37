package timeline

import "math"

// Steps is a step series: at T(k) the value became (or was re-confirmed
// at) RV(k). The head estimate and the cursors are such series, and
// nearly all of their steps are events of the table, so a step is stored
// as its event's index, packed (a line through the indices, so a byte
// or none a step, where an instant and an RV took 16): the instant and
// RV are the event's. The steps that
// are no event (a cursor set from a session's request) or whose value is
// not the event's RV (the head raised by an error's too-old Y) are kept
// apart.
type Steps struct {
	tl    *Timeline
	ev    packed[int32] // step k's event, or ^j for extra[j]
	extra []step
	desc  []int32 // see Descents
	// sampleT[j] is step j*stepSample's instant, plain: a search over the
	// instants (a drawing does one per pixel column) narrows on these
	// before it decodes a step.
	sampleT []int64
}

// stepSample is the spacing of Steps.sampleT: 0.25 bytes a step.
const stepSample = 32

type step struct {
	t  int64
	rv uint64
}

// Len is the number of steps.
func (s *Steps) Len() int { return s.ev.len() }

// T is step k's instant.
func (s *Steps) T(k int) int64 { return s.tOf(s.ev.at(k)) }

// tOf is the instant of a step stored as i (see Steps.ev). It is small
// enough to be inlined: as wasm, calls to T in SearchT's loop would be a
// large part of a zoomed frame's drawing.
func (s *Steps) tOf(i int32) int64 {
	if e := s.apart(i); e != nil {
		return e.t
	}
	return s.tl.tab.t.at(int(i))
}

// apart decodes a step stored as i (see Steps.ev): the step kept apart
// that a negative i stands for, or nil when the step is the table's
// event i, whose instant and RV the caller reads from the table's
// columns, or from its readers of them (stepReader).
func (s *Steps) apart(i int32) *step {
	if i < 0 {
		return &s.extra[^i]
	}
	return nil
}

// RV is step k's value.
func (s *Steps) RV(k int) uint64 { return s.rvOf(s.ev.at(k)) }

// rvOf is the value of a step stored as i (see Steps.ev), small enough
// to be inlined, as tOf is.
func (s *Steps) rvOf(i int32) uint64 {
	if e := s.apart(i); e != nil {
		return e.rv
	}
	return s.tl.tab.rv.at(int(i))
}

// Step is step k's instant and value, decoding the step once.
func (s *Steps) Step(k int) (t int64, rv uint64) { return s.of(s.ev.at(k)) }

// Known is step k's instant and value, with ok false when the step holds
// no value (a watch from "now", or a counterfactual bookmark whose RV no
// capture shows): what a consumer plotting the series skips.
func (s *Steps) Known(k int) (t int64, rv uint64, ok bool) {
	t, rv = s.Step(k)
	return t, rv, rv != unsetRV && rv != unknownRV
}

// Event is the table index of the event that set (or re-confirmed) step
// k: what a click on a cursor's step selects. It is -1 for a step that is
// no event of the table (a cursor set from a session's request, the head
// raised by an error's too-old RV).
func (s *Steps) Event(k int) int {
	if i := s.ev.at(k); i >= 0 {
		return int(i)
	}
	return -1
}

// of is the instant and value of a step stored as i (see Steps.ev).
func (s *Steps) of(i int32) (t int64, rv uint64) {
	if e := s.apart(i); e != nil {
		return e.t, e.rv
	}
	return s.tl.tab.t.at(int(i)), s.tl.tab.rv.at(int(i))
}

// Range returns the step index range [lo, hi) of the steps in
// [from, to), plus the step in force at from (lo-1) when there is one:
// what a drawing of that window needs.
func (s *Steps) Range(from, to int64) (lo, hi int) {
	n := s.Len()
	lo = max(s.SearchT(0, n, from)-1, 0)
	hi = s.SearchT(0, n, to)
	return lo, max(hi, lo)
}

// SearchT returns the least k in [lo, hi) whose instant is t or later,
// or hi when there is none. It searches the sampled instants first, then
// decodes at most a sample's spacing of steps. (It takes an instant, not
// a predicate: as wasm, calls through closures are a large part of a
// drawing's searches.)
func (s *Steps) SearchT(lo, hi int, t int64) int {
	if lo >= hi {
		return hi
	}
	// The samples inside [lo, hi) are jlo <= j < jhi. Galloping from jlo
	// keeps a search that ends near lo (a column's steps, zoomed in) short.
	jlo, jhi := (lo+stepSample-1)/stepSample, (hi+stepSample-1)/stepSample
	j, step := jlo, 1
	for j+step <= jhi && s.sampleT[j+step-1] < t {
		j += step
		step *= 2
	}
	// The samples before j are earlier than t; the first that is not is
	// at most j+step-1.
	// Halve the samples [j, j+step-1) in the loop, not by a call: a
	// frame's drawing searches once per pixel column (Steps.Columns).
	for end := min(j+step-1, jhi); j < end; {
		if m := int(uint(j+end) >> 1); s.sampleT[m] < t {
			j = m + 1
		} else {
			end = m
		}
	}
	a, b := lo, hi
	if j > jlo {
		a = (j-1)*stepSample + 1 // sample j-1 is earlier
	}
	if j < jhi {
		b = j * stepSample // sample j is not
	}
	if j > jlo && j < jhi && a < b {
		a, b = s.nearT(a, b, t, s.sampleT[j-1], s.sampleT[j])
	}
	for a < b {
		if m := int(uint(a+b) >> 1); s.tOf(s.ev.at(m)) < t {
			a = m + 1
		} else {
			b = m
		}
	}
	return a
}

// nearT narrows [a, b], which holds the least step whose instant is t or
// later, between two samples whose instants are tA (earlier than t) and
// tB (not): it decodes the step where t falls on the line between them,
// then its neighbours at doubling distances on the side t is, until the
// least step lies between two decoded ones or at the end of a gallop.
// Steps mostly come at an even pace within a sample's spacing (a
// drawing's columns search at every pixel through thousands of them): two
// decodes then find the step, where halving the spacing takes five.
func (s *Steps) nearT(a, b int, t, tA, tB int64) (int, int) {
	// The differences as unsigned: t - tA and tB - tA are positive, and
	// may not fit an int64 (an instant far from the others).
	frac := float64(uint64(t)-uint64(tA)) / float64(uint64(tB)-uint64(tA))
	m := min(max(a-1+int(math.Ceil(frac*stepSample)), a), b-1)
	if s.tOf(s.ev.at(m)) < t {
		a = m + 1
		for step := 1; a < b; step *= 2 {
			p := min(a+step-1, b-1)
			if s.tOf(s.ev.at(p)) >= t {
				return a, p
			}
			a = p + 1
		}
		return a, b
	}
	b = m
	for step := 1; a < b; step *= 2 {
		p := max(b-step, a)
		if s.tOf(s.ev.at(p)) < t {
			return p + 1, b
		}
		b = p
	}
	return a, b
}

// stepBuilder appends to a Steps while the table is walked in order.
// Its steps but the last are sealed, packed as they fill (the head of a
// capture of millions of events has a step for nearly every one); the
// last, which a step at the same instant replaces, waits in last. Each
// step sealed is checked for a descent as it is (see Descents), from the
// value set gave it: decoding every step again once built was a large
// part of building the head and the cursors as wasm. The samples
// (Steps.sampleT) are decoded once the steps are sealed, one step in
// stepSample: taken as the steps were sealed, they stopped trySet at
// every stepSample-th step, for a call to set in the walks over every
// event.
type stepBuilder struct {
	s      *Steps
	ev     sealed[int32]
	last   int32 // the last step, when there is one (len() > 0)
	lastT  int64
	lastRV uint64
	n      int
	// sealedRV is the value of the last step sealed.
	sealedRV uint64
	// free counts the steps that can be sealed from here into the room
	// ev's tail has: trySet's to seal.
	free int
}

func newStepBuilder(tl *Timeline, s *Steps) *stepBuilder {
	s.tl = tl
	return &stepBuilder{s: s}
}

func (b *stepBuilder) len() int { return b.n }

// set records a new value (event ev, or when ev < 0 a step kept apart) or a
// re-confirmation; several at one instant keep only the last (estimated
// clocks put many events on one second). A step that is an event carries
// that event's instant and RV, as the table holds them.
func (b *stepBuilder) set(t int64, rv uint64, ev int) {
	replace := b.n > 0 && b.lastT == t
	if replace {
		// A step that was no event gives way: drop its record.
		if old := b.last; old < 0 && int(^old) == len(b.s.extra)-1 {
			b.s.extra = b.s.extra[:len(b.s.extra)-1]
		}
	} else {
		if b.n > 0 {
			b.seal()
		}
		b.n++
	}
	b.last = int32(ev)
	if ev < 0 {
		b.last = ^int32(len(b.s.extra))
		b.s.extra = append(b.s.extra, step{t, rv})
	}
	b.lastT, b.lastRV = t, rv
}

// trySet is set for a step that is an event (ev >= 0) at an instant of
// its own, when sealing the last step is no descent and fits in ev's
// tail; it says whether it did. It is small enough to be inlined:
// the head's and the cursors' steps are nearly every event, and as wasm
// a call for each cost more than the step.
func (b *stepBuilder) trySet(t int64, rv uint64, ev int) bool {
	if !b.takes(t) {
		return false
	}
	n := len(b.ev.tail)
	b.ev.tail = b.ev.tail[:n+1]
	b.ev.tail[n] = b.last
	b.free--
	b.n++
	b.sealedRV, b.last, b.lastT, b.lastRV = b.lastRV, int32(ev), t, rv
	return true
}

// takes says trySet takes a step that is an event at instant t.
func (b *stepBuilder) takes(t int64) bool {
	return b.free > 0 && b.lastT != t && b.lastRV != unsetRV && b.lastRV >= b.sealedRV
}

// seal appends the last step to the sealed ones, listing it among the
// descents when it is one.
func (b *stepBuilder) seal() {
	s, k, rv := b.s, b.ev.len(), b.lastRV
	if rv == unsetRV || k > 0 && (b.sealedRV == unsetRV || rv < b.sealedRV) {
		s.desc = append(s.desc, int32(k))
	}
	b.sealedRV = rv
	if !b.ev.tryAdd(b.last) {
		b.ev.add(b.last)
	}
	b.free = max(cap(b.ev.tail)-len(b.ev.tail)-1, 0)
}

// finish seals the last step and packs the steps.
func (b *stepBuilder) finish() {
	s := b.s
	if b.n > 0 {
		b.seal()
	}
	s.ev = b.ev.seal()
	n := s.ev.len()
	s.sampleT = make([]int64, 0, (n+stepSample-1)/stepSample)
	for k := 0; k < n; k += stepSample {
		s.sampleT = append(s.sampleT, s.tOf(s.ev.at(k)))
	}
}

// Descents lists, in order, the steps where the series does not rise: its
// value goes down, is unset, or comes back after being unset. Between two
// of them it only rises, which lets a drawing fold a run of steps from
// its two ends. The head never goes down and a cursor seldom does, so the
// list is short. The slice is the Steps' own: do not modify it.
func (s *Steps) Descents() []int32 { return s.desc }
