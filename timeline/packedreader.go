package timeline

// blockReader reads a packed column whose reads mostly move forward a
// value or a few at a time (a cursor pass's walks over steps and
// changes): it keeps the block it reads from decoded, so that such a
// read is one load where packed.at decodes a value through the block
// list at every read. A read outside the decoded block decodes that one
// value; the block is decoded only once reads in a row keep falling in
// it close together (decodeAfter), so reads that jump about cost about
// what packed.at does.
// It is not generic, and its values are uint64(T) (as a block's): then
// at is small enough to be inlined, which matters most as wasm.
type blockReader struct {
	blocks []block
	n      int
	lo     int      // the index of buf[0]
	buf    []uint64 // the decoded block: values lo to lo+len(buf)-1
	// missed is the block of the last read outside buf, or -1, misses
	// the reads in a row that fell in it, and from the first of them.
	missed, misses, from int
}

// decodeAfter is how many reads in a row must fall in a block, within
// 4*decodeAfter values, for a blockReader to decode it: a walk that reads
// a few values of each block it passes, or values far apart in one (a
// narrow client's cursor over the kind's changes or the head), would
// decode far more values than it reads.
const decodeAfter = 16

func newBlockReader[T integer](p *packed[T]) blockReader {
	return blockReader{blocks: p.blocks, n: p.n, missed: -1}
}

// reuse makes r the reader fresh, keeping r's buffer for its decodes,
// and its decoded block when fresh reads the column r read (the table's
// and the head's, which every cursor pass reads).
func (r *blockReader) reuse(fresh blockReader) {
	if r.n == fresh.n && r.n > 0 && &r.blocks[0] == &fresh.blocks[0] {
		return
	}
	buf := r.buf[:0]
	*r = fresh
	r.buf = buf
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
		r.missed, r.misses, r.from = k, 0, i
	}
	if r.misses++; r.misses < decodeAfter {
		return b.value(uint32(i & blockMask))
	}
	if uint(i-r.from) >= 4*decodeAfter {
		// Sparse reads (a narrow client's cursor, a few values a step):
		// a decode would serve few of them. Count afresh from here.
		r.misses, r.from = 0, i
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
const readAhead = 2

// timeReader reads the instants of a kind's changes for a walk over them
// that mostly moves forward (see blockReader); a nil one decodes each
// instant (kindSeries.t).
type timeReader struct {
	ev, t blockReader
}

// reuse makes r a reader of s (of the kind's changes), keeping its
// buffers.
func (r *timeReader) reuse(s *kindSeries) {
	r.ev.reuse(newBlockReader(&s.ev))
	r.t.reuse(newBlockReader(&s.tab.t))
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

// reuse makes r a reader of s, keeping its buffers.
func (r *stepReader) reuse(s *Steps) {
	r.s = s
	r.ev.reuse(newBlockReader(&s.ev))
	r.t.reuse(newBlockReader(&s.tl.tab.t))
	r.rv.reuse(newBlockReader(&s.tl.tab.rv))
}

// step is step k's instant and value (Steps.Step).
func (r *stepReader) step(k int) (t int64, rv uint64) {
	i := int32(r.ev.at(k))
	if e := r.s.apart(i); e != nil {
		return e.t, e.rv
	}
	return int64(r.t.at(int(i))), r.rv.at(int(i))
}

// time is step k's instant (Steps.T).
func (r *stepReader) time(k int) int64 {
	i := int32(r.ev.at(k))
	if e := r.s.apart(i); e != nil {
		return e.t
	}
	return int64(r.t.at(int(i)))
}
