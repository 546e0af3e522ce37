package timeline

// blockReader reads a packed column whose reads mostly move forward a
// value or a few at a time (a cursor pass's walks over steps and
// changes): it keeps the block it reads from decoded, so that such a
// read is one load where packed.at decodes a value through the block
// list at every read. A read outside the decoded block decodes that one
// value; the block is decoded only at the second read in a row that
// falls in it, so reads that jump about cost about what packed.at does.
// It is not generic, and its values are uint64(T) (as a block's): then
// at is small enough to be inlined, which matters most as wasm.
type blockReader struct {
	blocks []block
	n      int
	lo     int      // the index of buf[0]
	buf    []uint64 // the decoded block: values lo to lo+len(buf)-1
	// missed is the block of the last read outside buf, or -1.
	missed int
}

func newBlockReader[T integer](p *packed[T]) blockReader {
	return blockReader{blocks: p.blocks, n: p.n, missed: -1}
}

// at reads value i, as uint64(T).
func (r *blockReader) at(i int) uint64 {
	if i -= r.lo; uint(i) < uint(len(r.buf)) {
		return r.buf[i]
	}
	return r.miss(i)
}

// miss reads value r.lo+d, outside buf.
func (r *blockReader) miss(d int) uint64 {
	i := r.lo + d
	k := i >> blockBits
	b := &r.blocks[k]
	if k != r.missed {
		r.missed = k
		return b.value(uint32(i & blockMask))
	}
	r.missed = -1
	r.lo = k << blockBits
	n := min(r.n-r.lo, 1<<blockBits)
	if cap(r.buf) < n {
		// Allocated at the first decode: a walk of a few steps (most
		// cursors') reads every value from its block.
		r.buf = make([]uint64, n, 1<<blockBits)
	}
	r.buf = r.buf[:n]
	for j := range r.buf {
		r.buf[j] = b.value(uint32(j))
	}
	return r.buf[i-r.lo]
}

// firstAboveFrom returns the first index k from start (at or before the
// answer) with p's value above v, or p's length, for a column whose
// values do not fall; r reads p. It reads the next few values through r
// first, as a search that moves forward by a little with each step of a
// walk mostly ends there, then gallops (gallopAbove).
func firstAboveFrom[T integer](r *blockReader, p *packed[T], start int, v T) int {
	for end := min(start+readAhead, p.len()); start < end; start++ {
		if T(r.at(start)) > v {
			return start
		}
	}
	return gallopAbove(p, start, v)
}

// readAhead is how many values a walk's search reads one by one before it
// gallops.
const readAhead = 4

// timeReader reads the instants of a kind's changes for a walk over them
// that mostly moves forward (see blockReader); a nil one decodes each
// instant (kindSeries.t).
type timeReader struct {
	ev, t blockReader
}

func newTimeReader(s *kindSeries) timeReader {
	return timeReader{ev: newBlockReader(&s.ev), t: newBlockReader(&s.tab.t)}
}

// at is change k's instant in s, the series r reads.
func (r *timeReader) at(s *kindSeries, k int) int64 {
	if r == nil {
		return s.t(k)
	}
	return int64(r.t.at(int(int32(r.ev.at(k)))))
}

// stepReader reads the steps of a Steps for a walk over them that mostly
// moves forward (see blockReader).
type stepReader struct {
	s         *Steps
	ev, t, rv blockReader
}

func newStepReader(s *Steps) stepReader {
	return stepReader{s: s, ev: newBlockReader(&s.ev), t: newBlockReader(&s.tl.tab.t), rv: newBlockReader(&s.tl.tab.rv)}
}

// step is step k's instant and value (Steps.Step).
func (r *stepReader) step(k int) (t int64, rv uint64) {
	i := int32(r.ev.at(k))
	if i < 0 {
		return r.s.extra[^i].t, r.s.extra[^i].rv
	}
	return int64(r.t.at(int(i))), r.rv.at(int(i))
}

// time is step k's instant (Steps.T).
func (r *stepReader) time(k int) int64 {
	i := int32(r.ev.at(k))
	if i < 0 {
		return r.s.extra[^i].t
	}
	return int64(r.t.at(int(i)))
}
